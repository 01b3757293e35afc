package report

import (
	"fmt"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// tracedText marks a run whose I/O was recorded for the power-cut
// simulation: every write with its bytes, so its speed is a traced
// run's, not comparable with an untraced one's.
func tracedText(r *result.Result) string {
	if r.Plan.Crash == nil {
		return ""
	}
	return "traced: --crash recorded every write with its bytes; the speeds below are a traced run's"
}

// lossText says what one run's power cuts lost: "loses up to 1,214
// acknowledged writes, the last 410ms"; "" when none lost any.
func lossText(d *result.Durability) string {
	if d.Lossy == 0 {
		return ""
	}
	return fmt.Sprintf("loses up to %d acknowledged %s, the last %s", d.MaxLost, plural(int(d.MaxLost), "write", "writes"),
		units.Micros(d.MaxLostAgeMicros))
}

// durabilityText sums a run's power-cut simulation up in a line.
func durabilityText(d *result.Durability) string {
	s := fmt.Sprintf("durability (--crash %d, %s model): %d %s tested: %d corrupt, %d lost acknowledged writes",
		d.Requested, d.Model, d.States, plural(d.States, "state", "states"), d.Corrupt, d.Lossy)
	if l := lossText(d); l != "" {
		s += " · " + l
	}
	if d.NotChecked != "" {
		s += " (acknowledged writes not checked: " + d.NotChecked + ")"
	}
	return s
}
