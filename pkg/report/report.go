// Package report renders results. Render is the entry point: it picks the
// renderer by format and by what it is given (a single run, a suite of
// cells and repeats, a CRUD scaling table, a blob comparison, a disk
// report, a comparison of two result files). Each format is a set of
// renderers in the formats table, one file per kind of output; renderers
// only read and write to an io.Writer, and never run anything.
package report

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// renderers is one output format: its name, the extensions of the files
// it writes (an output file's extension names its format), and what it
// renders each kind of output with. A nil field means the format cannot
// render that kind; Render then falls back to the suite's form (every run
// whole, for JSON and benchfmt) or refuses. A new format is one file of
// renderers and one row of formats: every command's --format help, its
// completion and -o's inference ask this table.
type renderers struct {
	name string
	exts []string
	// fits says the format's lines are fitted to Options.Width (text).
	fits bool
	// run renders a run; its tables list the latency statistics stats
	// per op kind, or where stats is nil the format's own.
	run        func(w io.Writer, r *result.Result, stats []*judge.Figure) error
	suite      func(w io.Writer, s *judge.Summary) error
	comparison func(w io.Writer, c *judge.Comparison) error
	crud       func(w io.Writer, t *crudReport) error
	blob       func(w io.Writer, t *blobReport, u bytesize.Units) error
	disk       func(w io.Writer, r *disk.Report, u bytesize.Units) error
	capacity   func(w io.Writer, c *result.Capacity) error
	choice     func(w io.Writer, c *result.Choice) error
	// suites renders several suites as one document (every scenario of
	// gobench scenario run all).
	suites func(w io.Writer, sums []*judge.Summary) error
	// history renders a results history's series (gobench history).
	history func(w io.Writer, h *history.Report) error
}

var formats = map[string]renderers{
	"text": {name: "text", exts: []string{".txt"}, fits: true, run: runText, suite: suiteText, comparison: comparisonText,
		crud: crudText, blob: blobText, disk: diskText, capacity: capacityText, choice: choiceText, history: historyText},
	"json": {name: "json", exts: []string{".json"}, run: runJSON, suite: suiteJSON, comparison: comparisonJSON, disk: diskJSON, capacity: capacityJSON, choice: choiceJSON, history: historyJSON},
	"csv": {name: "csv", exts: []string{".csv"}, run: runCSV, suite: suiteCSV, comparison: comparisonCSV,
		crud: crudCSV, blob: blobCSV, disk: diskCSV, capacity: capacityCSV},
	"markdown": {name: "markdown", exts: []string{".md", ".markdown"}, run: runMarkdown, suite: suiteMarkdown, comparison: comparisonMarkdown,
		crud: crudMarkdown, blob: blobMarkdown, disk: diskMarkdown, capacity: capacityMarkdown, choice: choiceMarkdown},
	"benchfmt": {name: "benchfmt", run: runBenchfmt, suite: suiteBenchfmt},
	"html":     {name: "html", exts: []string{".html", ".htm"}, run: htmlRun, suite: htmlSuite, comparison: comparisonHTML, capacity: capacityHTML, suites: htmlSuites, choice: choiceHTML, history: historyHTML},
	"ycsb":     {name: "ycsb", run: runYCSB, suite: suiteYCSB},
}

// FormatOfPath returns the format an output file's extension names
// (.html, .json, .md, …: see Extensions), and false for any other.
func FormatOfPath(path string) (string, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, n := range Formats() {
		if slices.Contains(formats[n].exts, ext) {
			return n, true
		}
	}
	return "", false
}

// Extensions lists, in the order of the formats that render v's kind
// (FormatsFor), the extension of the files each writes: what an output
// file's name may end in for its format to follow from it.
func Extensions(v any) []string {
	var out []string
	for _, n := range FormatsFor(v) {
		out = append(out, formats[n].exts...)
	}
	return out
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

// CheckFormat refuses a name that is not one of Formats.
func CheckFormat(name string) error {
	if _, ok := formats[name]; !ok {
		return fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(Formats(), ", "))
	}
	return nil
}

