package workload

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// crashBytesPerCommit is what a commit's record takes, about: the pages
// it writes (a rollback journal's two and the database's two; a WAL's
// frames and their share of checkpoints come to less), each with its
// event's header, as a SQLite run of small values records them.
const crashBytesPerCommit = 4 * (4096 + 32)

// CrashRecordBytes estimates the bytes the crash record of a run of p
// takes: its commits (a batch's, or an op's that may write, by its
// source: see Source.Writes) times
// what a commit writes, pages and the values besides. known is false
// when the phases are bounded by time, not by a count of ops.
func (p *Plan) CrashRecordBytes() (n int64, known bool) {
	workers := int64(len(p.WorkerIDs()))
	for _, ph := range p.RunPhases() {
		if ph.Ops == 0 && ph.Access != AccessEach {
			return 0, false
		}
		ops := ph.Ops
		if ph.Access == AccessEach && ops == 0 {
			ops = int64(p.Keys.Count) / max(workers, 1)
		}
		writes := p.Source(&ph).Writes(p, &ph)
		if writes == 0 {
			continue
		}
		written := int64(math.Ceil(float64(workers*ops) * writes))
		commits := written
		if ph.Batch > 1 {
			commits = (commits + int64(ph.Batch) - 1) / int64(ph.Batch)
		}
		n += commits*crashBytesPerCommit + written*int64(2*p.ValueSize)
	}
	if p.Crash.FromSetup() && p.Preload > 0 {
		// The preload too, in chunks of 1,000 rows (Preload): each
		// row's value written about three times (a log, a table, a
		// compaction or a checkpoint), and a commit's pages per chunk.
		rows := int64(p.Preload)
		n += (rows+999)/1000*crashBytesPerCommit + rows*int64(3*(p.ValueSize+32))
	}
	return n, true
}

// CrashResult is what one crash state held.
type CrashResult struct {
	// Corrupt says the state would not open, its integrity check failed,
	// or (a sql workload's check) an invariant of its data broke; Why
	// says how.
	Corrupt bool
	Why     string
	// Checked is the writes (or scripts) acknowledged before the crash,
	// Lost those of them the state lacks. OldestLost is how long before
	// the crash the oldest lost one was acknowledged. NotChecked says why
	// the acknowledged writes could not be checked (a sql workload of
	// the user's own scripts).
	Checked, Lost int64
	OldestLost    time.Duration
	NotChecked    string
	// Examples are a few of the lost writes.
	Examples []string
	// NoOpen says the state would not open (Corrupt too).
	NoOpen bool
	// A sql workload's state judged by its content: Prefix is how many
	// of the run's Commits (its acknowledged scripts, in the order they
	// committed) it holds, the longest prefix of them it equals; NoPrefix
	// says it equals none (Corrupt too). LostTables are the tables the
	// lost ones changed, NewestLost names the newest of them.
	Prefix, Commits int64
	NoPrefix        bool
	LostTables      []string
	NewestLost      string
	// Invariants counts the invariants of the workload's check (TPC-B's)
	// the state held; one broken makes it Corrupt.
	Invariants int
	// Where the record starts before the preload (Crash.FromSetup):
	// InSetup says the cut came before the preload was acknowledged
	// (in the store's creation, open or preload), where a row lost is
	// no acknowledged write lost; Preloaded is the rows the preload
	// writes, PreloadLost those of them the state lacks (counted only
	// once acknowledged) and PreloadHeld those it holds.
	InSetup                bool
	Preloaded, PreloadLost int64
	PreloadHeld            int64
	// LostAfterFail counts, where a sync failed before the crash
	// (store.CrashFsyncFail), the lost writes acknowledged after the
	// first failed sync: the engine went on as if it had not failed.
	LostAfterFail int64
	// Recovery is, under store.CrashRecovery, how the second cut went:
	// the state is then what the reopen after it held; nil otherwise.
	Recovery *RecoveryCut
}

