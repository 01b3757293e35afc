package replay

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// capturedDB is the database path the test traces name.
const capturedDB = "/captured/app.db"

// traceConn is one captured connection: its process (stream) and id, and
// its statements.
type traceConn struct {
	stream, conn uint64
	execs        []sqltrace.Exec
}

// writeTrace writes a trace of conns on capturedDB, whose snapshot is a
// database made by setup, and whose end, if end is not nil, is the
// database end makes from the snapshot.
func writeTrace(t *testing.T, dir string, setup string, conns []traceConn, end string) string {
	t.Helper()
	snap := filepath.Join(dir, "snap.db")
	execSQL(t, snap, setup)
	snapBytes, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "app.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := sqltrace.NewWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	own := w.Stream(0)
	write(t, own, sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: capturedDB}})
	if _, err := w.WriteSnapshot(1, bytesReader(snapBytes)); err != nil {
		t.Fatal(err)
	}
	write(t, own, sqltrace.Record{Kind: sqltrace.KindSnapshot, Snapshot: sqltrace.Snapshot{DB: 1, Number: 1, Size: uint64(len(snapBytes))}})
	if end != "" {
		execSQL(t, snap, end)
		tables, err := dbdigest.File(snap)
		if err != nil {
			t.Fatal(err)
		}
		write(t, own, sqltrace.Record{Kind: sqltrace.KindDigest, Digest: sqltrace.Digest{DB: 1, Tables: tables}})
	}
	streams := map[uint64]*sqltrace.Stream{}
	for _, c := range conns {
		s := streams[c.stream]
		if s == nil {
			s = w.Stream(c.stream)
			streams[c.stream] = s
			write(t, s, sqltrace.Record{Kind: sqltrace.KindProcess, Process: sqltrace.Process{PID: c.stream}})
			write(t, s, sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: capturedDB}})
		}
		write(t, s, sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: c.conn, DB: 1}})
		for _, e := range c.execs {
			e.Conn = c.conn
			write(t, s, sqltrace.Record{Kind: sqltrace.KindExec, Exec: e})
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func write(t *testing.T, s *sqltrace.Stream, r sqltrace.Record) {
	t.Helper()
	if err := s.Write(&r); err != nil {
		t.Fatal(err)
	}
}

// execSQL runs statements on a database file through modernc's driver.
func execSQL(t *testing.T, path, q string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

type bytesReaderT struct {
	b []byte
	i int
}

func (r *bytesReaderT) Read(p []byte) (int, error) {
	if r.i >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.i:])
	r.i += n
	return n, nil
}

func bytesReader(b []byte) io.Reader { return &bytesReaderT{b: b} }

// replayPlan plans the replay of a trace on a new database in dir, in
// goroutine mode on modernc, with the snapshot installed.
func replayPlan(t *testing.T, dir, trace string, speed float64, order string) *workload.Plan {
	t.Helper()
	r, _, err := Build(func() (io.ReadCloser, error) { return os.Open(trace) }, Options{Trace: trace, Speed: speed, Order: order})
	if err != nil {
		t.Fatal(err)
	}
	p := workload.DefaultPlan()
	p.Driver = sqlite.Modernc().Name()
	p.Mode, p.Procs, p.Goroutines = workload.ModeGoroutine, r.Procs, len(r.Workers)/r.Procs
	p.Preload, p.OnError, p.Replay = 0, workload.OnErrorContinue, r
	ph := workload.Phase{Name: "replay", Batch: 1}
	for _, k := range r.Kinds {
		ph.Mix = append(ph.Mix, workload.Weight{Op: k.Op, Percent: float64(k.Count)})
	}
	for _, w := range r.Workers {
		ph.Ops = max(ph.Ops, w.Statements)
	}
	p.Phases = []workload.Phase{ph}
	p.Store = store.Config{Path: filepath.Join(dir, "replay.db"), Reuse: true, Bare: true,
		Options: sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 10_000}.Encode()}
	if _, err := InstallSnapshot(r, p.Store.Path); err != nil {
		t.Fatal(err)
	}
	return &p
}

// seq is a state of the database, as its file's change counter names it.
func seq(v uint64) sqltrace.State { return sqltrace.State{Kind: sqltrace.StateFile, Value: v, At: 1} }

