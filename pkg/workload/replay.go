package workload

import (
	"errors"
	"fmt"
	"path/filepath"

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
	// Table places each transaction in the database's order of commits
	// (ReplayCommit); States counts the states.
	Table  sqltrace.OrderTable `json:"table,omitempty"`
	States int64               `json:"states,omitempty"`
	// OrderFile, set in the plan a worker process gets, is the run's
	// shared state of the order of commits (see ReplayOrder).
	OrderFile string `json:"order_file,omitempty"`
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
}

// ReplayKind is the op kind of the statements of one fingerprint (or of
// the rest, when there are more fingerprints than kinds).
type ReplayKind struct {
	Op          Op     `json:"op"`
	ID          string `json:"id"`
	Fingerprint string `json:"fingerprint"`
	Count       int64  `json:"count"`
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

// checkReplay checks a replay: its trace, order, speed and kinds, and
// that its phase deals its kinds; a plan without one deals no statement.
func (p *Plan) checkReplay() error {
	r := p.Replay
	if r == nil {
		for _, ph := range p.RunPhases() {
			for _, op := range ph.Mix.Ops() {
				if op.IsStatement() {
					return fmt.Errorf("phase %s deals %v, but the plan replays no trace", ph.Name, op)
				}
			}
		}
		return nil
	}
	switch {
	case r.Trace == "" || !filepath.IsAbs(r.Trace):
		return fmt.Errorf("the trace's path %q is not absolute", r.Trace)
	case r.Order != ReplayRace && r.Order != ReplayCommit:
		return fmt.Errorf("unknown order %q (want %s or %s)", r.Order, ReplayRace, ReplayCommit)
	case !(r.Speed >= 0 && r.Speed <= 1000):
		return fmt.Errorf("speed %v is out of range (want 0 for back to back, or up to 1000 times as captured)", r.Speed)
	case len(r.Kinds) == 0 || len(r.Kinds) > MaxReplayKinds:
		return fmt.Errorf("%d statement kinds (want 1 to %d)", len(r.Kinds), MaxReplayKinds)
	case len(r.Workers) != p.Workers() || r.Procs != p.Procs:
		return fmt.Errorf("%d connections placed on %d workers of %d processes, not the plan's %d of %d", len(r.Workers), len(r.Workers), r.Procs, p.Workers(), p.Procs)
	case r.Order == ReplayCommit && (len(r.Table) == 0 || r.States < 1):
		return errors.New("the order of commits is missing")
	case p.Preload != 0 || p.Verify || p.SQL != nil || p.Records != nil || p.Warmup != nil || len(p.Phases) != 1 || p.Rate != 0:
		return errors.New("a replay runs the trace's statements alone: no preload, --verify, warm-up, scripts, records or rate")
	}
	for i, k := range r.Kinds {
		if k.Op != StatementOp(i) {
			return fmt.Errorf("statement kind %s is op %v, want %v", k.ID, k.Op, StatementOp(i))
		}
	}
	ph := p.Phases[0]
	if ph.Batch != 1 || ph.Access != AccessLottery {
		return errors.New("a replay's phase runs one statement at a time")
	}
	for _, op := range ph.Mix.Ops() {
		if !op.IsStatement() || int(op-OpStatement) >= len(r.Kinds) {
			return fmt.Errorf("phase %s deals %v, which is not one of the replay's %d statement kinds", ph.Name, op, len(r.Kinds))
		}
	}
	return nil
}
