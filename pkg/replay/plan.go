package replay

import (
	"errors"
	"fmt"
	"github.com/gobench/gobench/pkg/workload"
	"io"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Options say which trace to replay, and how.
type Options struct {
	// Trace is the trace's path, absolute.
	Trace string
	// Database is the captured database to replay, by its path in the
	// trace, another path of the same file, or its base name (see
	// sqltrace.Info.FindDatabase); "" picks the one the trace ran most
	// statements on.
	Database string
	// Speed and Order are workload.Replay's.
	Speed float64
	Order string
	// Procs, if positive, folds the captured processes onto this many
	// worker processes; 0 gives each its own.
	Procs int
	// Window, if set, replays the transactions begun in it alone
	// (workload.ReplayWindow; Build sets its origin and counts); Scale,
	// above 1, runs that many copies of each connection
	// (workload.Replay.Scale). Neither keeps the order of commits.
	Window *workload.ReplayWindow
	Scale  int
	// Remap reads the keys that keep scaled copies apart
	// (workload.Replay.Remap) at any scale: a replay built at scale 1
	// and rescaled (Rescale, which reads no trace) needs them; above 1
	// they are always read.
	Remap bool
	// Fold, above 1, replays that many time slices of the capture (or
	// of its window) at once (workload.ReplayFold); race order only.
	Fold int
	// Select, if set, replays only the transactions it keeps
	// (workload.ReplaySelect: --read-only, --filter; Build checks its
	// terms and sets its counts); race order only.
	Select *workload.ReplaySelect
}

// Build reads a trace (open opens it, for each of its three passes)
// and returns its replay, and its summary: each connection of the
// database replayed placed on a worker, the statements' kinds by
// fingerprint, the statements that set what the run sets, and, for the
// order of commits, where each state is. A trace that does not read, has
// no snapshot of the database, or whose order of commits is not exact
// when Order asks for it, is refused.
func Build(open func() (io.ReadCloser, error), o Options) (*workload.Replay, *sqltrace.Info, error) {
	in, err := sqltrace.Inspect(open)
	if err != nil {
		return nil, nil, err
	}
	db, err := pickDatabase(in, o.Database)
	if err != nil {
		return nil, in, err
	}
	r := &workload.Replay{Trace: o.Trace, Database: db.Path, Speed: o.Speed, Order: o.Order, Scale: max(o.Scale, 1)}
	if r.Scale == 1 {
		r.Scale = 0
	}
	if err := grows(o); err != nil {
		return nil, in, err
	}
	if db.SnapshotError != "" {
		return nil, in, noSnapshot(in, db, o.Database)
	}
	for _, d := range in.Databases {
		if d.Path != db.Path && d.Statements > 0 {
			r.Unreplayed = append(r.Unreplayed, d.Path)
		}
	}
	order := in.Orders[db.Path]
	if o.Order == workload.ReplayCommit {
		if ok, why := order.Exact(); !ok {
			return nil, in, fmt.Errorf("--order commit needs the order of every commit of %s, and the trace's is not exact: %s", db.Path, why)
		}
		r.Table, r.States = order.Table(), order.States()
	}
	tally, err := tallyReplay(open, db.Path, nil, nil)
	if err != nil {
		return nil, in, err
	}
	if tally.statements == 0 {
		return nil, in, fmt.Errorf("no statement of the trace ran on %s", db.Path)
	}
	if o.Window != nil {
		if r.Window, tally, err = windowTally(open, db.Path, o.Window, tally); err != nil {
			return nil, in, err
		}
	}
	if o.Select != nil {
		if r.Select, tally, err = selectTally(open, db.Path, r.Window, o.Select, tally); err != nil {
			return nil, in, err
		}
	}
	r.Start, r.Duration, r.Statements, r.Commits = tally.start, tally.end-tally.start, tally.statements, tally.commits
	r.Cut, r.Omitted, r.Digested = tally.cut, tally.omitted, tally.digested
	r.Snapshot = tally.snapshot
	r.Kinds, r.Overrides = tally.kinds(), tally.overrides
	r.Workers, r.Procs = tally.place(o.Procs, max(o.Scale, 1))
	r.Fold = max(o.Procs, 0)
	if o.Fold > 1 {
		if err := foldReplay(open, r, o); err != nil {
			return nil, in, err
		}
	}
	if r.Captured, err = readCaptured(open, r); err != nil {
		return nil, in, err
	}
	if r.Remap, err = remapAt(open, r, max(o.Scale, 1+btoi(o.Remap))); err != nil {
		return nil, in, err
	}
	return r, in, nil
}

// noSnapshot refuses to replay db, which the trace has no snapshot of
// (an in-memory database has none); when the replay picked it (name is
// ""), it names the trace's databases that have one, to pick with
// --database.
func noSnapshot(in *sqltrace.Info, db *sqltrace.DBInfo, name string) error {
	why := fmt.Sprintf("the trace has no snapshot of %s (%s): a replay starts from the database as the capture found it", db.Path, db.SnapshotError)
	if name != "" {
		return errors.New(why)
	}
	var files []string
	for _, d := range in.Databases {
		if d.Path != db.Path && d.SnapshotError == "" && d.Statements > 0 {
			files = append(files, fmt.Sprintf("%q (%d statements)", d.Path, d.Statements))
		}
	}
	if len(files) == 0 {
		return fmt.Errorf("%s; the trace holds no other database with a snapshot: capture the program on a database in a file", why)
	}
	return fmt.Errorf("%s; the trace's databases with a snapshot are %s: give one with --database NAME", why, strings.Join(files, ", "))
}

// pickDatabase returns the database to replay: the one named (see
// sqltrace.Info.FindDatabase), or the one the trace ran most statements
// on.
func pickDatabase(in *sqltrace.Info, name string) (*sqltrace.DBInfo, error) {
	if name != "" {
		return in.FindDatabase(name)
	}
	var best *sqltrace.DBInfo
	for i := range in.Databases {
		d := &in.Databases[i]
		if d.Statements > 0 && (best == nil || d.Statements > best.Statements) {
			best = d
		}
	}
	if best == nil {
		return nil, errors.New("the trace holds no statement")
	}
	return best, nil
}

// grows checks the options that grow or cut a capture: a scale of at
// least 1, and neither it nor a window in the order of commits.
func grows(o Options) error {
	if err := checkFold(o); err != nil {
		return err
	}
	switch {
	case o.Scale < 0 || o.Scale > workload.MaxWorkers:
		return fmt.Errorf("--scale %d: want the copies of each captured connection to run, from 1 to %d", o.Scale, workload.MaxWorkers)
	case o.Order != workload.ReplayCommit:
		return nil
	case o.Scale > 1:
		return fmt.Errorf("--scale %d runs in race order: the copies of a connection cannot each make the capture's commits in its order (give --order race)", o.Scale)
	case o.Select != nil:
		return errors.New("--read-only and --filter run in race order: the order of commits needs every commit, and a transaction kept would wait for commits of those cut (give --order race)")
	case o.Window != nil:
		return errors.New("--window runs in race order: the order of commits counts from the capture's first, and a transaction of the window would wait for commits before it that do not run (give --order race)")
	}
	return nil
}

// windowTally counts again, in window w, what all (the whole capture's
// tally) counted: the statements of the transactions begun in it, and
// those before and after it. The window returned has its origin, the
// capture's first statement, and its counts.
func windowTally(open func() (io.ReadCloser, error), path string, w *workload.ReplayWindow, all *replayTally) (*workload.ReplayWindow, *replayTally, error) {
	win := *w
	win.Origin = all.start
	t, err := tallyReplay(open, path, &win, nil)
	if err != nil {
		return nil, nil, err
	}
	win.Before, win.After, win.Schema = t.before, t.after, t.schema
	if t.statements == 0 {
		return nil, nil, fmt.Errorf("--window %v..%v: no transaction of the %d statements on %s began in it (the capture's statements span %v)",
			w.From, windowEnd(w), all.statements, path, workload.Duration(all.end-all.start))
	}
	return &win, t, nil
}

// windowEnd names a window's end: its To, or "" to the capture's end.
func windowEnd(w *workload.ReplayWindow) string {
	if w.To == 0 {
		return ""
	}
	return w.To.String()
}

// replayTally is what Build's third pass counts.
type replayTally struct {
	path       string
	snapshot   uint64
	start, end int64
	statements int64
	commits    int64
	cut        sqltrace.Loss
	omitted    sqltrace.Loss
	conns      map[[2]uint64]int64 // (stream, conn) → statements
	fps        map[string]int64    // fingerprint → statements
	fpOf       map[[2]uint64]string
	overrides  []workload.Override
	overrideOf map[string]int  // fingerprint → its override
	nondet     map[string]bool // fingerprint → a text of it calls random(), datetime('now') …
	digested   int64           // statements whose rows the trace digests
	// In a window: the statements before and after it, and the schema
	// statements before it that succeeded.
	before, after, schema int64
	// In a selection (workload.ReplaySelect): the transactions kept,
	// and the schema statements of those cut that run first.
	txns, cutSchema int64
	temps           connTemps // each connection's temporary objects, whose schema statements do not run first
}

// tallyReplay counts the statements that ran on the database at path, per
// connection and per fingerprint: those of the transactions begun in
// window w, when it is not nil, and kept by selection s, when it is not
// nil.
func tallyReplay(open func() (io.ReadCloser, error), path string, w *workload.ReplayWindow, s *workload.ReplaySelect) (*replayTally, error) {
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := sqltrace.NewReader(f)
	r.Filter(nil, false)
	t := &replayTally{path: path, conns: map[[2]uint64]int64{}, fps: map[string]int64{}, fpOf: map[[2]uint64]string{}, overrideOf: map[string]int{}, nondet: map[string]bool{}, temps: connTemps{}}
	on := newDBConns(path)
	sel := newWindowSel(w)
	cut, err := newSelReader(s, open, nil, newDBConns(path).note)
	if err != nil {
		return nil, err
	}
	defer cut.Close()
	for r.Next() {
		rec := r.Record()
		if on.note(rec) {
			t.addSelected(cut, sel.where(rec.Stream, &rec.Exec), rec.Stream, &rec.Exec)
		} else if rec.Kind == sqltrace.KindSnapshot && on.is(rec.Stream, rec.Snapshot.DB) && rec.Snapshot.Error == "" {
			t.snapshot = rec.Snapshot.Number
		}
	}
	if err := cut.Err(); err != nil {
		return nil, fmt.Errorf("reading the trace ahead: %w", err)
	}
	return t, r.Err()
}

// dbConns follows a trace's databases and connections, record by
// record, to tell the statements that ran on one database (by its path)
// from the others'.
type dbConns struct {
	path   string
	paths  map[[2]uint64]string // (stream, database id) → path
	connDB map[[2]uint64]string // (stream, connection) → its database's path
}

func newDBConns(path string) *dbConns {
	return &dbConns{path: path, paths: map[[2]uint64]string{}, connDB: map[[2]uint64]string{}}
}

// note learns what rec says of the databases and connections, and
// reports whether it is a statement that ran on the database.
func (c *dbConns) note(rec *sqltrace.Record) bool {
	switch rec.Kind {
	case sqltrace.KindDB:
		c.paths[[2]uint64{rec.Stream, rec.DB.ID}] = rec.DB.Path
	case sqltrace.KindOpen:
		c.connDB[[2]uint64{rec.Stream, rec.Open.Conn}] = c.paths[[2]uint64{rec.Stream, rec.Open.DB}]
	case sqltrace.KindExec:
		return c.connDB[[2]uint64{rec.Stream, rec.Exec.Conn}] == c.path
	}
	return false
}

// is reports whether database db of stream is the database.
func (c *dbConns) is(stream, db uint64) bool { return c.paths[[2]uint64{stream, db}] == c.path }

// addIn counts statement e where it stands in the window: where (see
// windowSel.where).
func (t *replayTally) addIn(where int, stream uint64, e *sqltrace.Exec) {
	switch where {
	case 0:
		t.add(stream, e)
	case 1:
		t.after++
	default:
		t.before++
		if e.Code == 0 && e.Flags&sqltrace.FlagCut == 0 && hoisted(e.SQL, t.temps.of([2]uint64{stream, e.Conn})) {
			t.schema++
		}
	}
}

func (t *replayTally) add(stream uint64, e *sqltrace.Exec) {
	if t.statements == 0 || e.Start < t.start {
		t.start = e.Start
	}
	t.end = max(t.end, e.Start+e.Span)
	t.statements++
	if e.MadeCommit() && e.Code == 0 {
		t.commits++
	}
	t.conns[[2]uint64{stream, e.Conn}]++
	key := [2]uint64{stream, e.SQLID}
	fp, ok := t.fpOf[key]
	if !ok || e.SQLID == 0 {
		fp = sqltrace.Fingerprint(e.SQL)
		if e.SQLID != 0 {
			t.fpOf[key] = fp
		}
		if sqltrace.NonDeterministic(e.SQL) {
			t.nondet[fp] = true // from the text: the fingerprint has no literals
		}
	}
	if e.Flags&sqltrace.FlagDigest != 0 {
		t.digested++
	}
	if t.fps[fp] == 0 {
		if p := OverriddenPragma(fp); p != "" {
			t.overrideOf[fp] = len(t.overrides)
			t.overrides = append(t.overrides, workload.Override{Setting: overridden[p], Pragma: p, SQL: e.SQL})
		}
	}
	t.fps[fp]++
	if e.Flags&sqltrace.FlagCut != 0 {
		t.cut.Add(sqltrace.FingerprintID(fp))
	}
	if e.Omits() {
		t.omitted.Add(sqltrace.FingerprintID(fp))
	}
	if i, ok := t.overrideOf[fp]; ok {
		t.overrides[i].Count++
	}
}

// kinds gives the fingerprints that ran most their own kinds, and the
// rest one kind together.
func (t *replayTally) kinds() []workload.ReplayKind {
	all := make([]workload.ReplayKind, 0, len(t.fps))
	for fp, n := range t.fps {
		all = append(all, workload.ReplayKind{ID: sqltrace.FingerprintID(fp), Fingerprint: fp, Count: n, NonDeterministic: t.nondet[fp]})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Count != all[j].Count {
			return all[i].Count > all[j].Count
		}
		return all[i].Fingerprint < all[j].Fingerprint
	})
	if len(all) > workload.MaxReplayKinds {
		rest := workload.ReplayKind{ID: workload.OtherKindID, Fingerprint: fmt.Sprintf("(the %d other statements)", len(all)-workload.MaxReplayKinds+1)}
		for _, k := range all[workload.MaxReplayKinds-1:] {
			rest.Count += k.Count
			rest.NonDeterministic = rest.NonDeterministic || k.NonDeterministic
		}
		all = append(all[:workload.MaxReplayKinds-1], rest)
	}
	for i := range all {
		all[i].Op = workload.StatementOp(i)
	}
	return all
}