// done is the flags of a statement that ran to its end in autocommit.
const done = sqltrace.FlagDone | sqltrace.FlagAutocommitBefore | sqltrace.FlagAutocommitAfter

// TestReplayOrderCommit: in the order of commits, a reader of another
// process sees, statement by statement, the rows it saw when captured,
// however the goroutines are scheduled, and the database ends as the
// capture's did.
func TestReplayOrderCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writer := traceConn{stream: 1, conn: 1}
	reader := traceConn{stream: 2, conn: 7}
	for k := range uint64(8) {
		writer.execs = append(writer.execs, sqltrace.Exec{SQL: "INSERT INTO t (x) VALUES (?)", Start: int64(10 + 2*k),
			Params: []sqltrace.Value{{Type: sqltrace.ValueInt, Int: int64(100 + k)}}, Changes: 1, Flags: done | sqltrace.FlagChanges,
			Snap: seq(k), Commit: seq(k + 1)})
	}
	for k := range uint64(9) {
		reader.execs = append(reader.execs, sqltrace.Exec{SQL: "SELECT x FROM t ORDER BY x", Start: int64(9 + 2*k),
			Rows: int64(3 + k), Flags: done | sqltrace.FlagReadOnly, Snap: seq(k)})
	}
	trace := writeTrace(t, dir, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);",
		[]traceConn{reader, writer}, "INSERT INTO t VALUES (100), (101), (102), (103), (104), (105), (106), (107);")
	p := replayPlan(t, dir, trace, 0, workload.ReplayCommit)
	c := &classSink{samples: map[int][]workload.Sample{}}
	if err := run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	n, commits := 0, 0
	for _, ss := range c.samples {
		for _, s := range ss {
			n++
			if s.Class != store.OK || s.Flags&workload.FlagDiverged != 0 {
				t.Errorf("sample %+v: failed or diverged", s)
			}
			if s.Flags&workload.FlagCommitted != 0 {
				commits++
			}
		}
	}
	if n != 17 || commits != 8 {
		t.Errorf("%d samples and %d commits, want the trace's 17 and 8", n, commits)
	}
	check := Check(p.Replay, p.Store.Path, dbdigest.File)
	if !check.Compared || !check.Equal {
		t.Errorf("the database against the capture's end: %+v", check)
	}
}

// TestReplayIdleWriter: a transaction that took the write lock and
// committed nothing (an UPDATE that found no row) held the lock, when
// captured, before the one that committed the next state took it; in the
// order of commits the committer takes it only once that one ended, so
// neither waits for the other until a busy time-out. The idle writer's
// connection first runs a slow read, so that, were the committer not
// held back, it would take the lock first.
func TestReplayIdleWriter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	slow := "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT count(*) FROM n"
	begin := sqltrace.FlagDone | sqltrace.FlagAutocommitBefore | sqltrace.FlagReadOnly
	end := sqltrace.FlagDone | sqltrace.FlagAutocommitAfter | sqltrace.FlagReadOnly
	idle := traceConn{stream: 2, conn: 2, execs: []sqltrace.Exec{
		{SQL: slow, Start: 5, Rows: 1, Flags: done | sqltrace.FlagReadOnly, Snap: seq(0)},
		{SQL: "BEGIN IMMEDIATE", Start: 10, Flags: begin, Snap: seq(0)},
		{SQL: "UPDATE o SET s = 'shipped' WHERE u = ?", Start: 11, Params: []sqltrace.Value{{Type: sqltrace.ValueInt, Int: 7}}, Flags: sqltrace.FlagDone | sqltrace.FlagChanges},
		{SQL: "COMMIT", Start: 12, Flags: end},
	}}
	committer := traceConn{stream: 1, conn: 1, execs: []sqltrace.Exec{
		{SQL: "BEGIN IMMEDIATE", Start: 20, Flags: begin, Snap: seq(0)},
		{SQL: "INSERT INTO t (x) VALUES (?)", Start: 21, Params: []sqltrace.Value{{Type: sqltrace.ValueInt, Int: 2}}, Changes: 1, Flags: sqltrace.FlagDone | sqltrace.FlagChanges},
		{SQL: "COMMIT", Start: 22, Flags: end, Commit: seq(1)},
	}}
	trace := writeTrace(t, dir, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1); CREATE TABLE o (u INTEGER, s TEXT);",
		[]traceConn{committer, idle}, "INSERT INTO t VALUES (2)")
	p := replayPlan(t, dir, trace, 0, workload.ReplayCommit)
	p.Store.Options = sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 2000}.Encode()
	replaysToEnd(t, p, 7)
}

