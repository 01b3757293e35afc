package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
)

// Exit codes. They are part of gobench's interface (docs/failures.md).
const (
	ExitOK          = 0
	ExitFailure     = 1   // the run failed: a worker died, the engine failed
	ExitUsage       = 2   // bad input: flags, paths, scripts, a database gobench did not create
	ExitThreshold   = 3   // a gate failed: an --expect, or a regression beyond --max-regression
	ExitUndecided   = 4   // a verdict the data could not decide (--inconclusive fail, the default)
	ExitHangup      = 129 // stopped by SIGHUP (the terminal or session closed); as ExitInterrupted
	ExitInterrupted = 130 // stopped by SIGINT; a run's partial result was written
	ExitQuit        = 131 // stopped by SIGQUIT, after a dump of every goroutine; as ExitInterrupted
	ExitBrokenPipe  = 141 // stopped by SIGPIPE: the reader of stdout or stderr is gone; as ExitInterrupted
	ExitTerminated  = 143 // stopped by SIGTERM; as ExitInterrupted
)

// usageError marks an error in what the user asked for: exit 2, one
// line on stderr.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usage marks err as a usage error; nil stays nil.
func usage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// syntax marks err, a command line that does not parse (an unknown flag
// or command, a flag value of the wrong type, a stray argument), as a
// usage error whose line names the command's help.
func syntax(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	return usageError{fmt.Errorf("%w (see '%s --help')", suggestFlag(cmd, err), cmd.CommandPath())}
}

// exitStatus is the exit status of a program gobench ran for the user
// (gobench capture), passed on as gobench's own, and printed by no one.
type exitStatus struct{ code int }

func (e exitStatus) Error() string { return fmt.Sprintf("the program exited with status %d", e.code) }

// exitCode maps an error to the process's exit code: the one table.
func exitCode(err error) int {
	var ue usageError
	var sc *signalCause
	var es exitStatus
	var se *sqlscript.Error      // a script or schema that does not parse, prepare or run before the workers start
	var fe *sqltrace.FormatError // a trace truncated or corrupt, wherever it was found
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &sc): // a signal stopped the command, whatever failed with it
		return sc.code
	case errors.As(err, &es):
		return es.code
	case errors.Is(err, judge.ErrThreshold):
		return ExitThreshold
	case errors.Is(err, judge.ErrInconclusive):
		return ExitUndecided
	case errors.Is(err, context.Canceled):
		// Before bad input: reading an input (a FIFO) that an interrupt
		// ended is no bad input.
		return ExitInterrupted
	case errors.As(err, &ue), errors.As(err, &se), errors.As(err, &fe), errors.Is(err, sqltrace.ErrNewer), errors.Is(err, store.ErrInvalid), errors.Is(err, store.ErrForeign), errors.Is(err, coord.ErrInUse), errors.Is(err, coord.ErrExists), errors.Is(err, coord.ErrTempDir), errors.Is(err, errNoPeer):
		return ExitUsage
	case errors.Is(err, coord.ErrWorker):
		return ExitFailure
	}
	return ExitFailure
}
