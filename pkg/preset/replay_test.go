package preset

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// A replay cell's pace is its capture's length at its speed: twice as
// fast takes half as long; back to back, or no replay, has none.
func TestReplayPace(t *testing.T) {
	for _, tt := range []struct {
		replay *workload.Replay
		want   time.Duration
	}{
		{&workload.Replay{Duration: int64(10 * time.Second), Speed: 2}, 5 * time.Second},
		{&workload.Replay{Duration: int64(10 * time.Second), Speed: 1}, 10 * time.Second},
		{&workload.Replay{Duration: int64(10 * time.Second)}, 0},
		{nil, 0},
	} {
		p := workload.DefaultPlan()
		p.Replay = tt.replay
		if got := ReplayPace(&p); got != tt.want {
			t.Errorf("%+v: pace %v, want %v", tt.replay, got, tt.want)
		}
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
		err := CheckPace("X", &workload.Plan{Replay: &workload.Replay{Speed: tt.speed, Duration: tt.dur}})
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("speed %g of %s: %v, want %q", tt.speed, time.Duration(tt.dur), err, tt.want)
		}
	}
}
