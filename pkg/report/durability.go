package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
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
	if d.NotChecked != "" {
		return "acknowledged writes lost: – (not checked)"
	}
	s := fmt.Sprintf("%d of %d %s lost acknowledged %s", d.Lossy, d.States, plural(d.States, "state", "states"), ackedNoun(d))
	if d.Lossy > 0 {
		s += fmt.Sprintf(", up to %d in one, the last %s", d.MaxLost, ageText(d.MaxLostAgeMicros))
	}
	return s
}

// ackedNoun is what a run acknowledged: transactions where its states
// were judged by their content (a sql workload's), writes otherwise.
func ackedNoun(d *result.Durability) string {
	if d.ByContent {
		return "transactions"
	}
	return "writes"
}

// contentText says, for states judged by their content, what that
// judged: " · each state must equal the database after a prefix of the
// run's commits: 2 equal none · the lost transactions changed
// pgbench_accounts, … · the newest lost: … · not compared: …".
func contentText(d *result.Durability) string {
	if !d.ByContent {
		return ""
	}
	s := fmt.Sprintf(" · each state judged by its content, which must equal the database after a prefix of the run's commits: %d equal none", d.NoPrefix)
	if d.Invariants > 0 {
		s += fmt.Sprintf(" · %d of %d states held the workload's %d invariants", d.InvariantsHeld, d.States, d.Invariants)
	}
	if len(d.LostTables) > 0 {
		s += " · the lost transactions changed " + strings.Join(d.LostTables, ", ")
	}
	if d.NewestLost != "" {
		s += " · the newest lost (of the state that lost the most): " + d.NewestLost
	}
	if len(d.NotCompared) > 0 {
		s += " · not compared: " + strings.Join(d.NotCompared, ", ") + " (running the commits again does not reproduce their values: the clock's or chance's)"
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
	s := fmt.Sprintf("durability (%s): %d %s tested: %d corrupt · %s",
		crashWhat(d), d.States, plural(d.States, "state", "states"), d.Corrupt, lossText(d))
	s += setupText(d) + modelText(d) + contentText(d)
	if d.NotChecked != "" {
		s += ": " + d.NotChecked
	}
	if d.Full {
		s += " · the record reached --crash-record-limit before the run ended: the states come from the part recorded"
	}
	if d.Stopped != "" {
		s += " · the checking stopped after these states: " + d.Stopped
	}
	return s + promiseText(d)
}

// crashWhat names a run's simulation: "--crash 25, lose model",
// "--crash exhaustive --crash-from open, lose model".
func crashWhat(d *result.Durability) string {
	s := fmt.Sprintf("--crash %d", d.Requested)
	if d.Exhaustive {
		s = "--crash exhaustive"
	}
	if d.From != "" {
		s += " --crash-from " + d.From
	}
	return s + ", " + d.Model + " model"
}

// setupText says, for a record that started before the run's START,
// what the states cut in the store's setup and those after it held of
// the preload: " · 3 states cut in the setup (creation, open, preload) ·
// 2 did not open · 4 opened without preloaded rows, up to 9000 of 20000".
func setupText(d *result.Durability) string {
	if d.From == "" {
		return ""
	}
	s := fmt.Sprintf(" · %d %s cut in the setup (creation, open, preload: nothing acknowledged yet), %d of them did not open", d.InSetup, plural(d.InSetup, "state", "states"), d.SetupNoOpen)
	s += fmt.Sprintf(" · %d did not open after it", d.NoOpen-d.SetupNoOpen)
	if d.Preloaded > 0 {
		s += fmt.Sprintf(" · %d opened without their preloaded rows", d.PreloadLossy)
		if d.PreloadLossy > 0 {
			s += fmt.Sprintf(", up to %d of %d in one", d.MaxPreloadLost, d.Preloaded)
		}
	}
	return s
}

// promiseText says what the engine promises at a power cut and whether
// the states agree: " · promised: … — the run agrees".
func promiseText(d *result.Durability) string {
	if d.Promise == nil {
		return ""
	}
	verdict := "the run agrees"
	switch kept, known := d.PromiseKept(); {
	case !known:
		verdict = "not judged: the acknowledged writes were not checked"
	case !kept:
		verdict = "the run BREAKS the promise"
	}
	return " · promised: " + d.Promise.Says + " — " + verdict
}

// promiseVerdict is a durability row's promise column: "kept (keeps)",
// "BROKEN (may lose)", or "–" where the engine says none or the states
// cannot tell.
func promiseVerdict(d *result.Durability) string {
	kept, known := d.PromiseKept()
	switch {
	case d.Promise == nil || !known:
		return "–"
	case kept:
		return "kept (" + d.Promise.Level + ")"
	}
	return "BROKEN (" + d.Promise.Level + ")"
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
		sum.NoOpen += d.NoOpen
		sum.Lossy += d.Lossy
		sum.MaxLost = max(sum.MaxLost, d.MaxLost)
		sum.MaxLostAgeMicros = max(sum.MaxLostAgeMicros, d.MaxLostAgeMicros)
		sum.Full = sum.Full || d.Full
		sum.ByContent = sum.ByContent || d.ByContent
		sum.NoPrefix += d.NoPrefix
		sum.InvariantsHeld += d.InvariantsHeld
		sum.Invariants = max(sum.Invariants, d.Invariants)
		for _, t := range d.LostTables {
			if !slices.Contains(sum.LostTables, t) {
				sum.LostTables = append(sum.LostTables, t)
			}
		}
		slices.Sort(sum.LostTables)
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
	lossy, lost, age := fmt.Sprint(d.Lossy), "0", "–"
	switch {
	case d.NotChecked != "": // not checked is not none lost
		lossy, lost = "–", "–"
	case d.Lossy > 0:
		lost, age = fmt.Sprint(d.MaxLost), ageText(d.MaxLostAgeMicros)
	}
	states := fmt.Sprint(d.States)
	if d.Full {
		states += " (record full)"
	}
	if d.Stopped != "" {
		states += " (checking stopped)"
	}
	return []string{states, corruptCell(d), lossy, lost, age, promiseVerdict(d)}
}

// durabilityHead names durabilityRow's columns, durabilityLegend says
// what they count.
var durabilityHead = []string{"states", "corrupt", "lossy", "most lost", "the last", "promise"}

const durabilityLegend = "corrupt: states that did not open or failed their check (\"2 (1 unopened)\": one of them did not open; \"no prefix\": states whose content equals the database after no prefix of the run's commits, a transaction half applied or commits kept out of order) · lossy: states that lost acknowledged writes (a sql workload's or a replay's: transactions) · most lost: the most one state lost · the last: how long before its cut the oldest lost one had been acknowledged · promise: whether the states kept what the engine promises at these settings (keeps: every acknowledged write; may lose: recent ones, never corrupt; none)"

// suiteDurability returns, per cell with --crash runs, its settings and
// its durability row; nil when no cell ran --crash. model says the
// crash model and the states per run.
func suiteDurability(s *result.Suite) (rows [][]string, settings []result.Settings, model string) {
	for _, c := range s.Cells {
		d := cellDurability(c)
		if d == nil {
			continue
		}
		model = suiteModel(s, d, len(c.Runs))
		if d.NotChecked != "" {
			model += "; –: acknowledged writes not checked: " + d.NotChecked
		} else if d.ByContent {
			model += "; each state judged by its content, against the database after each prefix of the run's commits"
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

// dirSyncNote says, for a --crash run whose driver synced files it
// created during the run in place of their directory (ncruces's VFS opens
// the directory and syncs the file again), what that does to the states:
// a file created after its directory's last sync is absent from a state,
// so a rollback journal the run made never comes back to roll a torn
// commit back, and under the lose model the same hides the rollback
// journal's own loss of the last transaction. "" where it does not apply.
func dirSyncNote(r *result.Result) string {
	if r.Durability == nil || misdirectedDirSyncs(r) == 0 {
		return ""
	}
	return fmt.Sprintf("note: driver %s synced files it created in place of their directory (the io line counts them): a file created during the run (a rollback journal, a new WAL) is absent from every state cut before its directory was next synced, so no hot journal rolls a torn commit back, and under the lose model that also hides the rollback journal's own loss of the last transaction (docs/durability.md)", r.Plan.Driver)
}

// misdirectedDirSyncs counts the directory syncs a run's engine made of a
// file instead (store.FileIO.MisdirectedDirSyncs) in its phases, where
// --crash records.
func misdirectedDirSyncs(r *result.Result) int64 {
	var n int64
	for _, ph := range r.Phases {
		if ph.IO == nil {
			continue
		}
		for role := range store.NumRoles {
			n += ph.IO.Files.Role(role).MisdirectedDirSyncs
		}
	}
	return n
}

// suiteDirSyncNotes are the dirSyncNote of each driver of a suite whose
// runs it applies to, once each.
func suiteDirSyncNotes(s *result.Suite) []string {
	var out []string
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if n := dirSyncNote(r); n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// runDurabilityTable is what a --crash run's power cuts found, as a table;
// nil without --crash.
func runDurabilityTable(r *result.Result) *table {
	d := r.Durability
	if d == nil {
		return nil
	}
	a := &table{Caption: "Durability (" + crashWhat(d) + ")", Head: durabilityHead, Rows: [][]string{durabilityRow(d)}}
	a.Notes = append(a.Notes, durabilityLegend)
	if t := setupText(d); t != "" {
		a.Notes = append(a.Notes, strings.TrimPrefix(t, " · "))
	}
	if d.NotChecked != "" {
		a.Notes = append(a.Notes, "–: acknowledged writes not checked: "+d.NotChecked)
	}
	if t := contentText(d); t != "" {
		a.Notes = append(a.Notes, strings.TrimPrefix(t, " · "))
	}
	a.Notes = append(a.Notes, durabilityLines(d)...)
	if note := dirSyncNote(r); note != "" {
		a.Notes = append(a.Notes, note)
	}
	return a
}

// suiteDurabilityTable is a --crash suite's durability table, a row per
// cell (its settings, then its durability's columns of numbers), the
// legend and the notes on directory syncs under it; nil without --crash.
func suiteDurabilityTable(s *result.Suite) *table {
	rows, settings, model := suiteDurability(s)
	if rows == nil {
		return nil
	}
	varied := variedOr(s)
	a := &table{Caption: "Durability (--crash: " + model + "; over every repeat)", Head: append(append([]string{}, varied...), durabilityHead...)}
	a.Num = append(boolsOf(len(varied), false), boolsOf(len(durabilityHead), true)...)
	a.Keys = len(varied)
	for i, row := range rows {
		a.Rows = append(a.Rows, append(cellValues(s.Varied, settings[i]), row...))
	}
	a.Notes = append([]string{durabilityLegend}, suiteDirSyncNotes(s)...)
	return a
}
