// Package report renders results: one file per format, each a Format
// saying what it can render (a single run, a suite of cells and repeats, a
// comparison of two result files). Renderers only read and write to an
// io.Writer; they never run anything.
package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// Format is one output format. A nil field means the format cannot render
// that kind of output.
type Format struct {
	Name       string
	Run        func(w io.Writer, r *result.Result) error
	Suite      func(w io.Writer, s *Summary) error
	Comparison func(w io.Writer, c *Comparison) error
}

var formats = map[string]Format{
	"text":     {Name: "text", Run: Text, Suite: SuiteText, Comparison: ComparisonText},
	"json":     {Name: "json", Run: JSON, Suite: SuiteJSON, Comparison: ComparisonJSON},
	"csv":      {Name: "csv", Run: CSV, Suite: SuiteCSV, Comparison: ComparisonCSV},
	"markdown": {Name: "markdown", Run: Markdown, Suite: SuiteMarkdown, Comparison: ComparisonMarkdown},
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
