package result

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// Two runs that differ in their schema are of different workloads unless
// the schema is named as an input that may differ; the line says how it
// differs; any other difference still refuses them.
func TestDifferentInputs(t *testing.T) {
	run := func(schema, text string, seed uint64) *Result {
		r := &Result{Plan: workload.DefaultPlan()}
		r.Plan.Seed = seed
		r.Plan.SQL = &workload.SQL{Scale: 1, Scripts: []workload.SQLFile{{File: "s.sql", Text: "SELECT 1;", Weight: 1}},
			Schema: &workload.SQLFile{File: schema, Text: text}}
		return r
	}
	a, b := run("base.sql", "CREATE TABLE t(x);", 1), run("indexed.sql", "CREATE TABLE t(x); CREATE INDEX i ON t(x);", 1)
	if err := SameWorkload(a, b); err == nil {
		t.Fatal("runs of two schemas are of one workload")
	}
	line, err := DifferentInputs(a, b, []string{"schema"})
	if err != nil || !regexp.MustCompile(`^schema: base\.sql \(sha256 [0-9a-f]{12}\) vs indexed\.sql \(sha256 [0-9a-f]{12}\)$`).MatchString(line) {
		t.Errorf("--differ schema: %q, %v", line, err)
	}
	edited := run("base.sql", "CREATE TABLE t(x, y);", 1)
	line, err = DifferentInputs(a, edited, []string{"schema"})
	if f := strings.Fields(line); err != nil || len(f) != 8 || f[1] != f[5] || f[3] == f[7] {
		t.Errorf("a schema edited in place: %q, %v (want one name, two hashes)", line, err)
	}
	if line, err := DifferentInputs(a, run("base.sql", "CREATE TABLE t(x);", 1), []string{"schema"}); err != nil || line != "" {
		t.Errorf("the same schema: %q, %v", line, err)
	}
	if _, err := DifferentInputs(a, run("indexed.sql", "CREATE TABLE t(x);", 2), []string{"schema"}); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("another seed too: %v", err)
	}
	_, err = DifferentInputs(a, b, []string{"scripts"})
	if d, ok := IsInputsDiffer(err); !ok || !slices.Equal(d.Names, []string{"schema"}) || !strings.HasPrefix(d.Line, "schema: base.sql") {
		t.Errorf("the schema differs, but only the scripts may: %v", err)
	}
	_, err = DifferentInputs(a, b, nil)
	if d, ok := IsInputsDiffer(err); !ok || len(err.Error()) > 120 {
		t.Errorf("the schema differs, none may: %v (%v): want a short error naming the input", err, d)
	}
	if _, err := DifferentInputs(a, run("indexed.sql", "CREATE TABLE t(x);", 2), nil); err == nil || isInputsDiffer(err) {
		t.Errorf("another seed too, none may differ: %v", err)
	}
	if _, err := DifferentInputs(a, b, []string{"seed"}); err == nil {
		t.Error("the seed is no input that may differ")
	}
}

// A workload's first difference is named at its deepest key, each value
// kept to a line, not the whole of a script's JSON.
func TestSameWorkloadNamesTheKey(t *testing.T) {
	a := &Result{Plan: workload.DefaultPlan()}
	a.Plan.SQL = &workload.SQL{Scale: 1, Scripts: []workload.SQLFile{{File: "s.sql", Text: strings.Repeat("SELECT 1; ", 80), Weight: 1}}}
	b := &Result{Plan: workload.DefaultPlan()}
	q := *a.Plan.SQL
	q.Scale = 2
	b.Plan.SQL = &q
	if err := SameWorkload(a, b); err == nil || err.Error() != "different workloads: sql.scale is 1 in one and 2 in the other" {
		t.Errorf("scale: %v", err)
	}
	c := &Result{Plan: workload.DefaultPlan()}
	c.Plan.SQL = &workload.SQL{Scale: 1, Scripts: []workload.SQLFile{{File: "s.sql", Text: strings.Repeat("SELECT 2; ", 80), Weight: 1}}}
	if err := SameWorkload(a, c); err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "sql.scripts is") {
		t.Errorf("a long script: %v", err)
	}
}

func isInputsDiffer(err error) bool { _, ok := IsInputsDiffer(err); return ok }
