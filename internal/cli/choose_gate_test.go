package cli

import (
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// choose --expect exits 3 when the winner's margin falls short, 4 when
// the answer cannot decide it, 0 when it holds; every gate is recorded in
// the answer, a failure winning over an undecided one.
func TestJudgeChoiceExit(t *testing.T) {
	t.Parallel()
	margin := &result.Margin{RunnerUp: "bbolt sync=full", Ratio: 2, Low: 1.6, High: 2.4, Confidence: 0.9}
	for _, tt := range []struct {
		exprs  []string
		margin *result.Margin
		code   int
	}{
		{[]string{"margin >= 1.5"}, margin, ExitOK},
		{[]string{"margin >= 3"}, margin, ExitThreshold},
		{[]string{"margin >= 2"}, margin, ExitUndecided},
		{[]string{"margin >= 1.5"}, nil, ExitUndecided},
		{[]string{"margin >= 2", "margin >= 3"}, margin, ExitThreshold},
	} {
		gates, err := parseChooseGates(tt.exprs)
		if err != nil {
			t.Fatal(err)
		}
		c := &result.Choice{Winner: "pebble sync=full", Margin: tt.margin}
		if got := exitCode(judgeChoice(c, gates)); got != tt.code || len(c.Gates) != len(tt.exprs) {
			t.Errorf("%q on %+v: exit %d with %d gates recorded, want %d with %d", tt.exprs, tt.margin, got, len(c.Gates), tt.code, len(tt.exprs))
		}
	}
	if _, err := parseChooseGates([]string{"margin >> 2"}); exitCode(usage(err)) != ExitUsage {
		t.Errorf("a malformed gate: %v, want a usage error", err)
	}
}
