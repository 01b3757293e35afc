package report

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// choiceSpace is a row's space and memory cells: its size on disk, its
// space amplification and its peak resident memory, each "–" where the
// row has none (choiceUnstated says why).
func choiceSpace(r result.ChoiceRow) []string {
	cells := []string{"–", "–", "–"}
	if r.DiskBytes > 0 {
		cells[0] = bytesize.Units{}.Round(r.DiskBytes)
	}
	if r.SpaceAmplification > 0 {
		cells[1] = units.Fixed(r.SpaceAmplification, 2) + "×"
	}
	if r.PeakRSSBytes > 0 {
		cells[2] = bytesize.Units{}.Round(r.PeakRSSBytes)
	}
	return cells
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
