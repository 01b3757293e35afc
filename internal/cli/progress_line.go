package cli

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobench/gobench/pkg/result"
)

// A progress line is made of fields, each with a rank: when the line is
// wider than the terminal, the fields of the highest rank go first (the
// last of them first), so what is left is what matters most.
type field struct {
	text string
	rank int
	// glued joins the field to the one before with a space, not a
	// separator: "read 12k/s p99 40µs".
	glued bool
}

// Ranks of the progress line's fields, most important first.
const (
	rankWhere   = iota // where a matrix is: cell, run, its ETA
	rankRun            // the run's own time, share done and errors
	rankETA            // the run's ETA, the phase's name
	rankRate           // ops/s per kind
	rankLatency        // p99 per kind
	rankNote           // "phase average"
)

// fieldSep separates the fields of a progress line.
const fieldSep = " · "

// progressPrefix starts every progress line.
const progressPrefix = "gobench: "

// fitLine joins the fields after the prefix, dropping fields of the
// highest rank until the line takes at most width columns; width ≤ 0
// means no limit. A line that still does not fit is cut, ending in "…".
// Every character of a progress line takes one column.
func fitLine(fields []field, width int) string {
	fs := append([]field(nil), fields...)
	line := joinFields(fs)
	for width > 0 && utf8.RuneCountInString(line) > width && len(fs) > 1 {
		worst := 0
		for i, f := range fs {
			if f.rank >= fs[worst].rank {
				worst = i
			}
		}
		fs = append(fs[:worst], fs[worst+1:]...)
		line = joinFields(fs)
	}
	if width > 0 && utf8.RuneCountInString(line) > width {
		r := []rune(line)
		line = string(r[:max(width-1, 0)]) + "…"
	}
	return line
}

func joinFields(fs []field) string {
	var b strings.Builder
	b.WriteString(progressPrefix)
	for i, f := range fs {
		switch {
		case i == 0:
		case f.glued:
			b.WriteString(" ")
		default:
			b.WriteString(fieldSep)
		}
		b.WriteString(f.text)
	}
	return b.String()
}

// matrixPos is where a run stands in its command's cells × repeats (runs
// are interleaved: every cell once, then again), and when the first run
// began, for the ETA of the whole.
type matrixPos struct {
	n, total      int // this run, from 1, of total
	cells, repeat int
	// slots, for a shard of the job, are the job's runs it runs: run n
	// is slots[n-1]; nil when it runs them all.
	slots   []result.Slot
	started time.Time
}

// fields returns "cell 3/8 · run 2/3 · ETA 1m20s": the cell and repeat
// of this run (each when there are several) and, once the run has done a
// share frac of its work, the time left for the whole matrix, from the
// time since its start (runs' setup included).
func (m *matrixPos) fields(frac float64, now time.Time) []field {
	if m == nil || m.total <= 1 {
		return nil
	}
	var fs []field
	cell, rep := (m.n-1)%m.cells+1, (m.n-1)/m.cells+1
	if m.n <= len(m.slots) {
		cell, rep = m.slots[m.n-1].Cell, m.slots[m.n-1].Repeat
	}
	if m.cells > 1 {
		fs = append(fs, field{text: fmt.Sprintf("cell %d/%d", cell, m.cells), rank: rankWhere})
	}
	if m.repeat > 1 {
		fs = append(fs, field{text: fmt.Sprintf("run %d/%d", rep, m.repeat), rank: rankWhere})
	}
	done := (float64(m.n-1) + frac) / float64(m.total)
	if done > 0 {
		elapsed := now.Sub(m.started)
		eta := time.Duration(float64(elapsed) * (1 - done) / done).Round(time.Second)
		fs = append(fs, field{text: "ETA " + eta.String(), rank: rankWhere})
	}
	return fs
}
