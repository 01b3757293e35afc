package store

import (
	"errors"
	"fmt"
)

// Class is the kind of outcome of one operation. Samples carry a Class, and
// results count errors by Class. The zero value is OK.
type Class uint8

// The outcome classes. Their numeric values travel in the wire format and
// must not change.
const (
	OK         Class = iota // the operation succeeded
	NotFound                // the key does not exist (not an error for reads of deleted keys)
	Busy                    // the database was busy: a lock could not be taken in time (SQLITE_BUSY)
	Locked                  // a table or shared-cache lock conflict (SQLITE_LOCKED)
	Constraint              // a constraint was violated (SQLITE_CONSTRAINT)
	IO                      // an I/O error from the engine or the OS (SQLITE_IOERR, EIO)
	Full                    // the disk or database is full (SQLITE_FULL, ENOSPC)
	Other                   // any other error
	// OpenTx marks an op after which the connection was still inside a
	// transaction, though no batch was open: whatever it wrote was not
	// committed, so it is no acknowledged write (see TxProber).
	OpenTx
	// Script marks a script of the user's that failed in gobench before
	// any of its SQL ran: a \set expression that cannot be evaluated,
	// such as a division by zero.
	Script
	numClasses
)

// NumClasses is the number of classes; valid classes are below it.
const NumClasses = int(numClasses)

var classNames = [...]string{
	OK:         "ok",
	NotFound:   "not_found",
	Busy:       "busy",
	Locked:     "locked",
	Constraint: "constraint",
	IO:         "io",
	Full:       "full",
	Other:      "other",
	OpenTx:     "open_tx",
	Script:     "script",
}

// String returns the class's stable name, as used in JSON results.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// IsError reports whether the class is a failed operation. NotFound is not
// an error: a read of a missing key is a valid outcome.
func (c Class) IsError() bool { return c != OK && c != NotFound }

// Sentinel errors, one per class, for errors.Is.
var (
	ErrNotFound   = errors.New("not found")
	ErrBusy       = errors.New("database busy")
	ErrLocked     = errors.New("database table locked")
	ErrConstraint = errors.New("constraint violated")
	ErrIO         = errors.New("I/O error")
	ErrFull       = errors.New("disk or database full")
	ErrOpenTx     = errors.New("connection left inside a transaction")
)

// Setup errors, which are not operation outcomes.
var (
	// ErrInvalid marks a configuration the engine cannot accept.
	ErrInvalid = errors.New("invalid store configuration")
	// ErrForeign marks an existing database that gobench did not create
	// and therefore refuses to modify.
	ErrForeign = errors.New("not a gobench database")
)

var classSentinels = [...]error{
	NotFound:   ErrNotFound,
	Busy:       ErrBusy,
	Locked:     ErrLocked,
	Constraint: ErrConstraint,
	IO:         ErrIO,
	Full:       ErrFull,
	OpenTx:     ErrOpenTx,
}

// Error is an engine error tagged with its class. Engines return it (via
// Wrap) so that Classify needs no knowledge of any engine.
type Error struct {
	Class Class
	Err   error
}

// Wrap tags err with class c. It returns nil for a nil err.
func Wrap(c Class, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Class: c, Err: err}
}

// Error returns the engine's message.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the engine's own error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrBusy) (and the other class sentinels) true
// for an Error of that class.
func (e *Error) Is(target error) bool {
	if int(e.Class) < len(classSentinels) && classSentinels[e.Class] != nil {
		return target == classSentinels[e.Class]
	}
	return false
}

// Classify returns the class of err: OK for nil, the class of the first
// *Error in its chain, the class of a sentinel it wraps, or Other.
func Classify(err error) Class {
	if err == nil {
		return OK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	for c, s := range classSentinels {
		if s != nil && errors.Is(err, s) {
			return Class(c)
		}
	}
	return Other
}
