package report

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// A folded replay says what the fold is, the rate it offered (at its
// speed, its copies counted) and the rate it achieved, each against the
// capture's at that speed; one not folded says nothing of a fold.
func TestReplayLinesFold(t *testing.T) {
	fold := func() *workload.ReplayFold {
		return &workload.ReplayFold{Slices: 4, Slice: workload.Duration(1500 * time.Millisecond), Statements: []int64{100, 100, 100, 99}, Schema: 1,
			CapturedRate: 100, OfferedRate: 350}
	}
	tests := []struct {
		name      string
		rp        workload.Replay
		wall      float64
		want, not []string
	}{
		{"at its pace", workload.Replay{Speed: 1, TimeFold: fold()}, 2,
			[]string{"fold 4: 4 slices of 1.5s each, 400 statements (1 schema statement of them run once first) · captured 100 statements/s · offered 350 statements/s (×3.50 the captured) · achieved 200 statements/s (×2.00 the captured)",
				"divergence: not judged under --fold 4", "database: not compared with the capture's end: --fold 4 ran the capture's 4 time slices at once"}, nil},
		{"twice its pace, two copies", workload.Replay{Speed: 2, Scale: 2, TimeFold: fold()}, 2,
			[]string{"offered 700 statements/s (×3.50 the captured at 2x) · achieved 200 statements/s (×1.00 the captured at 2x)"}, nil},
		{"back to back", workload.Replay{TimeFold: fold()}, 0,
			[]string{"offered no pace (--speed max"}, []string{"achieved"}},
		{"not folded", workload.Replay{Speed: 1}, 2, nil, []string{"fold", "slices"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := tt.rp
			rp.Order = workload.ReplayRace
			r := &result.Result{}
			r.Plan.Replay = &rp
			if rp.TimeFold != nil {
				r.Replay = &workload.ReplayCheck{}
				_, r.Replay.Reason = rp.EndCompared()
			}
			ph := result.Phase{WallSeconds: tt.wall}
			ph.Total.Count = 400
			checkText(t, strings.Join(replayLines(r, ph), "\n"), tt.want, tt.not)
		})
	}
}

// A scale search over the fold (--find-scale --by fold) names its steps
// and its answer by the fold, one over the copies by the scale.
func TestScaleHeadlineBy(t *testing.T) {
	steps := []result.ScaleStep{{Scale: 1, Met: true}, {Scale: 2, Met: true}, {Scale: 4}, {Scale: 3}}
	for _, tt := range []struct {
		by    string
		steps []result.ScaleStep
		found int
		want  string
	}{
		{result.ScaleByFold, steps, 2, "holds 2 time slices of its capture at once (fold 2 met the objectives; fold 3 did not)"},
		{result.ScaleByFold, steps[:2], 2, "holds 2 time slices of its capture at once (fold 2 met the objectives, the largest tried)"},
		{result.ScaleByFold, []result.ScaleStep{{Scale: 1, Met: true}, {Scale: 2}}, 1, "holds its capture as it was, not folded (fold 1 met the objectives; fold 2 did not)"},
		{result.ScaleByFold, []result.ScaleStep{{Scale: 1}}, 0, "no fold met the objectives: not even the capture as it was (fold 1)"},
		{result.ScaleByCopies, steps, 2, "holds 2× its captured connections (scale 2 met the objectives; scale 3 did not)"},
		{result.ScaleByCopies, []result.ScaleStep{{Scale: 1}}, 0, "no scale met the objectives: not even the capture as it was (scale 1)"},
	} {
		cv := result.ScaleCurve{By: tt.by, Steps: tt.steps, Found: tt.found > 0, Scale: tt.found}
		if got := ScaleHeadline(cv); got != tt.want {
			t.Errorf("by %q: %q, want %q", tt.by, got, tt.want)
		}
	}
	var b strings.Builder
	if err := ScaleText(&b, &result.Scale{By: result.ScaleByFold, MaxScale: 4, Cells: []result.ScaleCurve{{By: result.ScaleByFold, Steps: steps, Found: true, Scale: 2}}}); err != nil {
		t.Fatal(err)
	}
	checkText(t, b.String(), []string{"· fold 1, doubling while met (up to 4)", "  fold  statements"}, []string{"scale 1", "scale 2", "scale  "})
}
