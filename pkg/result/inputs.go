package result

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
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

// InputsDiffer is the error of two runs whose workloads differ only in
// inputs (see Inputs) that the comparison was not asked to let differ.
type InputsDiffer struct {
	// Names are the inputs that differ, in the order of Inputs.
	Names []string
	// Line says how they differ (see DifferentInputs).
	Line string
}

// Error says the workloads differ, and in which inputs.
func (e *InputsDiffer) Error() string { return "different workloads: " + e.Line }

// DifferentInputs returns nil when a and b ran the same workload but for
// the inputs named (see Inputs), with a line saying which of those
// differ and how, each file by its name and the start of its text's
// SHA-256 ("schema: base.sql (sha256 1a2b3c4d5e6f) vs indexed.sql (sha256
// …)"), "" when none does. Otherwise the error names the first other
// difference; it is an *InputsDiffer when the workloads differ only in
// inputs not named.
func DifferentInputs(a, b *Result, names []string) (string, error) {
	for _, n := range names {
		if !slices.Contains(Inputs, n) {
			return "", fmt.Errorf("%q is not an input that may differ (want %s)", n, strings.Join(Inputs, " or "))
		}
	}
	ca, cb := *a, *b
	var diffs, others []string
	for _, n := range Inputs {
		withoutInput(n, &ca.Plan)
		withoutInput(n, &cb.Plan)
		if d := inputDiff(n, &a.Plan, &b.Plan); d != "" {
			if slices.Contains(names, n) {
				diffs = append(diffs, d)
			} else {
				others = append(others, n)
			}
		}
	}
	if err := SameWorkload(&ca, &cb); err != nil {
		return "", err
	}
	if len(others) > 0 {
		var lines []string
		for _, n := range others {
			lines = append(lines, inputDiff(n, &a.Plan, &b.Plan))
		}
		return "", &InputsDiffer{Names: others, Line: strings.Join(lines, "; ")}
	}
	return strings.Join(diffs, "; "), nil
}

// IsInputsDiffer reports whether err says two workloads differ only in
// inputs, and which.
func IsInputsDiffer(err error) (*InputsDiffer, bool) {
	var d *InputsDiffer
	ok := errors.As(err, &d)
	return d, ok
}

// inputDiff says how input name differs between plans a and b, "" where
// it does not: "schema: base.sql (sha256 …) vs indexed.sql (sha256 …)".
func inputDiff(name string, a, b *workload.Plan) string {
	fa, fb := inputFiles(name, a), inputFiles(name, b)
	if slices.EqualFunc(fa, fb, sameFile) {
		return ""
	}
	return fmt.Sprintf("%s: %s vs %s", name, fileNames(fa), fileNames(fb))
}

// sameFile says whether two files are one input: one name, weight and
// text.
func sameFile(a, b workload.SQLFile) bool {
	return a.File == b.File && a.Weight == b.Weight && a.Text == b.Text
}

// inputFiles returns the files of input name of plan p but those that
// are alternatives of one another in a matrix (SQLFile.Variant): a
// matrix setting, matched cell by cell, not an input of the workload.
func inputFiles(name string, p *workload.Plan) []workload.SQLFile {
	if p.SQL == nil {
		return nil
	}
	var fs []workload.SQLFile
	switch name {
	case "schema":
		if p.SQL.Schema != nil {
			fs = []workload.SQLFile{*p.SQL.Schema}
		}
	case "scripts":
		fs = p.SQL.Scripts
	}
	return slices.DeleteFunc(slices.Clone(fs), func(f workload.SQLFile) bool { return f.Variant != "" })
}

// fileNames lists files by their names, weights and the start of their
// texts' SHA-256.
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
		sum := sha256.Sum256([]byte(f.Text))
		names[i] += " (sha256 " + hex.EncodeToString(sum[:6]) + ")"
	}
	return strings.Join(names, ", ")
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
