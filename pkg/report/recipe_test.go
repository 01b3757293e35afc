package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// A new output format is one file of renderers and one row of formats:
// it is then listed for exactly the kinds it renders (every command's
// --format help and completion list FormatsFor, a test of internal/cli
// checks), an output file with its extension takes it, and Render uses
// it.
func TestRecipeFormat(t *testing.T) {
	formats["tsv"] = renderers{name: "tsv", exts: []string{".tsv"},
		run: func(w io.Writer, r *result.Result, _ []*judge.Figure) error {
			_, err := io.WriteString(w, r.Command+"\t"+r.Plan.Driver+"\n")
			return err
		}}
	t.Cleanup(func() { delete(formats, "tsv") })
	if !slices.Contains(Formats(), "tsv") || !slices.Contains(FormatsFor((*result.Result)(nil)), "tsv") {
		t.Errorf("a format that renders runs is not listed for runs: %v", FormatsFor((*result.Result)(nil)))
	}
	// It renders no suite of two cells: listed for suites (what every run
	// command's --format lists), it would be offered for a matrix it
	// cannot write.
	if slices.Contains(FormatsFor((*result.Suite)(nil)), "tsv") {
		t.Error("a format that renders no suite is listed for suites")
	}
	if slices.Contains(FormatsFor((*judge.Comparison)(nil)), "tsv") {
		t.Error("a format that renders no comparison is listed for comparisons")
	}
	if f, ok := FormatOfPath("out/report.TSV"); !ok || f != "tsv" {
		t.Errorf("FormatOfPath(report.TSV) = %s, %v", f, ok)
	}
	if !slices.Contains(Extensions((*result.Result)(nil)), ".tsv") {
		t.Error("its extension is not among the extensions of runs")
	}
	checkListedKindsRender(t)
	render, err := Render("tsv", loadFixture(t, "mix-fidelity.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := render(&b); err != nil || b.String() != "mix\tmattn\n" {
		t.Errorf("rendered %q, %v", b.String(), err)
	}
}

// Every format is listed for a kind (FormatsFor) only when it writes every
// value of that kind: a run, suites of every shape and size (two cells,
// one run, a scaling table, targets), a comparison, a disk report, a
// capacity search, a set of suites.
func TestFormatsWriteWhatTheyList(t *testing.T) { checkListedKindsRender(t) }

// checkListedKindsRender renders a value of each kind in every format
// listed for it, and fails on a refusal, an error or a panic.
func checkListedKindsRender(t *testing.T) {
	t.Helper()
	matrix := loadSuiteFixture(t, "matrix.json")
	one := loadSuiteFixture(t, "matrix.json")
	one.Cells = one.Cells[:1]
	one.Cells[0].Runs = one.Cells[0].Runs[:1]
	cmp, err := judge.Compare("old.json", matrix, "new.json", matrix, judge.DefaultMetrics(matrix), judge.CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		kind   any // a nil pointer of the kind, as FormatsFor takes it
		values []any
	}{
		{(*result.Result)(nil), []any{loadFixture(t, "mix-fidelity.json")}},
		{(*result.Suite)(nil), []any{matrix, one, loadSuiteFixture(t, "crud.json"), loadSuiteFixture(t, "blob.json")}},
		{(*judge.Comparison)(nil), []any{cmp}},
		{(*disk.Report)(nil), []any{diskReport()}},
		{(*result.Capacity)(nil), []any{loadCapacityFixture(t)}},
		{[]*result.Suite(nil), []any{[]*result.Suite{matrix, one}}},
	} {
		for _, format := range FormatsFor(tt.kind) {
			for i, v := range tt.values {
				if err := renderSafely(format, v); err != nil {
					t.Errorf("%s is listed for a %T but cannot write value %d of that kind: %v", format, tt.kind, i, err)
				}
			}
		}
	}
}

// renderSafely renders v in format to a buffer, a panic returned as an
// error.
func renderSafely(format string, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	render, err := Render(format, v, Options{})
	if err != nil {
		return err
	}
	return render(io.Discard)
}
