package choose

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// Every candidate's power-cut run failing is said once, in one line
// (the same error named once, differing ones by the first); some failing
// is left to the rows.
func TestEveryFailed(t *testing.T) {
	t.Parallel()
	a, b := Candidate{Driver: "mattn"}, Candidate{Driver: "ncruces"}
	plan := func(cands ...Candidate) *Plan {
		p := &Plan{Candidates: cands}
		for range cands {
			p.Crash = append(p.Crash, &workload.Plan{})
		}
		return p
	}
	noCrash := plan(a, b)
	noCrash.Crash[1] = nil
	for _, tt := range []struct {
		name   string
		p      *Plan
		failed map[string]error
		want   string
	}{
		{"all, alike", plan(a, b), map[string]error{"mattn": errors.New("bad.sql:1: syntax error"), "ncruces": errors.New("bad.sql:1: syntax error")}, "every candidate's power-cut run failed, so nothing was measured: bad.sql:1: syntax error"},
		{"all, differing", plan(a, b), map[string]error{"mattn": errors.New("bad.sql:1: near"), "ncruces": errors.New("bad.sql:1: sqlite3: near")}, "(the first, mattn: bad.sql:1: near)"},
		{"some", plan(a, b), map[string]error{"ncruces": errors.New("bad.sql:1: no such function")}, ""},
		{"none", plan(a, b), map[string]error{}, ""},
		{"no power-cut runs", &Plan{Candidates: []Candidate{a}, Crash: []*workload.Plan{nil}}, map[string]error{"mattn": errors.New("x")}, ""},
		{"one without a cut", noCrash, map[string]error{"mattn": errors.New("x"), "ncruces": errors.New("x")}, ""},
	} {
		err := EveryFailed(tt.p, tt.failed)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if tt.want != "" && !errors.Is(err, tt.failed["mattn"]) {
			t.Errorf("%s: %v does not wrap the first candidate's error (its exit status)", tt.name, err)
		}
	}
}
