package history

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
)

func TestGate(t *testing.T) {
	up := judge.Interval{Lo: 1.2, Hi: 1.4, Confidence: 0.9}
	cases := []struct {
		name   string
		higher bool
		points int
		change *Change
		recent int
		fail   bool
		reason string
		// headOut marks the last point left out of the search.
		headOut bool
	}{
		{"no change point", false, 12, nil, 0, false, "no change point at the head", false},
		{"latency up beyond 10%", false, 12, &Change{Index: 6, Worse: true, Ratio: up, RatioOK: true}, 0, true, "a regression beyond 10%", false},
		{"latency up, its interval reaching 10%", false, 12, &Change{Index: 6, Worse: true, Ratio: judge.Interval{Lo: 1.05, Hi: 1.3}, RatioOK: true}, 0, false, "reaches 10%", false},
		{"latency down", false, 12, &Change{Index: 6, Ratio: judge.Interval{Lo: 0.7, Hi: 0.8}, RatioOK: true}, 0, false, "an improvement", false},
		{"throughput down beyond 10%", true, 12, &Change{Index: 6, Worse: true, Ratio: judge.Interval{Lo: 0.7, Hi: 0.8}, RatioOK: true}, 0, true, "a regression beyond 10%", false},
		{"too few points for an interval", false, 4, &Change{Index: 2, Worse: true}, 0, false, "too few points", false},
		{"confirmed a regression, its interval reaching 10%", false, 12, &Change{Index: 6, Worse: true, Ratio: judge.Interval{Lo: 1.05, Hi: 1.3}, RatioOK: true, Verdict: VerdictRegression}, 0, true, "confirmed by an interleaved A/B run", false},
		{"confirmed no regression", false, 12, &Change{Index: 6, Worse: true, Ratio: up, RatioOK: true, Verdict: VerdictPass}, 0, false, "ab found pass", false},
		{"older than --recent", false, 12, &Change{Index: 6, Worse: true, Ratio: up, RatioOK: true}, 5, false, "no change point at the head", false},
		{"within --recent", false, 12, &Change{Index: 7, Worse: true, Ratio: up, RatioOK: true}, 5, true, "a regression beyond 10%", false},
		{"head left out of the search", false, 12, nil, 0, false, "the head (c11) was not searched", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sr := &Series{Figure: "read p99", Higher: c.higher, Points: make([]Point, c.points)}
			sr.Points[c.points-1].Commit, sr.Points[c.points-1].Excluded = "c11", c.headOut
			if c.higher {
				sr.Figure = "total ops/s"
			}
			if c.change != nil {
				sr.Changes = []Change{*c.change}
			}
			vs := Gate([]*Series{sr}, 0.10, c.recent)
			if vs[0].Fail != c.fail || !strings.Contains(vs[0].Reason, c.reason) {
				t.Errorf("fail %v (%s), want %v (%s)", vs[0].Fail, vs[0].Reason, c.fail, c.reason)
			}
			if err := ErrRegression(vs); (err != nil) != c.fail || (err != nil && !errors.Is(err, judge.ErrThreshold)) {
				t.Errorf("error %v", err)
			}
		})
	}
}
