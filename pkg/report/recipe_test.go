package report

import (
	"bytes"
	"io"
	"slices"
	"testing"

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
		run: func(w io.Writer, r *result.Result) error {
			_, err := io.WriteString(w, r.Command+"\t"+r.Plan.Driver+"\n")
			return err
		}}
	t.Cleanup(func() { delete(formats, "tsv") })
	if !slices.Contains(Formats(), "tsv") || !slices.Contains(FormatsFor((*result.Suite)(nil)), "tsv") {
		t.Errorf("a format that renders runs is not listed for results: %v", FormatsFor((*result.Suite)(nil)))
	}
	if slices.Contains(FormatsFor((*judge.Comparison)(nil)), "tsv") {
		t.Error("a format that renders no comparison is listed for comparisons")
	}
	if f, ok := FormatOfPath("out/report.TSV"); !ok || f != "tsv" {
		t.Errorf("FormatOfPath(report.TSV) = %s, %v", f, ok)
	}
	if !slices.Contains(Extensions((*result.Suite)(nil)), ".tsv") {
		t.Error("its extension is not among the extensions of results")
	}
	render, err := Render("tsv", loadFixture(t, "mix-fidelity.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := render(&b); err != nil || b.String() != "mix\tmattn\n" {
		t.Errorf("rendered %q, %v", b.String(), err)
	}
}