// place puts the tally's connections on workers (placeConns).
func (t *replayTally) place(procs, scale int) ([]workload.ReplayWorker, int) {
	conns := make([]workload.ReplayWorker, 0, len(t.conns))
	for k, n := range t.conns {
		conns = append(conns, workload.ReplayWorker{Stream: k[0], Conn: k[1], Statements: n})
	}
	return placeConns(conns, procs, scale)
}

// placeConns puts each connection on a worker: the connections of a
// captured process on one worker process (or, folded, on process i mod
// procs), in the order of their ids; a process with fewer connections
// than another leaves workers idle. Each time slice of a captured
// process (workload.ReplayFold) is a process of its own, the slices in
// order. Scaled (scale > 1), each copy of a captured process is a
// process of its own: copy k of every process after copy k-1 of all of
// them (folded onto workload.MaxProcs when they are more).
func placeConns(conns []workload.ReplayWorker, procs, scale int) ([]workload.ReplayWorker, int) {
	type group struct {
		slice  int
		stream uint64
	}
	before := func(a, b group) bool { return a.slice < b.slice || a.slice == b.slice && a.stream < b.stream }
	sort.Slice(conns, func(i, j int) bool {
		a, b := group{conns[i].Slice, conns[i].Stream}, group{conns[j].Slice, conns[j].Stream}
		if a != b {
			return before(a, b)
		}
		return conns[i].Conn < conns[j].Conn
	})
	var streams []group
	for _, c := range conns {
		if g := (group{c.Slice, c.Stream}); len(streams) == 0 || streams[len(streams)-1] != g {
			streams = append(streams, g)
		}
	}
	scale = max(scale, 1)
	if copies := len(streams) * scale; procs <= 0 || procs > copies {
		procs = min(copies, workload.MaxProcs)
	}
	byProc := make([][]workload.ReplayWorker, procs)
	for k := range scale {
		for _, c := range conns {
			g := group{c.Slice, c.Stream}
			p := (k*len(streams) + sort.Search(len(streams), func(i int) bool { return !before(streams[i], g) })) % procs
			c.Copy = k
			byProc[p] = append(byProc[p], c)
		}
	}
	g := 0
	for _, ws := range byProc {
		g = max(g, len(ws))
	}
	out := make([]workload.ReplayWorker, procs*g)
	for p, ws := range byProc {
		copy(out[p*g:], ws)
	}
	return out, procs
}

