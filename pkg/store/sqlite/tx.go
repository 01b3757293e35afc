package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// txSteps are one connection's transaction statements, run as they are,
// and SQLite's own view of whether a transaction is open. Each binding's
// connection provides them; txn alone decides when to run them.
type txSteps interface {
	execBegin() error // BEGIN IMMEDIATE
	execCommit() error
	execRollback() error
	// autocommit is sqlite3_get_autocommit: true when no transaction is
	// open on the connection.
	autocommit() bool
}

// txn owns a connection's transaction state: it is the only code that
// runs BEGIN, COMMIT or ROLLBACK on an op connection, and every path
// through it ends in a known state. An op is acknowledged only after its
// COMMIT succeeded; a COMMIT or BEGIN that failed leaves no transaction
// open (SQLite may keep a transaction open after a busy COMMIT: txn rolls
// it back, or retries the COMMIT where a retry policy is installed).
// Whether a transaction is open is never remembered, only asked of SQLite
// (autocommit); txn remembers only that the caller opened a batch.
type txn struct {
	steps txSteps
	d     *Driver
	// batch is set between a Begin that succeeded and the Commit or
	// Rollback that ends it.
	batch bool
	// wait is the retry policy's hook (see store.BusyRetrier); nil fails
	// a busy step at once.
	wait func() bool
	// running is the step under way, for a busy handler that counts;
	// busyBegins and busyCommits count the times BEGIN and COMMIT found
	// the database busy or locked (see store.BusyStepCounter).
	running                 stepKind
	busyBegins, busyCommits int
	// counted is set where the engine's busy handler counts every busy
	// answer itself (ncruces), so step does not count them twice.
	counted bool
	// intr is the context whose cancellation interrupts the connection
	// (store.Interrupter), nil when none is set: the errors of what it
	// stopped are made to say so.
	intr context.Context
}

// wrapErr classifies an error of the connection's, made to match the
// cancellation that interrupted it, if one did.
func (t *txn) wrapErr(err error) error { return interrupted(t.intr, t.d.wrap(err)) }

// stepKind names the transaction step under way.
type stepKind uint8

const (
	stepOther stepKind = iota
	stepBegin
	stepCommit
)

// sawBusy counts one busy or locked answer to the step under way.
func (t *txn) sawBusy() {
	switch t.running {
	case stepBegin:
		t.busyBegins++
	case stepCommit:
		t.busyCommits++
	}
}

// TakeBusySteps returns how often BEGIN and COMMIT found the database
// busy or locked since the last call, and starts counting anew.
func (t *txn) TakeBusySteps() (begins, commits int) {
	begins, commits = t.busyBegins, t.busyCommits
	t.busyBegins, t.busyCommits = 0, 0
	return begins, commits
}

// begin runs BEGIN IMMEDIATE as a step, retried while busy as the hook
// says.
func (t *txn) begin() error { return t.stepAs(stepBegin, t.steps.execBegin) }

// commit runs COMMIT as a step, retried while busy as the hook says.
func (t *txn) commit() error { return t.stepAs(stepCommit, t.steps.execCommit) }

// stepAs runs f as a step of kind k (see step), counting its busy answers.
func (t *txn) stepAs(k stepKind, f func() error) error {
	t.running = k
	defer func() { t.running = stepOther }()
	return t.step(f)
}

// lockErr reports whether err (wrapped by Driver.wrap) is a lock conflict
// that a later attempt may not meet.
func lockErr(err error) bool {
	c := store.Classify(err)
	return c == store.Busy || c == store.Locked
}

// step runs f, wraps its error with its class, and runs it again for as
// long as it fails busy or locked and the retry hook says to.
func (t *txn) step(f func() error) error {
	err := t.wrapOp(f())
	for err != nil && lockErr(err) {
		if !t.counted {
			t.sawBusy()
		}
		if t.wait == nil || !t.wait() {
			break
		}
		err = t.wrapOp(f())
	}
	return err
}

// settle rolls back whatever transaction SQLite still has open, after a
// failure that may have left one (a busy COMMIT does; an I/O error or a
// full disk may have rolled it back already).
func (t *txn) settle() error {
	if t.steps.autocommit() {
		return nil
	}
	if err := t.steps.execRollback(); err != nil {
		return fmt.Errorf("rolling back: %w", t.d.wrap(err))
	}
	return nil
}

// fail settles the connection after err and returns err, joined with the
// rollback's own failure if there was one.
func (t *txn) fail(err error) error {
	if serr := t.settle(); serr != nil {
		return errors.Join(err, serr)
	}
	return err
}

// read runs a read statement: alone in autocommit, where a busy one is
// retried as the hook says, or inside the open batch, where it is not.
func (t *txn) read(op func() error) error {
	if t.batch {
		return t.wrapOp(op())
	}
	return t.step(op)
}

// write runs a write statement as its own BEGIN IMMEDIATE … COMMIT, or
// inside the open batch. On its own it is acknowledged (nil) only once
// its COMMIT succeeded; on any failure it is rolled back. A busy BEGIN or
// COMMIT is retried as the hook says; a statement that found the database
// busy inside the transaction cannot be retried there, so the transaction
// is rolled back and begun again. ErrNotFound from op passes through
// (after a rollback: nothing was written).
func (t *txn) write(op func() error) error {
	if t.batch {
		return t.wrapOp(op())
	}
	for {
		if err := t.begin(); err != nil {
			return t.fail(err)
		}
		if err := t.wrapOp(op()); err != nil {
			if serr := t.settle(); serr != nil {
				return errors.Join(err, serr)
			}
			if lockErr(err) && t.wait != nil && t.wait() {
				continue
			}
			return err
		}
		if err := t.commit(); err != nil {
			return t.fail(err)
		}
		return nil
	}
}

// wrapOp classifies an op's error, passing ErrNotFound through as it is.
func (t *txn) wrapOp(err error) error {
	if err == nil || errors.Is(err, store.ErrNotFound) {
		return err
	}
	return t.wrapErr(err)
}

// Begin opens a batch with BEGIN IMMEDIATE (retried while busy as the hook
// says). When it fails, no transaction is open.
func (t *txn) Begin() error {
	if t.batch {
		return errors.New("a batch is already open on this connection")
	}
	if err := t.begin(); err != nil {
		return t.fail(err)
	}
	t.batch = true
	return nil
}

// Commit commits the open batch (a busy COMMIT retried as the hook says).
// Whatever it returns, the batch is over and no transaction is open: a
// COMMIT that failed is rolled back, and none of the batch's ops happened.
func (t *txn) Commit() error {
	if !t.batch {
		return errors.New("no batch is open on this connection")
	}
	t.batch = false
	if err := t.commit(); err != nil {
		return t.fail(err)
	}
	return nil
}

// Rollback ends the open batch, if any, and rolls back any transaction
// SQLite has open on the connection, whoever opened it.
func (t *txn) Rollback() error {
	t.batch = false
	return t.settle()
}

// InTx asks SQLite whether a transaction is open on the connection.
func (t *txn) InTx() bool { return !t.steps.autocommit() }

// SetBusyRetry installs the retry policy's hook (see store.BusyRetrier).
func (t *txn) SetBusyRetry(wait func() bool) { t.wait = wait }