// replaysToEnd runs plan p's replay and checks that each of its
// statements, want in all, did what it did when captured, and that the
// database ends as the capture's did.
func replaysToEnd(t *testing.T, p *workload.Plan, want int) {
	t.Helper()
	c := &classSink{samples: map[int][]workload.Sample{}}
	if err := run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatalf("the replay: %v", err)
	}
	n := 0
	for w, ss := range c.samples {
		for i, s := range ss {
			n++
			if s.Class != store.OK || s.Flags&workload.FlagDiverged != 0 {
				t.Errorf("worker %d, statement %d: class %v, flags %b: failed or diverged", w, i, s.Class, s.Flags)
			}
		}
	}
	if n != want {
		t.Errorf("%d samples, want the trace's %d", n, want)
	}
	if check := Check(p.Replay, p.Store.Path, dbdigest.File); !check.Compared || !check.Equal {
		t.Errorf("the database against the capture's end: %+v", check)
	}
}

// TestReplayDivergence: what a replayed statement does differently from
// the capture is flagged, each way: other rows, other changes, an error
// the capture did not have, one it had that the replay does not; a read
// of a setting the run overrides is not compared. The database's end is
// compared with the capture's and found to differ.
func TestReplayDivergence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conn := traceConn{stream: 1, conn: 1, execs: []sqltrace.Exec{
		{SQL: "SELECT x FROM t", Rows: 5, Flags: done},                                              // 3 rows now: diverged
		{SQL: "SELECT x FROM t", Rows: 2},                                                           // the application read 2 of 3: as captured
		{SQL: "UPDATE t SET x = x + 1 WHERE x > 1", Changes: 1, Flags: done | sqltrace.FlagChanges}, // 2 now: diverged
		{SQL: "INSERT INTO t (x) VALUES (1)", Code: 2067, Flags: sqltrace.FlagChanges},              // a constraint when captured, none now
		{SQL: "INSERT INTO u (k) VALUES (1)", Changes: 1, Flags: done | sqltrace.FlagChanges},       // fine when captured, a constraint now
		{SQL: "PRAGMA journal_mode=wal", Rows: 1, Flags: done},                                      // overridden: not compared
		{SQL: "SELECT count(*) FROM t", Rows: 1, Flags: done},                                       // as captured
	}}
	trace := writeTrace(t, dir, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3); CREATE TABLE u (k INTEGER PRIMARY KEY); INSERT INTO u VALUES (1);",
		[]traceConn{conn}, "DELETE FROM t WHERE x = 3")
	p := replayPlan(t, dir, trace, 0, workload.ReplayRace)
	if len(p.Replay.Overrides) != 1 || p.Replay.Overrides[0].Pragma != "journal_mode" {
		t.Fatalf("overrides %+v, want the journal mode's", p.Replay.Overrides)
	}
	p.Replay.DivergedFile = DivergedPath(p.Store.Path) // as the plan source places it
	c := &classSink{samples: map[int][]workload.Sample{}}
	if err := run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	got := c.samples[0]
	want := []struct {
		diverged, captureErr bool
		class                store.Class
	}{{true, false, store.OK}, {false, false, store.OK}, {true, false, store.OK}, {true, true, store.OK}, {true, false, store.Constraint}, {false, false, store.OK}, {false, false, store.OK}}
	if len(got) != len(want) {
		t.Fatalf("%d samples, want %d", len(got), len(want))
	}
	for i, w := range want {
		s := got[i]
		if s.Flags&workload.FlagDiverged != 0 != w.diverged || s.Flags&workload.FlagCaptureError != 0 != w.captureErr || s.Class != w.class {
			t.Errorf("statement %d (%s): flags %b class %v, want diverged %v, capture error %v, class %v", i, conn.execs[i].SQL, s.Flags, s.Class, w.diverged, w.captureErr, w.class)
		}
	}
	check := Check(p.Replay, p.Store.Path, dbdigest.File)
	if !check.Compared || check.Equal || len(check.Differences) != 1 {
		t.Errorf("the database against the capture's end: %+v, want table t to differ", check)
	}
	// The one statement that failed left its kind's first error.
	var insertU string
	for _, k := range p.Replay.Kinds {
		if strings.Contains(strings.ToLower(k.Fingerprint), "into u") {
			insertU = k.ID
		}
	}
	if len(check.Errors) != 1 || check.Errors[0].Class != store.Constraint.String() ||
		!strings.Contains(check.Errors[0].Message, "UNIQUE constraint failed: u.k") || check.Errors[0].Kind != insertU {
		t.Errorf("first errors %+v, want the insert into u's constraint error", check.Errors)
	}
}