// Rescale returns r at another scale (workload.Replay.Scale): its
// connections placed anew, scale copies of each, without reading the
// trace again, on the worker processes it asked for (workload.Replay.Fold);
// its copies keep apart the keys Build read (Options.Remap), if it read
// them.
func Rescale(r *workload.Replay, scale int) (*workload.Replay, error) {
	if err := grows(Options{Order: r.Order, Scale: scale, Window: r.Window, Select: r.Select}); err != nil {
		return nil, err
	}
	var conns []workload.ReplayWorker
	for _, w := range r.Workers {
		if w.Stream != 0 && w.Copy == 0 {
			conns = append(conns, w)
		}
	}
	out := *r
	out.Remap = refit(r.Remap, scale)
	out.Workers, out.Procs = placeConns(conns, r.Fold, scale)
	out.Scale = scale
	if scale <= 1 {
		out.Scale = 0
	}
	return &out, nil
}

// CountGates counts, in o, the statements that begin a transaction at each
// state of the order of commits (workload.ReplayCommit), and the transactions that
// took the write lock there and committed nothing: the setup of a
// replay's run, before any worker starts.
func CountGates(r *workload.Replay, open func() (io.ReadCloser, error), o *Order) error {
	conns := map[[2]uint64]*replayTxn{}
	for _, w := range r.Workers {
		if w.Stream != 0 {
			conns[[2]uint64{w.Stream, w.Conn}] = &replayTxn{}
		}
	}
	f, err := open()
	if err != nil {
		return err
	}
	defer f.Close()
	tr := sqltrace.NewReader(f)
	tr.Filter(nil, false)
	for tr.Next() {
		rec := tr.Record()
		if rec.Kind != sqltrace.KindExec {
			continue
		}
		txn := conns[[2]uint64{rec.Stream, rec.Exec.Conn}]
		if txn == nil {
			continue
		}
		gate, commit := txn.place(r.Table, &rec.Exec)
		if gate >= 0 {
			o.Count(gate)
		}
		if _, idle := txn.step(&rec.Exec, gate, commit); idle >= 0 {
			o.CountIdle(idle)
		}
	}
	return tr.Err()
}

// overridden are the settings a cell sets that a statement may set too:
// the pragma, and the flag that sets it.
var overridden = map[string]string{
	"journal_mode":       "--journal",
	"synchronous":        "--sync",
	"busy_timeout":       "--busy-timeout",
	"wal_autocheckpoint": "--checkpoint",
	"locking_mode":       "locking mode (gobench's workers share the database in the normal mode)",
	"application_id":     "application id (gobench's mark while the run goes on)",
}

// OverriddenPragma returns the pragma a statement's fingerprint sets, if
// it is one the run's settings set ("" otherwise): "pragma journal_mode =
// ?", "pragma main.synchronous(?)".
func OverriddenPragma(fingerprint string) string {
	rest, ok := strings.CutPrefix(fingerprint, "pragma ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, " ")
	name, _, _ = strings.Cut(name, "(")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	after := strings.TrimPrefix(rest, name)
	if _, ok := overridden[name]; !ok || !(strings.Contains(after, "=") || strings.Contains(after, "(")) {
		return ""
	}
	return name
}
