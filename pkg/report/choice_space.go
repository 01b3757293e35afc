package report

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// choiceSpace is a row's space and memory cells: its size on disk, its
// space amplification and its engine's resident memory (its worker
// process's peak less the baseline's; "≈0" where no more than the
// baseline), each "–" where the row has none (choiceUnstated says why).
func choiceSpace(r result.ChoiceRow) []string {
	cells := []string{"–", "–", "–"}
	if r.DiskBytes > 0 {
		cells[0] = bytesize.Units{}.Round(r.DiskBytes)
	}
	if r.SpaceAmplification > 0 {
		cells[1] = units.Fixed(r.SpaceAmplification, 2) + "×"
	}
	switch {
	case r.PeakRSSBytes == 0 || r.MemoryNote != "":
	case r.EngineRSSBytes > 0:
		cells[2] = bytesize.Units{}.Round(r.EngineRSSBytes)
	default:
		cells[2] = "≈0"
	}
	return cells
}

// choiceMemoryNote says what the engine RSS column is, with the baseline
// it subtracts; none where there was no baseline.
func choiceMemoryNote(c *result.Choice) []string {
	if c.BaselineRSSBytes == 0 {
		return nil
	}
	return []string{fmt.Sprintf("engine RSS: the peak resident memory of the row's own worker process (one a run, its workers its goroutines) less a worker's on the null driver in the same shape (%s, gobench's own)", bytesize.Units{}.Round(c.BaselineRSSBytes))}
}

// choiceUnstated says, a note per reason, why rows with speed runs have
// no value in column: the rows it names ("in any row" where all share
// it), then the reason. why returns a row's reason, "" where it has a
// value. Reasons that differ only in their first parenthesis, a row's own
// figure ("the live data (800 KiB) is below 64 MiB"), are one note: the
// rule once, each row's figure beside its name.
func choiceUnstated(rows []result.ChoiceRow, column string, why func(result.ChoiceRow) string) []string {
	var rules []string
	named, figures, whole := map[string][]string{}, map[string][]string{}, map[string]map[string]bool{}
	measured := 0
	for _, r := range rows {
		if r.Runs == 0 {
			continue
		}
		measured++
		w := why(r)
		if w == "" {
			continue
		}
		rule, figure := cutFigure(w)
		if _, ok := named[rule]; !ok {
			rules, whole[rule] = append(rules, rule), map[string]bool{}
		}
		named[rule], figures[rule] = append(named[rule], r.Name()), append(figures[rule], figure)
		whole[rule][w] = true
	}
	var out []string
	for _, rule := range rules {
		names, reason := named[rule], rule
		if len(whole[rule]) > 1 {
			for i, f := range figures[rule] {
				names[i] += " (" + f + ")"
			}
		} else {
			for w := range whole[rule] {
				reason = w
			}
		}
		who := "for " + strings.Join(names, ", ")
		if len(names) == measured && measured > 1 && len(whole[rule]) == 1 {
			who = "in any row"
		}
		out = append(out, fmt.Sprintf("no %s %s: %s", column, who, reason))
	}
	return out
}

// cutFigure splits a reason into its rule, without its first
// parenthesis, and that parenthesis's figure ("" where it has none).
func cutFigure(w string) (rule, figure string) {
	before, rest, ok := strings.Cut(w, " (")
	if !ok {
		return w, ""
	}
	figure, after, ok := strings.Cut(rest, ")")
	if !ok {
		return w, ""
	}
	return before + after, figure
}
