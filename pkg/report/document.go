package report

import (
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// A report is, underneath its format, a document of blocks: lines of
// facts, tables, paragraphs. A block is built once from what is reported
// and each format writes it, as x/perf's benchtab builds one Table that
// ToText and ToCSV write; a column added to a block then appears in every
// format that writes it. The table is the first such block: the op kinds
// of a run's phase (opTable, which text, markdown and HTML write), and
// the tables each kind of result builds for HTML's answers beside what it
// reports (durability.go's, front.go's ranking and headlines); text and
// markdown write a suite's durability table from the same block. The
// others are still written by each format's own code.

// table is a block of a document: a caption, a head, rows of cells (each
// as the figure it shows formats it, not yet escaped for any format), the
// columns of numbers (Num: right-aligned where a format aligns), and lines
// of notes under it. HTML writes its tables of answers as one.
type table struct {
	Caption string
	Head    []string
	Num     []bool
	Rows    [][]string
	Notes   []string
	// Keys is how many of the first columns name a row (a matrix cell's
	// settings): a text table split to fit its width repeats them.
	Keys int
}

// num reports whether column i holds numbers.
func (t *table) num(i int) bool { return i < len(t.Num) && t.Num[i] }

// writeText writes t as a text table, no caption: every column aligned to
// the right, its head over its cells.
func (t *table) writeText(w *errWriter) {
	tw := w.aligned(tabwriter.AlignRight)
	cols := strings.Repeat("%s\t", len(t.Head)) + "\n"
	tw.printf(cols, anys(t.Head)...)
	for _, row := range t.Rows {
		tw.printf(cols, anys(row)...)
	}
	tw.flush()
}

// writeKeyedText writes t as a text table indented under a line of its
// own, no caption: every column aligned to the left, and where the table
// is split to fit, its Keys columns repeated in each part.
func (t *table) writeKeyedText(w *errWriter) {
	tw := w.keyedTable(0, t.Keys)
	cols := "  " + strings.TrimSuffix(strings.Repeat("%s\t", len(t.Head)), "\t") + "\n"
	tw.printf(cols, anys(t.Head)...)
	for _, row := range t.Rows {
		tw.printf(cols, anys(row)...)
	}
	tw.flush()
}

// writeMarkdown writes t as a markdown table, no caption: columns of
// numbers aligned to the right.
func (t *table) writeMarkdown(w *errWriter) {
	cols := "|" + strings.Repeat(" %s |", len(t.Head)) + "\n"
	w.printf(cols, anys(t.Head)...)
	align := "|"
	for i := range t.Head {
		align += map[bool]string{true: "--:|", false: "---|"}[t.num(i)]
	}
	w.printf(align + "\n")
	for _, row := range t.Rows {
		w.printf(cols, anys(row)...)
	}
}

// opTable is the table of a phase's op kinds: per row the kind, its
// count, its ops/s, the latency statistics stats (figures of the table of
// figures, so any percentile prints), and its failed ops as errCell says
// them; the formats differ only in which rows they list.
func opTable(rows []result.OpStats, stats []*judge.Figure, errCell func(result.OpStats) string) *table {
	t := &table{Caption: "Throughput and latency per op kind", Head: append(append([]string{"op", "count", "ops/s"}, statNames(stats)...), "errors")}
	t.Num = append(append([]bool{false, true, true}, boolsOf(len(stats), true)...), false)
	for _, o := range rows {
		row := append([]string{o.Kind, strconv.FormatInt(o.Count, 10), units.Rate(o.OpsPerSec)}, latencyCells(stats, o.Latency)...)
		t.Rows = append(t.Rows, append(row, errCell(o)))
	}
	return t
}

// boolsOf returns n copies of v.
func boolsOf(n int, v bool) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// runOpsTable is a run's figures at a glance: per op kind of each phase,
// the count, rate, the latency statistics stats (p50, p99, p99.9 unless
// asked) and errors.
func runOpsTable(r *result.Result, stats []*judge.Figure) *table {
	errCell := func(o result.OpStats) string { return errorsShort(o.Errors) }
	a := opTable(nil, stats, errCell)
	for _, ph := range r.Phases {
		rows := slices.DeleteFunc(append(slices.Clone(ph.Ops), ph.Total), func(o result.OpStats) bool { return workload.IsMarkerKind(o.Kind) })
		for _, row := range opTable(rows, stats, errCell).Rows {
			if len(r.Phases) > 1 {
				row[0] = ph.Name + ": " + row[0]
			}
			a.Rows = append(a.Rows, row)
		}
	}
	if len(a.Rows) == 0 {
		return nil
	}
	return a
}