// TestReplaySpeedQueueing: at the captured pace a statement is due when
// it was captured, and its latency counts from then: when the replay is
// slower than the capture (here every statement was captured at one
// instant, taking no time), each waits for those before it, and the wait
// is in its latency. Back to back there is no due time and no wait. The
// check is by construction, on each sample's own figures.
func TestReplaySpeedQueueing(t *testing.T) {
	t.Parallel()
	slow := "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT count(*) FROM n"
	conn := traceConn{stream: 1, conn: 1}
	for range 8 {
		conn.execs = append(conn.execs, sqltrace.Exec{SQL: slow, Start: 1000, Rows: 1, Flags: done | sqltrace.FlagReadOnly})
	}
	for _, speed := range []float64{1, 0} {
		dir := t.TempDir()
		trace := writeTrace(t, dir, "CREATE TABLE t (x)", []traceConn{conn}, "")
		p := replayPlan(t, dir, trace, speed, workload.ReplayRace)
		c := &classSink{samples: map[int][]workload.Sample{}}
		if err := run(context.Background(), p, sqlite.Modernc(), c); err != nil {
			t.Fatal(err)
		}
		var served time.Duration
		for i, s := range c.samples[0] {
			service := s.Latency - s.Lag
			switch {
			case speed == 0 && s.Lag != 0:
				t.Errorf("back to back, statement %d waited %v", i, s.Lag)
			case speed > 0 && s.Lag < served:
				t.Errorf("at 1x, statement %d waited %v, less than the %v its predecessors took", i, s.Lag, served)
			case s.Latency < service || service <= 0:
				t.Errorf("statement %d: latency %v, service %v", i, s.Latency, service)
			}
			served += service
		}
	}
}

// TestReplayRefusesOutside: a trace whose SQL would reach another
// database is refused before any of its statements runs, and no file
// appears.
func TestReplayRefusesOutside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.db")
	conn := traceConn{stream: 1, conn: 1, execs: []sqltrace.Exec{
		{SQL: "INSERT INTO t VALUES (42)", Changes: 1, Flags: done | sqltrace.FlagChanges},
		{SQL: "ATTACH DATABASE '" + victim + "' AS v", Flags: done},
	}}
	trace := writeTrace(t, dir, "CREATE TABLE t (x)", []traceConn{conn}, "")
	p := replayPlan(t, dir, trace, 0, workload.ReplayRace)
	err := run(context.Background(), p, sqlite.Modernc(), &classSink{samples: map[int][]workload.Sample{}})
	if !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("replaying an ATTACH: %v, want a refusal (ErrInvalid)", err)
	}
	if _, serr := os.Stat(victim); serr == nil {
		t.Error("the attached database was created")
	}
	if n := countRows(t, p, "SELECT 1 FROM t WHERE x = 42"); n != 0 {
		t.Errorf("the trace's first statement ran before the refusal: %d rows", n)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	if slices.Contains(names, "victim.db") {
		t.Errorf("files %v", names)
	}
}

// run runs plan p's replay on drv as a coordinator does: its statements
// checked before, its workers dealt and paced by its source.
func run(ctx context.Context, p *workload.Plan, drv store.Driver, c workload.Collector) (err error) {
	st, err := runner.OpenStore(ctx, p, drv, runner.Setup{Check: SetupCheck(p)})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	src, err := NewSource(p, p.Workers(), nil)
	if err != nil {
		return err
	}
	return (&runner.Host{Plan: p, Store: st, Workers: p.WorkerIDs(), Collector: c, Source: src}).Run(ctx)
}

