// Package report renders results: one file per format, each a Format
// saying what it can render (a single run, a suite of cells and repeats,
// a CRUD scaling table, a blob comparison, a disk report, a comparison of
// two result files). Renderers only read and write to an io.Writer; they
// never run anything. Render and Disk are the entry points: they pick the
// renderer by format and by what the result holds.
package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/result"
)

// Format is one output format. A nil field means the format cannot render
// that kind of output; Render then falls back to the suite's form (every
// run whole, for JSON and benchfmt).
type Format struct {
	Name       string
	Run        func(w io.Writer, r *result.Result) error
	Suite      func(w io.Writer, s *Summary) error
	Comparison func(w io.Writer, c *Comparison) error
	CRUD       func(w io.Writer, t *CRUDTable) error
	Blob       func(w io.Writer, t *BlobTable, u bytesize.Units) error
	Disk       func(w io.Writer, r *disk.Report, u bytesize.Units) error
}

var formats = map[string]Format{
	"text": {Name: "text", Run: Text, Suite: SuiteText, Comparison: ComparisonText,
		CRUD: CRUDText, Blob: BlobText, Disk: DiskText},
	"json": {Name: "json", Run: JSON, Suite: SuiteJSON, Comparison: ComparisonJSON, Disk: DiskJSON},
	"csv": {Name: "csv", Run: CSV, Suite: SuiteCSV, Comparison: ComparisonCSV,
		CRUD: CRUDCSV, Blob: BlobCSV, Disk: DiskCSV},
	"markdown": {Name: "markdown", Run: Markdown, Suite: SuiteMarkdown, Comparison: ComparisonMarkdown,
		CRUD: CRUDMarkdown, Blob: BlobMarkdown, Disk: DiskMarkdown},
	"benchfmt": {Name: "benchfmt", Run: Benchfmt, Suite: SuiteBenchfmt},
	"html":     {Name: "html", Run: HTMLRun, Suite: HTMLSuite},
}

// Formats returns the names of the formats, sorted.
func Formats() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the named format.
func Lookup(name string) (Format, error) {
	if f, ok := formats[name]; ok {
		return f, nil
	}
	return Format{}, fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(Formats(), ", "))
}

// JSON writes the result as indented JSON, every field included.
func JSON(w io.Writer, r *result.Result) error { return r.Write(w) }

// SuiteJSON writes the suite as JSON: every repeat of every cell, whole.
func SuiteJSON(w io.Writer, s *Summary) error { return s.Suite.Write(w) }

// Options tune how results render.
type Options struct {
	// Units prints byte sizes and rates in powers of 2 (MiB) or, with SI,
	// of 1000 (MB).
	Units bytesize.Units
	// Baseline is the driver a CRUD table's factors compare against (""
	// for the first).
	Baseline string
}

// Render returns the renderer of a suite in the named format, chosen by
// what the suite holds: a single run (but for CRUD) as a run; a CRUD
// suite as its scaling table and a blob suite as its comparison where the
// format has one; any other as its statistics per cell, over the default
// metrics.
func Render(format string, s *result.Suite, o Options) (func(io.Writer) error, error) {
	f, err := Lookup(format)
	if err != nil {
		return nil, err
	}
	switch {
	case s.Command == "crud" && f.CRUD != nil:
		t, err := SummarizeCRUD(s, o.Baseline)
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return f.CRUD(w, t) }, nil
	case s.Command == "blob" && f.Blob != nil:
		t, err := SummarizeBlob(s)
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return f.Blob(w, t, o.Units) }, nil
	case len(s.Cells) == 1 && len(s.Cells[0].Runs) == 1 && s.Command != "crud":
		r := s.Cells[0].Runs[0]
		return func(w io.Writer) error { return f.Run(w, r) }, nil
	}
	sum := Summarize(s, DefaultMetrics(s))
	return func(w io.Writer) error { return f.Suite(w, sum) }, nil
}

// Disk returns the renderer of a disk report in the named format: text,
// markdown, csv or json.
func Disk(format string, r *disk.Report, o Options) (func(io.Writer) error, error) {
	f, err := Lookup(format)
	if err != nil || f.Disk == nil {
		return nil, fmt.Errorf("unknown format %q for gobench disk (want text, markdown, csv or json)", format)
	}
	return func(w io.Writer) error { return f.Disk(w, r, o.Units) }, nil
}
