package workload

import (
	"fmt"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Replay is a replayed trace (gobench replay): the statements an
// application ran, as gobench capture recorded them (package sqltrace),
// run again on the run's database, which starts as a copy of the trace's
// snapshot. Each captured connection is one worker, replaying its
// connection's statements in their order with their parameters; the
// workers of one captured process share a worker process (or, folded,
// the processes are spread over fewer). A plan with Replay set has no
// key-value ops, no preload and one phase.
type Replay struct {
	// Trace is the trace's path (absolute: worker processes read it).
	Trace string `json:"trace"`
	// Database is the path of the captured database replayed; the
	// trace's other databases are not.
	Database string `json:"database"`
	// Unreplayed are the trace's other databases statements ran on,
	// which the run does not replay.
	Unreplayed []string `json:"unreplayed,omitempty"`
	// Snapshot is the number of the trace's snapshot of Database.
	Snapshot uint64 `json:"snapshot"`
	// Speed is how fast the statements come: 0 back to back on each
	// connection (closed loop), 1 at the times they were captured at, 2
	// twice as fast. With a speed, statements are due on that schedule,
	// counted from the phase's START, and latency counts from each one's
	// due time: a setting slower than the capture shows its queueing.
	Speed float64 `json:"speed"`
	// Order is ReplayRace or ReplayCommit.
	Order string `json:"order"`
	// Window, if set, replays only the transactions that began in it
	// (gobench replay --window); nil replays the whole capture.
	Window *ReplayWindow `json:"window,omitempty"`
	// Scale, above 1, runs that many copies of each captured connection
	// at once, each on a connection of its own (ReplayWorker.Copy); 0 or 1
	// runs each once. Statements and Commits count one copy's.
	Scale int `json:"scale,omitempty"`
	// Remap, in a scaled replay, keeps its copies' keys apart
	// (ReplayRemap); nil runs every copy on the same keys.
	Remap *ReplayRemap `json:"remap,omitempty"`
	// TimeFold, if set, replays the capture's time slices at once
	// (gobench replay --fold K): each a worker per connection of its own
	// (ReplayWorker.Slice).
	TimeFold *ReplayFold `json:"time_fold,omitempty"`
	// Select, if set, replays only the transactions it keeps (gobench
	// replay --read-only, --filter): ReplaySelect.
	Select *ReplaySelect `json:"select,omitempty"`
	// Start is the capture's first statement's start (monotonic ns):
	// due times count from it; Duration is from then to its last
	// statement's end.
	Start    int64 `json:"start"`
	Duration int64 `json:"duration"`
	// Workers are the connections replayed, by worker id; an idle worker
	// (its process has fewer connections than another) has Stream 0.
	// Procs is how many worker processes they are placed on.
	Workers []ReplayWorker `json:"workers"`
	Procs   int            `json:"procs"`
	// Fold is the worker processes asked for (--procs; 0: one per
	// captured process, or per copy of one): Procs is at most it.
	Fold int `json:"fold,omitempty"`
	// Kinds are the op kinds of the statements, by fingerprint.
	Kinds []ReplayKind `json:"kinds"`
	// Overrides are the statements that set what the run's settings set
	// (PRAGMA journal_mode = wal): they run as reads of the setting, and
	// the report lists them.
	Overrides []Override `json:"overrides,omitempty"`
	// Captured is what the trace says of the application's own run: its
	// settings and its statements' timings (nil in a plan of an older
	// gobench). AsCaptured marks the cell whose settings are the
	// application's (its first).
	Captured   *ReplayCaptured `json:"captured,omitempty"`
	AsCaptured bool            `json:"as_captured,omitempty"`
	// Statements and Commits count what the connections replayed ran and
	// committed in the capture.
	Statements int64 `json:"statements"`
	Commits    int64 `json:"commits"`
	// Cut counts the statements of theirs whose text the trace cut
	// (sqltrace.FlagCut): they are not run, and count as skipped.
	// Omitted counts those with a parameter the trace omitted
	// (sqltrace.ValueOmitted): they run with filler of its length, so
	// the database cannot be expected to end as the capture's.
	Cut     sqltrace.Loss `json:"cut,omitzero"`
	Omitted sqltrace.Loss `json:"omitted,omitzero"`
	// Digested counts the statements whose rows the trace digests
	// (sqltrace.FlagDigest): a replay compares their rows' values, and
	// only the number of rows of the others (a trace of format version
	// 1 digests none).
	Digested int64 `json:"digested,omitempty"`
	// Table places each transaction in the database's order of commits
	// (ReplayCommit); States counts the states.
	Table  sqltrace.OrderTable `json:"table,omitempty"`
	States int64               `json:"states,omitempty"`
	// OrderFile, set in the plan a worker process gets, is the run's
	// shared state of the order of commits (see ReplayOrder).
	OrderFile string `json:"order_file,omitempty"`
	// DivergedFile, set when the replay source installs the trace's
	// snapshot (Around.Install), is the file beside the database where the workers leave an example
	// of each kind of statement that diverged, for the check after the
	// run (ReplayCheck.Diverged); "" keeps none.
	DivergedFile string `json:"diverged_file,omitempty"`
	// Stall, if positive, is how long a worker waits for its turn in the
	// order of commits with no progress anywhere before the replay
	// fails, saying what each connection waits for: the replay source
	// sets it below the run's stall time-out (Plan.StallTimeout), so
	// that the replay says why before a silent worker is killed.
	Stall time.Duration `json:"stall,omitempty"`
}

// Orders of a replay.
const (
	// ReplayRace lets the connections' transactions race, as in
	// production: their commits may come in another order than captured.
	ReplayRace = "race"
	// ReplayCommit makes every transaction begin where it began in the
	// captured order of commits, and commit in that order, across
	// connections (Oracle's synchronised replay): the database ends as the
	// capture's did, and every statement sees what it saw.
	ReplayCommit = "commit"
)

// ReplayWorker is the captured connection a worker replays.
type ReplayWorker struct {
	Stream     uint64 `json:"stream,omitempty"`
	Conn       uint64 `json:"conn,omitempty"`
	Statements int64  `json:"statements,omitempty"`
	// Copy numbers the copies of the connection a scaled replay runs
	// (Replay.Scale), from 0.
	Copy int `json:"copy,omitempty"`
	// Slice numbers the time slice of a folded replay (Replay.TimeFold)
	// whose part of the connection the worker replays, from 0.
	Slice int `json:"slice,omitempty"`
}

// ReplayWindow is the part of a capture a replay runs: the transactions
// whose first statement began From or later, and before To (0: to the
// capture's end), both counted from the capture's first statement on the
// database replayed (Origin). A transaction belongs to the window its
// first statement began in: one that straddles To runs whole, one that
// straddles From does not run at all.
type ReplayWindow struct {
	From Duration `json:"from"`
	To   Duration `json:"to,omitempty"`
	// Origin is the capture's first statement's start (monotonic ns).
	Origin int64 `json:"origin"`
	// Before counts the statements of transactions begun before From,
	// and After those begun at To or later: neither runs. Schema counts
	// the statements among Before that wrote the schema (CREATE, DROP,
	// ALTER), which run before the replay starts so that the window's
	// statements find the tables and indexes they found when captured.
	Before int64 `json:"before"`
	After  int64 `json:"after"`
	Schema int64 `json:"schema"`
}

// Contains reports whether a transaction that began at start (monotonic
// ns, as the trace records it) is in the window.
func (w *ReplayWindow) Contains(start int64) bool {
	at := Duration(start - w.Origin)
	return at >= w.From && (w.To == 0 || at < w.To)
}

// Judged reports whether the replay judges its statements' divergence
// (their rows, changes and outcomes against the capture's) and the
// database's end against the capture's, and if not, why: a scaled
// replay runs copies that race on the same rows, and a window that
// starts after the capture did starts from a database without the
// writes before it.
func (r *Replay) Judged() (bool, string) {
	switch {
	case r.Remapping():
		return false, fmt.Sprintf("not judged under --scale %d: each copy reads and writes its own keys (offset per copy), so the rows it returns differ from the capture's by design, and the statements that share keys see the other copies' rows; the statements are judged by their errors and latency", r.Scale)
	case r.TimeFold != nil:
		return false, fmt.Sprintf("not judged under --fold %d: its slices run at once on a database that has not seen the statements of the slices before them, so rows and changes differ from the capture's by design; the statements are judged by their errors and latency", r.TimeFold.Slices)
	case r.Scale > 1:
		return false, fmt.Sprintf("not judged under --scale %d: its copies of each connection write and read the same rows, so rows and changes differ from the capture's by design; the statements are judged by their errors and latency", r.Scale)
	case r.Select != nil:
		return false, "not judged: " + r.Select.Line(r.Statements) + "; the statements kept see the database without the transactions cut, so their rows differ from the capture's by design; they are judged by their errors and latency"
	case r.Window != nil && r.Window.From > 0:
		return false, fmt.Sprintf("not judged in a window from %v: it starts from the database as the capture began, without the %d statements before it (only their %d schema statements ran)", r.Window.From, r.Window.Before, r.Window.Schema)
	}
	return true, ""
}

// Runs returns how many statements the replay runs: its Statements, once
// for each copy (Scale); folded (TimeFold), less the schema statements
// run once before.
func (r *Replay) Runs() int64 {
	n := r.Statements
	if r.TimeFold != nil {
		n = r.TimeFold.Runs()
	}
	return n * int64(max(r.Scale, 1))
}

// EndCompared reports whether the database a replay ends with is
// compared with the capture's end, and if not, why: a scaled replay ran
// copies on the same rows, a window cut the statements before or after
// it.
func (r *Replay) EndCompared() (bool, string) {
	switch w := r.Window; {
	case r.Remapping():
		return false, fmt.Sprintf("--scale %d ran %d copies of each connection, each on its own keys: the database holds %d copies of the rows", r.Scale, r.Scale, r.Scale)
	case r.TimeFold != nil:
		return false, fmt.Sprintf("--fold %d ran the capture's %d time slices at once", r.TimeFold.Slices, r.TimeFold.Slices)
	case r.Scale > 1:
		return false, fmt.Sprintf("--scale %d ran %d copies of each connection on the same rows", r.Scale, r.Scale)
	case r.Select != nil && r.Select.ReadOnly && r.Select.Terms() == "":
		return false, "--read-only ran no transaction that wrote: the database ends as the snapshot (with the schema statements run first), not as the capture's end"
	case r.Select != nil:
		return false, "--filter ran only the transactions it kept: " + r.Select.Line(r.Statements)
	case w != nil && w.From > 0:
		return false, fmt.Sprintf("the window from %v began without the %d statements before it", w.From, w.Before)
	case w != nil && w.After > 0:
		return false, fmt.Sprintf("the window ends at %v, and the %d statements after it did not run", w.To, w.After)
	}
	return true, ""
}

// ReplayKind is the op kind of the statements of one fingerprint (or of
// the rest, when there are more fingerprints than kinds).
type ReplayKind struct {
	Op          Op     `json:"op"`
	ID          string `json:"id"`
	Fingerprint string `json:"fingerprint"`
	Count       int64  `json:"count"`
	// NonDeterministic says a statement of the kind calls a function
	// whose result changes from run to run (random(), datetime('now'),
	// see sqltrace.NonDeterministic): what it returns or writes differs
	// in a replay whatever the order.
	NonDeterministic bool `json:"non_deterministic,omitempty"`
}

// CopiesCollide reports whether the kind's statements fail, by design,
// in every copy of a scaled replay but the first: they create or drop an
// object of the database (not a temporary one, each connection's own)
// without IF NOT EXISTS or IF EXISTS, so every copy after the first
// finds it made, or gone.
func (k ReplayKind) CopiesCollide() bool {
	w := strings.Fields(k.Fingerprint)
	if len(w) < 3 || w[0] != "create" && w[0] != "drop" {
		return false
	}
	i := 1
	if w[i] == "unique" || w[i] == "virtual" {
		i++
	}
	if i+1 >= len(w) || w[i] != "table" && w[i] != "index" && w[i] != "view" && w[i] != "trigger" {
		return false // a temporary one (create temp …), or not a schema object
	}
	return w[i+1] != "if" && !strings.HasPrefix(w[i+1], "temp.")
}

// Override is a statement that set what the run's settings set.
type Override struct {
	// Setting names the run's setting ("journal", "sync",
	// "busy-timeout", …) and Pragma the pragma.
	Setting string `json:"setting"`
	Pragma  string `json:"pragma"`
	// SQL is the statement as first captured; Count how often it ran.
	SQL   string `json:"sql"`
	Count int64  `json:"count"`
}

// ReplayCheck is what the check after a replay found: whether the
// replayed database ended as the captured one did, table by table.
type ReplayCheck struct {
	// Order is the replay's order: only in the order of commits must the
	// database end as the capture's did.
	Order string `json:"order"`
	// Compared says the two were compared; Reason, if not, why not.
	Compared bool   `json:"compared"`
	Reason   string `json:"reason,omitempty"`
	// Tables counts the capture's tables; Equal says each holds what the
	// capture's held at its end, and Differences what differs.
	Tables      int      `json:"tables"`
	Equal       bool     `json:"equal"`
	Differences []string `json:"differences,omitempty"`
	// Diverged gives an example of each kind of statement that diverged
	// (the first a worker met), in the order of the replay's kinds.
	Diverged []ReplayDivergence `json:"diverged,omitempty"`
	// Errors gives the first error of each kind of statement that failed
	// (the first a worker met), in the order of the replay's kinds.
	Errors []ReplayError `json:"errors,omitempty"`
}

// ReplayError is the first error a kind of replayed statement met.
type ReplayError struct {
	// Kind is its kind's id (ReplayKind.ID); Class the error's class
	// (store.Class) and Message the driver's message, shortened.
	Kind    string `json:"kind"`
	Class   string `json:"class"`
	Message string `json:"message"`
}

// ReplayDivergence is a replayed statement that did something else than
// when captured: an example of its kind's.
type ReplayDivergence struct {
	// Kind is its kind's id (ReplayKind.ID); SQL its text, Args its
	// bound values as SQL literals, each shortened.
	Kind string   `json:"kind"`
	SQL  string   `json:"sql"`
	Args []string `json:"args,omitempty"`
	// What says how it diverged: "other values" (as many rows, other
	// values or, with ORDER BY, another order), "other rows" (another
	// number), "other changes" or "another outcome".
	What string `json:"what"`
	// Rows and CapturedRows are the rows it returned and those it
	// returned when captured; Changes and CapturedChanges likewise, for
	// "other changes"; Class and CapturedClass the outcomes.
	Rows            int64  `json:"rows"`
	CapturedRows    int64  `json:"captured_rows"`
	Changes         int64  `json:"changes,omitempty"`
	CapturedChanges int64  `json:"captured_changes,omitempty"`
	Class           string `json:"class,omitempty"`
	CapturedClass   string `json:"captured_class,omitempty"`
}

// OtherKindID names the kind of the statements whose fingerprints have no
// kind of their own.
const OtherKindID = "other"

// MaxReplayKinds is how many op kinds a replay's statements take.
const MaxReplayKinds = MaxStatements

// KindOf returns the op kind of a statement's fingerprint.
func (r *Replay) KindOf(fingerprint string) Op {
	var other Op
	for _, k := range r.Kinds {
		if k.Fingerprint == fingerprint {
			return k.Op
		}
		if k.ID == OtherKindID {
			other = k.Op
		}
	}
	return other
}

// checkOwned checks the data of p's owned source (Owned.Check); a plan
// without one deals none of the statements an owned source deals.
func (p *Plan) checkOwned() error {
	if o := p.owned(); o != nil {
		return o.Check(p)
	}
	for _, ph := range p.RunPhases() {
		for _, op := range ph.Mix.Ops() {
			if op.IsStatement() {
				return fmt.Errorf("phase %s deals %v, but the plan replays no trace", ph.Name, op)
			}
		}
	}
	return nil
}

// SpeedName names a replay's speed as --speed reads it: max, 1x, 2x, 0.5x.
func SpeedName(speed float64) string {
	if speed == 0 {
		return "max"
	}
	return fmt.Sprintf("%gx", speed)
}
