package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
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

// A replay slowed so far that the trace would take more than maxPaced is
// refused, saying how long it would take; speeds at or above the
// capture's, and max, are not bounded.
func TestCheckPace(t *testing.T) {
	threeSec := int64(3 * time.Second)
	tests := []struct {
		speed float64
		dur   int64
		want  string
	}{
		{1e-7, threeSec, "the trace's 3s of statements would take 347 days"},
		{1e-8, threeSec, "would take 9.51 years"},
		{0.00001, threeSec, "would take 3.47 days"},
		{0.0001, threeSec, ""}, // 8h20m
		{0, threeSec, ""},
		{1, int64(72 * time.Hour), ""}, // a capture of three days, at its own pace
		{0.5, int64(20 * time.Hour), "would take 40h0m0s"},
	}
	for _, tt := range tests {
		err := checkPace("X", &workload.Replay{Speed: tt.speed, Duration: tt.dur})
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("speed %g of %s: %v, want %q", tt.speed, time.Duration(tt.dur), err, tt.want)
		}
	}
}
