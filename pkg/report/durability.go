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

// lossText says what one run's power cuts lost, states and writes apart:
// "6 of 10 states lost acknowledged writes, up to 1214 in one, the last
// 410ms", or "0 of 10 states lost acknowledged writes".
func lossText(d *result.Durability) string {
	s := fmt.Sprintf("%d of %d %s lost acknowledged writes", d.Lossy, d.States, plural(d.States, "state", "states"))
	if d.Lossy > 0 {
		s += fmt.Sprintf(", up to %d in one, the last %s", d.MaxLost, ageText(d.MaxLostAgeMicros))
	}
	return s
}

// ageText is how long before its cut a lost write was acknowledged:
// under a microsecond when the cut came right after its acknowledgement.
func ageText(us float64) string {
	if us < 1 {
		return "<1µs"
	}
	return units.Micros(us)
}

// durabilityText sums a run's power-cut simulation up in a line.
func durabilityText(d *result.Durability) string {
	s := fmt.Sprintf("durability (--crash %d, %s model): %d %s tested: %d corrupt · %s",
		d.Requested, d.Model, d.States, plural(d.States, "state", "states"), d.Corrupt, lossText(d))
	if d.NotChecked != "" {
		s += " (acknowledged writes not checked: " + d.NotChecked + ")"
	}
	if d.Full {
		s += " · the record reached --crash-record-limit before the run ended: the states come from the part recorded"
	}
	if d.Stopped != "" {
		s += " · the checking stopped after these states: " + d.Stopped
	}
	return s + promiseText(d)
}

// promiseText says what the engine promises at a power cut and whether
// the states agree: " · promised: … — the run agrees".
func promiseText(d *result.Durability) string {
	if d.Promise == nil {
		return ""
	}
	verdict := "the run agrees"
	if !d.Promise.Kept(d.Lossy, d.Corrupt) {
		verdict = "the run BREAKS the promise"
	}
	return " · promised: " + d.Promise.Says + " — " + verdict
}

// cellDurability sums up a cell's power cuts over its repeats.
func cellDurability(c result.Cell) *result.Durability {
	var sum *result.Durability
	for _, r := range c.Runs {
		d := r.Durability
		if d == nil {
			continue
		}
		if sum == nil {
			sum = &result.Durability{Model: d.Model, NotChecked: d.NotChecked, Promise: d.Promise}
		}
		sum.Requested += d.Requested
		sum.States += d.States
		sum.Corrupt += d.Corrupt
		sum.Lossy += d.Lossy
		sum.MaxLost = max(sum.MaxLost, d.MaxLost)
		sum.MaxLostAgeMicros = max(sum.MaxLostAgeMicros, d.MaxLostAgeMicros)
		sum.Full = sum.Full || d.Full
		if d.Stopped != "" {
			sum.Stopped = d.Stopped
		}
	}
	return sum
}

// durabilityRow is one cell's row of a durability table: states tested,
// corrupt, lossy, the most lost in one, how long before its cut the
// oldest lost one was acknowledged.
func durabilityRow(d *result.Durability) []string {
	lost, age := "0", "–"
	if d.Lossy > 0 {
		lost, age = fmt.Sprint(d.MaxLost), ageText(d.MaxLostAgeMicros)
	}
	states := fmt.Sprint(d.States)
	if d.Full {
		states += " (record full)"
	}
	if d.Stopped != "" {
		states += " (checking stopped)"
	}
	promise := "–"
	if d.Promise != nil {
		promise = "kept"
		if !d.Promise.Kept(d.Lossy, d.Corrupt) {
			promise = "BROKEN"
		}
		promise += " (" + d.Promise.Level + ")"
	}
	return []string{states, fmt.Sprint(d.Corrupt), fmt.Sprint(d.Lossy), lost, age, promise}
}

// durabilityHead names durabilityRow's columns, durabilityLegend says
// what they count.
var durabilityHead = []string{"states", "corrupt", "lossy", "most lost", "the last", "promise"}

const durabilityLegend = "lossy: states that lost acknowledged writes · most lost: the most one state lost · the last: how long before its cut the oldest lost one had been acknowledged · promise: whether the states kept what the engine promises at these settings (keeps: every acknowledged write; may lose: recent ones, never corrupt; none)"

// suiteDurability returns, per cell with --crash runs, its settings and
// its durability row; nil when no cell ran --crash. model says the
// crash model and the states per run.
func suiteDurability(s *result.Suite) (rows [][]string, settings []result.Settings, model string) {
	for _, c := range s.Cells {
		d := cellDurability(c)
		if d == nil {
			continue
		}
		model = fmt.Sprintf("%s model, %d power cuts per run", d.Model, d.Requested/len(c.Runs))
		if d.NotChecked != "" {
			model += "; acknowledged writes not checked: " + d.NotChecked
		}
		rows = append(rows, durabilityRow(d))
		settings = append(settings, c.Settings)
	}
	return rows, settings, model
}

// suiteTraced marks a suite whose runs recorded their I/O for --crash.
func suiteTraced(s *result.Suite) string {
	for _, c := range s.Cells {
		if tracedText(c.Runs[0]) != "" {
			return "traced: --crash recorded every write with its bytes; the speeds are traced runs'"
		}
	}
	return ""
}
