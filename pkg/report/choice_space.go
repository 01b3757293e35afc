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
// value.
func choiceUnstated(rows []result.ChoiceRow, column string, why func(result.ChoiceRow) string) []string {
	var reasons []string
	named := map[string][]string{}
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
		if _, ok := named[w]; !ok {
			reasons = append(reasons, w)
		}
		named[w] = append(named[w], r.Name())
	}
	var out []string
	for _, w := range reasons {
		who := "for " + strings.Join(named[w], ", ")
		if len(named[w]) == measured && measured > 1 {
			who = "in any row"
		}
		out = append(out, fmt.Sprintf("no %s %s: %s", column, who, w))
	}
	return out
}