// Outcome says in a few words what the state held: "kept all 2003
// acknowledged writes", "lost 1 of 3 acknowledged writes", "did not
// open: …".
func (r CrashResult) Outcome() string {
	var parts []string
	switch {
	case r.NoOpen:
		parts = append(parts, "did not open: "+strings.TrimPrefix(r.Why, "does not open: "))
	case r.Corrupt:
		parts = append(parts, "corrupt: "+r.Why)
	}
	if r.Lost > 0 {
		parts = append(parts, fmt.Sprintf("lost %d of %d acknowledged %s", r.Lost, r.Checked, r.AckedNoun()))
	}
	if r.PreloadLost > 0 {
		parts = append(parts, fmt.Sprintf("opened without its preloaded rows: %d of %d", r.PreloadLost, r.Preloaded))
	}
	if r.InSetup && !r.Corrupt && r.Preloaded > 0 {
		parts = append(parts, fmt.Sprintf("held %d of %d preloaded rows, not yet acknowledged", r.PreloadHeld, r.Preloaded))
	}
	if len(parts) == 0 {
		kept := r.Checked
		if !r.InSetup {
			kept += r.Preloaded
		}
		if kept == 0 {
			return "nothing acknowledged yet"
		}
		if r.Commits > 0 {
			return fmt.Sprintf("kept all %d acknowledged transactions: held the first %d of the run's %d commits", kept, r.Prefix, r.Commits)
		}
		return fmt.Sprintf("kept all %d acknowledged writes", kept)
	}
	return strings.Join(parts, "; ")
}

// AckedNoun is what the state's run acknowledged: transactions where the
// state was judged by its content (a sql workload's, a replay's), writes
// otherwise.
func (r CrashResult) AckedNoun() string {
	if r.Commits > 0 {
		return "transactions"
	}
	return "writes"
}

// RecoveryCut is the second cut of a state under store.CrashRecovery:
// one inside the recovery its first reopen ran.
type RecoveryCut struct {
	// Events is how many events the first reopen recorded (its writes,
	// truncates, syncs, creations and deletions of the store's files);
	// 0 when it wrote nothing, and no second cut was made. Cut is the
	// event the second cut came after (counting from 0).
	Events, Cut int64
	// First says what the first reopen, left to finish, found: what
	// the state holds without the second cut.
	First string
}

// What traces a run's file I/O (Plan.IOTrace).
const (
	IOTraceVFS = "vfs"
	IOTraceFS  = "fs"
)

// IOTraceOf returns what traces the file I/O of a run of p on drv, by
// p.IOTrace and what the driver can: IOTraceVFS, IOTraceFS, or "" where
// nothing but the engine's own counts (a run without Crash on a driver
// that traces none, or its VFS by default) does. It refuses a plan the
// driver cannot trace as asked.
func IOTraceOf(p *Plan, drv store.Driver) (string, error) {
	vfs := func() error {
		pc, ok := drv.(store.PowerCutter)
		if !ok {
			return fmt.Errorf("the %s driver has no VFS of its own that records its I/O", drv.Name())
		}
		return pc.PowerCutSupport(p.Store, p.Mode)
	}
	fs := func() error {
		df, ok := drv.(store.DiskFiler)
		if !ok {
			return fmt.Errorf("the %s driver keeps no files for a file system to record", drv.Name())
		}
		_, err := df.DiskFiles(p.Store)
		return err
	}
	switch p.IOTrace {
	case IOTraceVFS:
		if err := vfs(); err != nil {
			return "", err
		}
		return IOTraceVFS, nil
	case IOTraceFS:
		if err := fs(); err != nil {
			return "", err
		}
		return IOTraceFS, nil
	}
	if p.Crash == nil {
		return "", nil
	}
	verr := vfs()
	if verr == nil {
		return IOTraceVFS, nil
	}
	if ferr := fs(); ferr != nil {
		if _, ok := drv.(store.PowerCutter); ok {
			return "", fmt.Errorf("%w; and %w", verr, ferr)
		}
		return "", ferr
	}
	return IOTraceFS, nil
}