// runJSON writes the result as indented JSON, every field included.
func runJSON(w io.Writer, r *result.Result, _ []*judge.Figure) error { return r.Write(w) }

// suiteJSON writes the suite as JSON: every repeat of every cell, whole.
func suiteJSON(w io.Writer, s *judge.Summary) error { return s.Suite.Write(w) }

// Options tune how results render.
type Options struct {
	// Units prints byte sizes and rates in powers of 2 (MiB) or, with SI,
	// of 1000 (MB).
	Units bytesize.Units
	// Width, if above 0, is the widest line a text report writes (a
	// terminal's columns): wider tables are split into tables stacked
	// one above the other, each repeating the columns that name its
	// rows, and wider lines of words are wrapped. 0: lines are whole,
	// one line per fact, for grep and diff.
	Width int
	// Stats names the latency statistics a run's table lists per op kind,
	// in order, in text, markdown, CSV, HTML and benchfmt: rows of the
	// table of figures (judge.LatencyStats: mean, max, any percentile
	// pN). Empty: each format's own (text: judge.DefaultLatencyStats).
	Stats []string
}

// Render returns the renderer of v in the named format, chosen by what v
// is and holds:
//
//   - a *result.Suite, by its shape: a scaling table, or targets compared
//     side by side, where the format has such a renderer; a suite that
//     reads as its run (result.Suite.ReadsAsRun, the rule the commands
//     follow when they write JSON) as that run; any other as its
//     statistics per cell, over the default metrics;
//   - a *result.Result: the run;
//   - a *Comparison (from Compare): old against new, cell by cell;
//   - a *disk.Report: the disk's rates;
//   - a *result.Capacity: each cell's sustainable rate and its curve;
//   - a *result.Choice: gobench choose's ranked table;
//   - a []*result.Suite: several suites in one document (HTML);
//   - a *history.Report: a results history's series, change points and
//     gate verdicts.
//
// A text report's lines fit Options.Width when it is set. Nothing is
// written until the returned function runs. A format that cannot render
// v's kind is refused. A nil pointer of v's type checks
// only that: Render then returns no function and no error.
func Render(format string, v any, o Options) (func(io.Writer) error, error) {
	f := formats[format] // the zero value, rendering nothing, for an unknown name
	render, err := f.render(format, v, o)
	if render != nil && f.fits && o.Width > 0 {
		render = fitted(render, o.Width)
	}
	return render, err
}

