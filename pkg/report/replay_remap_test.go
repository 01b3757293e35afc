package report

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// A scaled replay labels as expected the constraint errors of the
// statements that share keys across copies, and only those; a remapped
// statement's are errors like any other; one whose keys are not
// remapped labels them all, and says why; the keys line counts the
// shared statements.
func TestReplayLinesScaleKeys(t *testing.T) {
	remapped := &workload.ReplayRemap{Span: 1000, Remapped: 40, Shared: 7, SharedFingerprints: 2, SharedKinds: []string{"qshared"}}
	ops := []result.OpStats{
		{Kind: "qshared", Errors: result.Errors{Total: 3, Constraint: 3}},
		{Kind: "qremap", Errors: result.Errors{Total: 5, Constraint: 5}},
	}
	tests := []struct {
		name      string
		remap     *workload.ReplayRemap
		want, not []string
	}{
		{"remapped", remapped,
			[]string{"(3 constraint errors among them are expected: they are of statements that share keys across the copies; those of remapped statements are not)",
				"keys: 40 statements remapped to each copy's keys (integers offset by 1000 per copy, text keys suffixed #copy); 7 statements (2 fingerprints) shared keys across copies: they ran unchanged",
				"each copy reads and writes its own keys"},
			[]string{"8 constraint errors", "keys are not remapped"}},
		{"keys too large", &workload.ReplayRemap{Why: "a key value of 9223372036854775807 leaves no room for another copy's range"},
			[]string{"(8 constraint errors among them are expected: the copies insert the same keys, and all but the first fail on them; keys are not remapped)",
				"keys: not remapped (a key value of 9223372036854775807 leaves no room for another copy's range): the 4 copies share every key"},
			[]string{"remapped to each copy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &result.Result{}
			r.Plan.Replay = &workload.Replay{Order: workload.ReplayRace, Scale: 4, Remap: tt.remap}
			ph := result.Phase{Ops: ops}
			ph.Total.Errors = result.Errors{Total: 8, Constraint: 8}
			checkText(t, strings.Join(replayLines(r, ph), "\n"), tt.want, tt.not)
		})
	}
}

// A scaled replay labels as expected the errors of its schema statements
// without IF [NOT] EXISTS, which every copy runs and all but the first
// fail (the table made, or gone), and not those of one with it, nor of a
// temporary table's, each connection's own.
func TestReplayLinesScaleSchema(t *testing.T) {
	kinds := []workload.ReplayKind{
		{ID: "qcreate", Fingerprint: "create table t(x)"},
		{ID: "qdrop", Fingerprint: "drop table t"},
		{ID: "qifne", Fingerprint: "create table if not exists u(x)"},
		{ID: "qtemp", Fingerprint: "create temp table s(x)"},
		{ID: "qins", Fingerprint: "insert into t values(?)"},
	}
	ops := []result.OpStats{
		{Kind: "qcreate", Errors: result.Errors{Total: 3, Other: 3}},
		{Kind: "qdrop", Errors: result.Errors{Total: 3, Other: 3}},
		{Kind: "qifne", Errors: result.Errors{Total: 1, Other: 1}},
		{Kind: "qtemp", Errors: result.Errors{Total: 1, Other: 1}},
		{Kind: "qins", Errors: result.Errors{Total: 2, Other: 2}},
	}
	r := &result.Result{}
	r.Plan.Replay = &workload.Replay{Order: workload.ReplayRace, Scale: 4, Kinds: kinds}
	ph := result.Phase{Ops: ops}
	ph.Total.Errors = result.Errors{Total: 10, Other: 10}
	checkText(t, strings.Join(replayLines(r, ph), "\n"),
		[]string{"(6 other errors among them are expected: they are of schema statements without IF [NOT] EXISTS that every copy runs, and all but the first find the object made or gone)"},
		[]string{"constraint errors"})
}
