package result

import (
	"fmt"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Durability is what the power-cut simulation of a run found (--crash):
// how many of the crash states built from the run's record would not
// open or were corrupt, how many lost acknowledged writes, and how much.
type Durability struct {
	// Model is the crash model (store.CrashLose or CrashTorn).
	Model string `json:"model"`
	// Requested is the states asked for; States those built and checked
	// (fewer when the run recorded fewer events).
	Requested int `json:"requested"`
	States    int `json:"states"`
	// Corrupt counts states that would not open, failed SQLite's
	// integrity check, or broke an invariant of a sql workload's check.
	Corrupt int `json:"corrupt"`
	// Lossy counts states that lost acknowledged writes; MaxLost is the
	// most one state lost; MaxLostAgeMicros how long before its crash the
	// oldest lost write of any state had been acknowledged.
	Lossy            int     `json:"lossy"`
	MaxLost          int64   `json:"max_lost"`
	MaxLostAgeMicros float64 `json:"max_lost_age_us"`
	// Acked is the writes (a sql workload's scripts) the run
	// acknowledged; Checked sums, over the states, those acknowledged
	// before each state's crash. NotChecked says why the acknowledged
	// writes were not checked, where they were not.
	Acked      int64  `json:"acked"`
	Checked    int64  `json:"checked"`
	NotChecked string `json:"not_checked,omitempty"`
	// SurvivingSectors counts, under the torn model, the sectors of
	// unsynced writes the states kept.
	SurvivingSectors int64 `json:"surviving_sectors,omitempty"`
	// Events and RecordBytes are what the record held of the run; Full
	// says it reached its limit first (the states come from the part
	// before).
	Events      int64 `json:"events"`
	RecordBytes int64 `json:"record_bytes"`
	Full        bool  `json:"full,omitempty"`
	// Stopped says why the checking stopped before every state was
	// checked (an interrupt, an I/O error of the machine's): the counts
	// are of the states checked, and the run is incomplete.
	Stopped string `json:"stopped,omitempty"`
	// Examples are the first problems found, a line each.
	Examples []string `json:"examples,omitempty"`
	// Promise is what the engine promises at a power cut at the run's
	// settings, where it says; Agrees whether these states kept it (no
	// loss and no corruption where it keeps every acknowledged write, no
	// corruption where it may lose recent ones).
	Promise *store.Promise `json:"promise,omitempty"`
	Agrees  *bool          `json:"agrees,omitempty"`
	// Exhaustive says a state was built after every persistence point
	// (--crash exhaustive); Points then says, a line each, what each
	// state followed and what it held.
	Exhaustive bool     `json:"exhaustive,omitempty"`
	Points     []string `json:"points,omitempty"`
	// From is where the record started (workload.Crash.From) when
	// before the run's START: open or preload. NoOpen counts the states
	// that would not open (among Corrupt); InSetup those cut before the
	// preload was acknowledged (in the store's creation, open or
	// preload). Preloaded is the rows the preload wrote; PreloadLossy
	// counts the states cut after its acknowledgement that lacked some
	// of them (among Lossy), MaxPreloadLost the most one lacked.
	From    string `json:"from,omitempty"`
	NoOpen  int    `json:"did_not_open,omitempty"`
	InSetup int    `json:"in_setup,omitempty"`
	// SetupNoOpen counts the states cut in the setup that would not
	// open (among NoOpen, not Corrupt: nothing was acknowledged).
	SetupNoOpen    int   `json:"in_setup_did_not_open,omitempty"`
	Preloaded      int64 `json:"preloaded,omitempty"`
	PreloadLossy   int   `json:"preload_lossy,omitempty"`
	MaxPreloadLost int64 `json:"max_preload_lost,omitempty"`
	// RecoveryCut counts, under store.CrashRecovery, the states whose
	// reopen wrote and was cut inside (the others' reopens wrote
	// nothing: those states are the first reopen's); Points then says,
	// a line each, where each state's second cut fell and what it held.
	RecoveryCut int `json:"recovery_cut,omitempty"`
	// Under store.CrashFsyncFail: FailSync is the sync each recording
	// process failed (the Nth), FailedSyncs how many the record holds;
	// FailedOps counts the run's ops that failed with an I/O error (the
	// failure reaching the committing call); LossyAfterFail counts the
	// states that lost writes acknowledged after the first failed sync,
	// MaxLostAfterFail the most one lost. Points then says, a line each,
	// whether each state's cut came after the failed sync and what it
	// held.
	FailSync         int64 `json:"fail_sync,omitempty"`
	FailedSyncs      int   `json:"failed_syncs,omitempty"`
	FailedOps        int64 `json:"failed_ops,omitempty"`
	LossyAfterFail   int   `json:"lossy_after_fail,omitempty"`
	MaxLostAfterFail int64 `json:"max_lost_after_fail,omitempty"`
	// A sql workload's states judged by their content (each must equal
	// the database after a prefix of the run's commits): ByContent says
	// they were; NoPrefix counts those that equal no prefix (among
	// Corrupt); LostTables are the tables the lost transactions changed,
	// NewestLost the newest lost transaction of the state that lost the
	// most; NotCompared the columns left out of the comparison, whose
	// values running the commits again did not reproduce.
	ByContent   bool     `json:"by_content,omitempty"`
	NoPrefix    int      `json:"no_prefix,omitempty"`
	LostTables  []string `json:"lost_tables,omitempty"`
	NewestLost  string   `json:"newest_lost,omitempty"`
	NotCompared []string `json:"not_compared,omitempty"`
	// InvariantsHeld counts the states that held every invariant of the
	// workload's check (TPC-B's), Invariants how many that is; a state
	// that broke one is corrupt.
	InvariantsHeld int `json:"invariants_held,omitempty"`
	Invariants     int `json:"invariants,omitempty"`
}

// SetPromise notes the engine's promise and judges the states counted
// so far against it, where they can tell.
func (d *Durability) SetPromise(p store.Promise) {
	d.Promise, d.Agrees = &p, nil
	if agrees, known := d.PromiseKept(); known {
		d.Agrees = &agrees
	}
}

// PromiseKept reports whether the states kept the engine's promise, and
// whether they can tell: not where there is no promise, nor where the
// acknowledged writes were not checked and only a loss could break it.
func (d *Durability) PromiseKept() (kept, known bool) {
	switch {
	case d.Promise == nil:
		return false, false
	case !d.Promise.Kept(d.Lossy, d.Corrupt):
		return false, true
	case d.NotChecked != "" && d.Promise.Level == store.PromiseKeeps:
		return false, false
	}
	return true, true
}

// NewDurability returns the findings, none yet, of a simulation of c.
func NewDurability(c *workload.Crash) *Durability {
	d := &Durability{Model: c.Model, Requested: c.States, Exhaustive: c.Exhaustive}
	if c.FromSetup() {
		d.From = c.From
	}
	return d
}

// SetRecord notes what the record held.
func (d *Durability) SetRecord(s store.RecordSummary, acked int64) {
	d.Events, d.RecordBytes, d.Full, d.Acked = s.Events, s.Bytes, s.Full, acked
	d.FailedSyncs = s.FailedSyncs
}

// Add counts one state's findings.
func (d *Durability) Add(st store.CrashState, r workload.CrashResult) {
	d.States++
	d.Checked += r.Checked
	d.SurvivingSectors += st.SurvivingSectors
	if r.NotChecked != "" {
		d.NotChecked = r.NotChecked
	}
	label := ""
	if st.Label != "" {
		label = st.Label + ", "
	}
	if r.InSetup {
		d.InSetup++
		label += "in the setup, "
	}
	where := fmt.Sprintf("state %d (%sevent %d of %d, %v into the run)", st.Index, label, st.Event, st.Events, time.Duration(st.At-st.RunStart).Round(time.Microsecond))
	d.Preloaded = max(d.Preloaded, r.Preloaded)
	switch {
	case d.Model == store.CrashFsyncFail:
		d.Points = append(d.Points, where+": "+failOutcome(st, r))
		if r.LostAfterFail > 0 {
			d.LossyAfterFail++
			d.MaxLostAfterFail = max(d.MaxLostAfterFail, r.LostAfterFail)
		}
	case r.Recovery != nil:
		d.Points = append(d.Points, where+": "+recoveryOutcome(r))
		if r.Recovery.Events > 0 {
			d.RecoveryCut++
		}
	case d.Exhaustive:
		d.Points = append(d.Points, where+": "+r.Outcome())
	}
	if r.NoOpen {
		d.NoOpen++
		if r.InSetup {
			d.SetupNoOpen++
		}
	}
	if r.Corrupt {
		d.Corrupt++
		d.example(where + ": corrupt: " + r.Why)
	}
	if r.PreloadLost > 0 {
		d.PreloadLossy++
		d.MaxPreloadLost = max(d.MaxPreloadLost, r.PreloadLost)
		d.example(fmt.Sprintf("%s: opened without its preloaded rows: %d of %d", where, r.PreloadLost, r.Preloaded))
	}
	if r.Lost > 0 || r.PreloadLost > 0 {
		d.Lossy++
	}
	if r.Commits > 0 || r.NoPrefix {
		d.ByContent = true
	}
	if r.NoPrefix {
		d.NoPrefix++
	}
	if r.Invariants > 0 {
		d.InvariantsHeld++
		d.Invariants = r.Invariants
	}
	for _, t := range r.LostTables {
		if !slices.Contains(d.LostTables, t) {
			d.LostTables = append(d.LostTables, t)
			slices.Sort(d.LostTables)
		}
	}
	if r.Lost > d.MaxLost && r.NewestLost != "" {
		d.NewestLost = r.NewestLost
	}
	if r.Lost > 0 {
		d.MaxLost = max(d.MaxLost, r.Lost)
		d.MaxLostAgeMicros = max(d.MaxLostAgeMicros, float64(r.OldestLost)/1e3)
		d.example(fmt.Sprintf("%s: lost %d of %d acknowledged %s", where, r.Lost, r.Checked, r.AckedNoun()))
		for _, e := range r.Examples {
			d.example("  " + e)
		}
	}
}

// failOutcome says whether a state's cut came after the run's failed
// sync and what it held, and how many of its lost writes had been
// acknowledged after that sync failed.
func failOutcome(st store.CrashState, r workload.CrashResult) string {
	if st.FailedSyncs == 0 {
		return "before the failed sync: " + r.Outcome()
	}
	s := fmt.Sprintf("after the failed sync (event %d): %s", st.FailedAt, r.Outcome())
	if r.Lost > 0 {
		s += fmt.Sprintf(", %d of them acknowledged after the failed sync", r.LostAfterFail)
	}
	return s
}

// recoveryOutcome says where a recovery-crash state's second cut fell
// and what the state held after it.
func recoveryOutcome(r workload.CrashResult) string {
	c := r.Recovery
	if c.Events == 0 {
		return "its reopen wrote nothing (no second cut): " + r.Outcome()
	}
	return fmt.Sprintf("cut again after event %d of the %d its reopen recorded: %s (the reopen left to finish: %s)",
		c.Cut, c.Events, r.Outcome(), c.First)
}

func (d *Durability) example(s string) {
	if len(d.Examples) < 12 {
		d.Examples = append(d.Examples, s)
	}
}

// MarshalJSON writes the findings, with lossy, max_lost and
// max_lost_age_us null where the acknowledged writes were not checked
// (NotChecked): not measured is not zero.
func (d Durability) MarshalJSON() ([]byte, error) {
	type plain Durability
	if d.NotChecked == "" {
		return marshalReadable(plain(d))
	}
	return marshalReadable(struct {
		plain
		Lossy            *int     `json:"lossy"`
		MaxLost          *int64   `json:"max_lost"`
		MaxLostAgeMicros *float64 `json:"max_lost_age_us"`
	}{plain: plain(d)})
}
