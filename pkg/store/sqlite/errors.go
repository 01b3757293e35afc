package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// SQLite primary result codes gobench classifies.
const (
	codeBusy       = 5
	codeLocked     = 6
	codeIOErr      = 10
	codeFull       = 13
	codeConstraint = 19
)

// wrap tags a driver error with its class.
func (d *Driver) wrap(err error) error {
	if err == nil {
		return nil
	}
	code, ok := d.be.code(err)
	if !ok {
		return store.Wrap(store.Other, err)
	}
	return store.Wrap(classOf(code), err)
}

// classOf maps an SQLite result code, primary or extended, to its class.
func classOf(code int) store.Class {
	switch code & 0xff {
	case codeBusy:
		return store.Busy
	case codeLocked:
		return store.Locked
	case codeIOErr:
		return store.IO
	case codeFull:
		return store.Full
	case codeConstraint:
		return store.Constraint
	}
	return store.Other
}

// interrupted returns err, made to match ctx's error when ctx is done: a
// statement stopped by sqlite3_interrupt fails with SQLITE_INTERRUPT (or
// the driver's own error), which does not say why. A nil ctx is never
// done.
func interrupted(ctx context.Context, err error) error {
	if err == nil || ctx == nil || ctx.Err() == nil || errors.Is(err, ctx.Err()) {
		return err
	}
	return fmt.Errorf("%w: %w", ctx.Err(), err)
}
