package result

import (
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
	if err != nil || line != "the workloads differ only in schema base.sql → indexed.sql" {
		t.Errorf("--differ schema: %q, %v", line, err)
	}
	edited := run("base.sql", "CREATE TABLE t(x, y);", 1)
	if line, err := DifferentInputs(a, edited, []string{"schema"}); err != nil || !strings.Contains(line, "schema base.sql (its text changed)") {
		t.Errorf("a schema edited in place: %q, %v", line, err)
	}
	if line, err := DifferentInputs(a, run("base.sql", "CREATE TABLE t(x);", 1), []string{"schema"}); err != nil || line != "" {
		t.Errorf("the same schema: %q, %v", line, err)
	}
	if _, err := DifferentInputs(a, run("indexed.sql", "CREATE TABLE t(x);", 2), []string{"schema"}); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("another seed too: %v", err)
	}
	if _, err := DifferentInputs(a, b, []string{"scripts"}); err == nil {
		t.Error("the schema differs, but only the scripts may")
	}
	if _, err := DifferentInputs(a, b, []string{"seed"}); err == nil {
		t.Error("the seed is no input that may differ")
	}
}