// render is Render's choice of f's renderer for v.
func (f renderers) render(format string, v any, o Options) (func(io.Writer) error, error) {
	var stats []*judge.Figure
	if len(o.Stats) > 0 {
		var err error
		if stats, err = judge.LatencyStats(o.Stats); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	switch v := v.(type) {
	case *result.Suite:
		// Any suite but one that reads as its run renders as a suite, and
		// that one as its run: a format renders suites if it renders both.
		if !f.rendersSuites() {
			return nil, refuse(format, "result", renderers.rendersSuites)
		}
		if v == nil {
			return nil, nil
		}
		return f.forSuite(v, o, stats)
	case *result.Result:
		if f.run == nil {
			return nil, refuse(format, "result", func(f renderers) bool { return f.run != nil })
		}
		if v == nil {
			return nil, nil
		}
		return func(w io.Writer) error { return f.run(w, v, stats) }, nil
	case *judge.Comparison:
		if f.comparison == nil {
			return nil, refuse(format, "comparison", func(f renderers) bool { return f.comparison != nil })
		}
		if v == nil {
			return nil, nil
		}
		return func(w io.Writer) error { return f.comparison(w, v) }, nil
	case *disk.Report:
		if f.disk == nil {
			return nil, refuse(format, "disk report", func(f renderers) bool { return f.disk != nil })
		}
		if v == nil {
			return nil, nil
		}
		return func(w io.Writer) error { return f.disk(w, v, o.Units) }, nil
	case *result.Book:
		return f.book(format, v, o)
	case []*result.Suite:
		if f.suites == nil {
			return nil, refuse(format, "set of suites", func(f renderers) bool { return f.suites != nil })
		}
		if v == nil {
			return nil, nil
		}
		sums := summaries(v)
		return func(w io.Writer) error { return f.suites(w, sums) }, nil
	}
	return f.renderSearch(format, v)
}

// renderSearch is render's choice for the documents of a search over
// runs: a capacity search, gobench choose's table, a results history.
func (f renderers) renderSearch(format string, v any) (func(io.Writer) error, error) {
	switch v := v.(type) {
	case *history.Report:
		if f.history == nil {
			return nil, refuse(format, "history", func(f renderers) bool { return f.history != nil })
		}
		if v == nil {
			return nil, nil
		}
		return func(w io.Writer) error { return f.history(w, v) }, nil
	case *result.Capacity:
		if f.capacity == nil {
			return nil, refuse(format, "capacity search", func(f renderers) bool { return f.capacity != nil })
		}
		if v == nil {
			return nil, nil
		}
		return func(w io.Writer) error { return f.capacity(w, v) }, nil
	case *result.Choice:
		if f.choice == nil {
			return nil, refuse(format, "choice", func(f renderers) bool { return f.choice != nil })
		}
		if v == nil {
			return nil, nil
		}
		return func(w io.Writer) error { return f.choice(w, v) }, nil
	}
	return nil, fmt.Errorf("report: cannot render a %T", v)
}

// rendersSuites says whether f renders every suite: a suite that reads as
// its run (result.Suite.ReadsAsRun) with its run renderer, any other with
// its suite renderer (the tables of a shape are optional: a suite of that
// shape falls back to the suite renderer).
func (f renderers) rendersSuites() bool { return f.run != nil && f.suite != nil }

// refuse says that no format of that name renders the kind of output,
// and names those that do.
func refuse(format, kind string, ok func(renderers) bool) error {
	var names []string
	for _, n := range Formats() {
		if ok(formats[n]) {
			names = append(names, n)
		}
	}
	return fmt.Errorf("unknown format %q for a %s (want one of %s)", format, kind, strings.Join(names, ", "))
}

// FormatsFor lists, sorted, the formats that render v's kind (see
// Render; v may be a nil pointer of its type).
func FormatsFor(v any) []string {
	var names []string
	for _, n := range Formats() {
		if _, err := Render(n, v, Options{}); err == nil {
			names = append(names, n)
		}
	}
	return names
}

// forSuite picks the suite's renderer by its shape (see Render).
func (f renderers) forSuite(s *result.Suite, o Options, stats []*judge.Figure) (func(io.Writer) error, error) {
	switch {
	case s.Shape == result.ShapeScaling && f.crud != nil:
		t, err := summarizeCRUD(s, s.Reference)
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return f.crud(w, t) }, nil
	case s.Shape == result.ShapeTargets && f.blob != nil:
		t, err := summarizeBlob(s)
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return f.blob(w, t, o.Units) }, nil
	case s.ReadsAsRun():
		r := s.Cells[0].Runs[0]
		return func(w io.Writer) error { return f.run(w, r, stats) }, nil
	}
	sum := judge.Summarize(s, judge.DefaultMetrics(s))
	return func(w io.Writer) error { return f.suite(w, sum) }, nil
}

// book renders a book of suites (result.Book): as one page in a format
// that renders sets of suites (HTML), as the book itself in JSON, and
// otherwise as each suite's report in turn, a blank line between.
func (f renderers) book(format string, b *result.Book, o Options) (func(io.Writer) error, error) {
	switch {
	case b == nil:
		return nil, nil
	case f.suites != nil:
		return f.render(format, b.Suites, o)
	case f.name == "json":
		return b.Write, nil
	}
	var parts []func(io.Writer) error
	for _, s := range b.Suites {
		r, err := f.render(format, s, o)
		if err != nil {
			return nil, err
		}
		parts = append(parts, r)
	}
	return func(w io.Writer) error {
		for i, r := range parts {
			if i > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			if err := r(w); err != nil {
				return err
			}
		}
		return nil
	}, nil
}
