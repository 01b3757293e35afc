package preset

import (
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
