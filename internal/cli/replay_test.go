package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// A damaged or newer trace is bad input wherever it is found (the plan's
// reading, a worker's, the snapshot's installation): exit 2, its message
// naming the offset.
func TestExitCodeDamagedTrace(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("reading the trace: %w", &sqltrace.FormatError{Offset: 319, Msg: "a chunk's checksum does not match its bytes"}),
		fmt.Errorf("installing the snapshot: %w", fmt.Errorf("x: %w", sqltrace.ErrNewer)),
	} {
		if got := exitCode(err); got != ExitUsage {
			t.Errorf("exitCode(%v) = %d, want %d", err, got, ExitUsage)
		}
	}
	if got := exitCode(errors.New("the engine failed")); got != ExitFailure {
		t.Errorf("an engine's failure: exit %d", got)
	}
}
