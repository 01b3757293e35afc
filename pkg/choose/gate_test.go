package choose

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// A gate on the margin passes when the interval of the ratio lies wholly
// on its side of the factor, fails when wholly on the other, and is
// undecided when it straddles the factor or there is no interval: judged
// on hand-built answers.
func TestGate(t *testing.T) {
	t.Parallel()
	answer := func(m *result.Margin) *result.Choice {
		c := &result.Choice{Winner: "pebble sync=full", Margin: m}
		if m != nil {
			m.RunnerUp = "bbolt sync=full bbolt-batch=true"
		}
		return c
	}
	iv := func(ratio, lo, hi, conf float64) *result.Margin {
		return &result.Margin{Ratio: ratio, Low: lo, High: hi, Confidence: conf}
	}
	for _, tt := range []struct {
		gate    string
		choice  *result.Choice
		outcome string
		err     error
		verdict string
	}{
		{"margin >= 1.5", answer(iv(2, 1.6, 2.4, 0.9)), result.OutcomePass, nil, "pass (90% interval of the ratio ×1.60–×2.40)"},
		{"margin >= 1.5x", answer(iv(1.2, 1.1, 1.4, 0.9)), result.OutcomeFail, judge.ErrThreshold, "all of it below ×1.50"},
		{"margin >= 1.5", answer(iv(1.6, 1.3, 1.9, 0.9)), result.OutcomeInconclusive, judge.ErrInconclusive, "holds ×1.50"},
		{"margin >= 1.5", answer(iv(2, 0, 0, 0)), result.OutcomeInconclusive, judge.ErrInconclusive, "too few runs"},
		{"margin >= 1.5", answer(nil), result.OutcomeInconclusive, judge.ErrInconclusive, "only one row was ranked"},
		{"margin >= 1.5", &result.Choice{}, result.OutcomeInconclusive, judge.ErrInconclusive, "no winner"},
		{"margin < 3", answer(iv(2, 1.6, 2.4, 0.9)), result.OutcomePass, nil, "pass"},
		{"margin <= 2", answer(iv(3, 2.5, 3.5, 0.9)), result.OutcomeFail, judge.ErrThreshold, "all of it above ×2"},
		{"margin >= 1.5", byRole(answer(iv(1.2, 1.1, 1.4, 0.9))), result.OutcomeFail, judge.ErrThreshold, "margin >= 1.5 (writer ops/s): fail"},
	} {
		g, err := ParseGate(tt.gate)
		if err != nil {
			t.Fatalf("%s: %v", tt.gate, err)
		}
		got, err := g.Judge(tt.choice)
		if got.Outcome != tt.outcome || got.Pass != (tt.outcome == result.OutcomePass) || !strings.Contains(got.Verdict, tt.verdict) {
			t.Errorf("%s on %+v: %s %q, want %s %q", tt.gate, tt.choice.Margin, got.Outcome, got.Verdict, tt.outcome, tt.verdict)
		}
		if (tt.err == nil) != (err == nil) || (tt.err != nil && !errors.Is(err, tt.err)) {
			t.Errorf("%s: error %v, want %v", tt.gate, err, tt.err)
		}
	}
}

// A gate that is not 'margin OP FACTOR' is refused, naming the form.
func TestParseGateRefuses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"margin", "ratio >= 1.5", "margin == 1.5", "margin >= -1", "margin >= fast", "margin >= 1.5 please"} {
		if _, err := ParseGate(s); err == nil || !strings.Contains(err.Error(), "--expect") {
			t.Errorf("%q: %v, want a refusal", s, err)
		}
	}
}

// byRole is c ranked by its writer role's ops/s.
func byRole(c *result.Choice) *result.Choice {
	c.RankBy = "writer"
	return c
}
