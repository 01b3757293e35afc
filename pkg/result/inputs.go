package result

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/workload"
)

// Inputs names the inputs of a workload that a comparison may be asked
// to let differ (gobench compare --differ): the user's own SQL files,
// whose change is the question asked ("did my index make it faster?").
var Inputs = []string{"schema", "scripts"}

// DifferentInputs returns nil when a and b ran the same workload but for
// the inputs named (see Inputs), with a line saying which of those
// differ and how ("" when none does); otherwise the error names the
// first other difference.
func DifferentInputs(a, b *Result, names []string) (string, error) {
	ca, cb := *a, *b
	var diffs []string
	for _, n := range names {
		if !slices.Contains(Inputs, n) {
			return "", fmt.Errorf("%q is not an input that may differ (want %s)", n, strings.Join(Inputs, " or "))
		}
		if d := inputDiff(n, &a.Plan, &b.Plan); d != "" {
			diffs = append(diffs, d)
		}
		withoutInput(n, &ca.Plan)
		withoutInput(n, &cb.Plan)
	}
	if err := SameWorkload(&ca, &cb); err != nil {
		return "", err
	}
	if len(diffs) == 0 {
		return "", nil
	}
	return "the workloads differ only in " + strings.Join(diffs, "; "), nil
}

// inputDiff says how input name differs between plans a and b: its
// files, and whether a file of one name changed its text; "" where it
// does not.
func inputDiff(name string, a, b *workload.Plan) string {
	fa, fb := inputFiles(name, a), inputFiles(name, b)
	if slices.Equal(fa, fb) {
		return ""
	}
	na, nb := fileNames(fa), fileNames(fb)
	if na == nb {
		return fmt.Sprintf("%s %s (its text changed)", name, na)
	}
	return fmt.Sprintf("%s %s → %s", name, na, nb)
}

// inputFiles returns the files of input name of plan p.
func inputFiles(name string, p *workload.Plan) []workload.SQLFile {
	if p.SQL == nil {
		return nil
	}
	switch name {
	case "schema":
		if p.SQL.Schema != nil {
			return []workload.SQLFile{*p.SQL.Schema}
		}
	case "scripts":
		return p.SQL.Scripts
	}
	return nil
}

// fileNames lists files by their names and weights.
func fileNames(fs []workload.SQLFile) string {
	if len(fs) == 0 {
		return "(none)"
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.File
		if f.Weight > 1 {
			names[i] += "@" + strconv.Itoa(f.Weight)
		}
	}
	return strings.Join(names, ",")
}

// withoutInput removes input name from a copy of p's SQL.
func withoutInput(name string, p *workload.Plan) {
	if p.SQL == nil {
		return
	}
	c := *p.SQL
	switch name {
	case "schema":
		c.Schema = nil
	case "scripts":
		c.Scripts = nil
	}
	p.SQL = &c
}