// classSink records every sample's op and class, per worker.
type classSink struct {
	mu      sync.Mutex
	samples map[int][]workload.Sample
}

func (c *classSink) Sink(worker, _ int) workload.Sink { return &classWorker{c: c, worker: worker} }

type classWorker struct {
	c      *classSink
	worker int
	got    []workload.Sample
}

func (s *classWorker) Record(smp workload.Sample) error { s.got = append(s.got, smp); return nil }

func (s *classWorker) Done(workload.WorkerStats) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.samples[s.worker] = s.got
	return nil
}

// countRows counts the rows query returns on p's database.
func countRows(t *testing.T, p *workload.Plan, query string) int64 {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Modernc().Open(ctx, p.Store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out, err := c.(store.Executor).Execute(query, nil, -1, false)
	if err != nil {
		t.Fatal(err)
	}
	return out.Rows
}

// TestReplayDigest: a statement whose rows the trace digests diverges
// when the replay returns other values in as many rows, or, when it
// orders them, the same values in another order; one without a digest
// (a trace of format version 1) compares the number of rows only. A
// statement that calls random() is its kind's non-deterministic.
func TestReplayDigest(t *testing.T) {
	t.Parallel()
	digest := func(flags sqltrace.Flags, xs ...int64) uint64 {
		d := sqltrace.NewRowsDigest()
		for _, x := range xs {
			h, _ := sqltrace.Row([]any{x})
			d.Add(h)
		}
		return d.Of(flags)
	}
	dd := done | sqltrace.FlagDigest
	ord := dd | sqltrace.FlagOrdered
	dir := t.TempDir()
	conn := traceConn{stream: 1, conn: 1, execs: []sqltrace.Exec{
		{SQL: "SELECT x FROM t", Rows: 3, Flags: dd, Digest: digest(dd, 3, 1, 2)},                   // the same rows: as captured
		{SQL: "SELECT x FROM t", Rows: 3, Flags: dd, Digest: digest(dd, 1, 2, 4)},                   // other values: diverged
		{SQL: "SELECT x FROM t ORDER BY x DESC", Rows: 3, Flags: ord, Digest: digest(ord, 3, 2, 1)}, // as captured
		{SQL: "SELECT x FROM t ORDER BY x DESC", Rows: 3, Flags: ord, Digest: digest(ord, 1, 2, 3)}, // another order: diverged
		{SQL: "SELECT x FROM t", Rows: 3, Flags: done, Digest: 1},                                   // no digest: the count
		{SQL: "SELECT x FROM t", Rows: 2, Flags: sqltrace.FlagDigest, Digest: digest(dd, 1, 2)},     // the 2 rows read: as captured
		{SQL: "SELECT abs(random()) % 1000000 + 10", Rows: 1, Flags: dd, Digest: digest(dd, 5)},     // another value: diverged
	}}
	trace := writeTrace(t, dir, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);", []traceConn{conn}, "")
	p := replayPlan(t, dir, trace, 0, workload.ReplayCommit)
	if p.Replay.Digested != 6 {
		t.Errorf("Digested = %d, want 6", p.Replay.Digested)
	}
	for _, k := range p.Replay.Kinds {
		if want := strings.Contains(k.Fingerprint, "random"); k.NonDeterministic != want {
			t.Errorf("kind %s (%s): non-deterministic %v, want %v", k.ID, k.Fingerprint, k.NonDeterministic, want)
		}
	}
	c := &classSink{samples: map[int][]workload.Sample{}}
	if err := run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, false, true, false, false, true}
	got := c.samples[0]
	if len(got) != len(want) {
		t.Fatalf("%d samples, want %d", len(got), len(want))
	}
	for i, w := range want {
		if s := got[i]; s.Flags&workload.FlagDiverged != 0 != w || s.Class != store.OK {
			t.Errorf("statement %d (%s): flags %b class %v, want diverged %v", i, conn.execs[i].SQL, s.Flags, s.Class, w)
		}
	}
}
