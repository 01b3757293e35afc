package sqltrace

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Info summarises a trace: what gobench replay --info prints.
type Info struct {
	Version  uint32 `json:"version"`
	Bytes    int64  `json:"bytes"`
	Complete bool   `json:"complete"`

	Processes    []ProcessInfo `json:"processes"`
	Connections  int           `json:"connections"`
	Threads      int           `json:"threads"`
	Statements   int64         `json:"statements"`
	Errors       int64         `json:"errors"`
	Busy         int64         `json:"busy"`
	Commits      int64         `json:"commits"`
	Fingerprints int           `json:"fingerprints"`
	// Duration is from the first statement's start to the last one's
	// end.
	Duration  time.Duration     `json:"duration_ns"`
	Databases []DBInfo          `json:"databases"`
	Top       []FingerprintInfo `json:"top"`
	// Cut counts the statements whose text was longer than MaxText (a
	// replay does not run them), Omitted those with a parameter longer
	// than MaxValue, which the trace does not hold.
	Cut     Loss     `json:"cut"`
	Omitted Loss     `json:"omitted"`
	Notes   []string `json:"notes,omitempty"`
	// TailMissing, if not empty, says why the trace's last statements
	// may be missing (a NoteTail note of the capture's).
	TailMissing string `json:"tail_missing,omitempty"`
	// Masked names the columns whose values gobench capture --mask
	// replaced by keyed substitutes ("users.email, users.name"), if any.
	Masked string              `json:"masked,omitempty"`
	Orders map[string]*Order   `json:"-"`
	byFP   map[string]*fpCount // fingerprint → counts
}

// ProcessInfo is one process of a trace.
type ProcessInfo struct {
	Stream      uint64 `json:"stream"`
	PID         uint64 `json:"pid"`
	PPID        uint64 `json:"ppid"`
	Command     string `json:"command"`
	Connections int    `json:"connections"`
	Threads     int    `json:"threads"`
	Statements  int64  `json:"statements"`
}

// DBInfo is one database of a trace.
type DBInfo struct {
	Path       string `json:"path"`
	Statements int64  `json:"statements"`
	Commits    int64  `json:"commits"`
	// Order says how the order of its commits was recorded, and Exact
	// whether it places every transaction (Inexact says why not).
	Order   string `json:"order"`
	Exact   bool   `json:"exact"`
	Inexact string `json:"inexact,omitempty"`
	// Snapshot is the size of its content at the capture's start, or
	// SnapshotError why the trace has none.
	Snapshot      uint64 `json:"snapshot_bytes"`
	SnapshotError string `json:"snapshot_error,omitempty"`
}

// FingerprintInfo is a statement, by fingerprint, and how often it ran.
type FingerprintInfo struct {
	ID    string        `json:"id"`
	Text  string        `json:"text"`
	Count int64         `json:"count"`
	Total time.Duration `json:"total_ns"`
}

type fpCount struct {
	count int64
	total int64
}

// maxTop is how many statements Info lists by count.
const maxTop = 10

// Inspect reads a trace twice (open opens it each time) and summarises
// it, with each database's order of commits. It checks every chunk, the
// snapshots' bytes too, and that each snapshot holds the bytes its record
// says: a trace that would fail in a replay fails here, with a
// *FormatError naming the offset.
func Inspect(open func() (io.ReadCloser, error)) (*Info, error) {
	orders := map[string]*Order{}
	var snaps []*Record
	c, err := scan(open, func(c *scanContext, rec *Record) {
		switch rec.Kind {
		case KindSegment:
			o := orderOf(orders, c.dbPath(rec.Stream, rec.Segment.DB))
			o.addSegment(rec.Segment)
		case KindSnapshot:
			if rec.Snapshot.Error == "" {
				snaps = append(snaps, &Record{Kind: KindSnapshot, Offset: rec.Offset, Snapshot: rec.Snapshot})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for _, s := range snaps {
		if got := c.data[s.Snapshot.Number]; got != s.Snapshot.Size {
			return nil, &FormatError{Offset: s.Offset, Msg: fmt.Sprintf("snapshot %d holds %d bytes, its record says %d: the trace is corrupt", s.Snapshot.Number, got, s.Snapshot.Size)}
		}
	}
	for _, o := range orders {
		o.sortSegments()
	}
	in := &Info{Orders: orders, byFP: map[string]*fpCount{}}
	t := &tally{in: in, threads: map[[2]uint64]bool{}, conns: map[[2]uint64]bool{}, dbs: map[string]*DBInfo{}, proc: map[uint64]*ProcessInfo{}}
	c, err = scan(open, func(c *scanContext, rec *Record) { t.add(c, rec) })
	if err != nil {
		return nil, err
	}
	in.Version, in.Bytes = c.r.Version(), c.r.Offset()
	in.Complete, _, _ = c.r.Ended()
	t.finish()
	return in, nil
}

func orderOf(orders map[string]*Order, path string) *Order {
	o := orders[path]
	if o == nil {
		o = newOrder(path)
		orders[path] = o
	}
	return o
}

// scanContext follows what a trace's records refer to: each stream's
// databases and connections.
type scanContext struct {
	r     *Reader
	paths map[[2]uint64]string // (stream, db id) → path
	conns map[[2]uint64]uint64 // (stream, conn) → db id
	data  map[uint64]uint64    // snapshot number → bytes read
}

func (c *scanContext) dbPath(stream, db uint64) string { return c.paths[[2]uint64{stream, db}] }

// connDB returns the path of the database a stream's connection opened.
func (c *scanContext) connDB(stream, conn uint64) string {
	db, ok := c.conns[[2]uint64{stream, conn}]
	if !ok {
		return ""
	}
	return c.dbPath(stream, db)
}

// scan reads a trace, calling visit for each record (snapshot bytes
// counted, not visited) with the references resolved so far. It returns
// its context, its Reader at the trace's end.
func scan(open func() (io.ReadCloser, error), visit func(*scanContext, *Record)) (*scanContext, error) {
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := NewReader(f)
	c := &scanContext{r: r, paths: map[[2]uint64]string{}, conns: map[[2]uint64]uint64{}, data: map[uint64]uint64{}}
	for r.Next() {
		rec := r.Record()
		switch rec.Kind {
		case KindData:
			c.data[rec.Stream] += uint64(len(rec.Data))
			continue
		case KindDB:
			c.paths[[2]uint64{rec.Stream, rec.DB.ID}] = rec.DB.Path
		case KindOpen:
			c.conns[[2]uint64{rec.Stream, rec.Open.Conn}] = rec.Open.DB
		}
		visit(c, rec)
	}
	return c, r.Err()
}

// tally is Inspect's second pass.
type tally struct {
	in         *Info
	threads    map[[2]uint64]bool
	conns      map[[2]uint64]bool
	dbs        map[string]*DBInfo
	dbOrder    []string
	proc       map[uint64]*ProcessInfo
	start, end int64
}

func (t *tally) db(path string) *DBInfo {
	d := t.dbs[path]
	if d == nil {
		d = &DBInfo{Path: path, SnapshotError: "no snapshot recorded"}
		t.dbs[path] = d
		t.dbOrder = append(t.dbOrder, path)
	}
	return d
}

func (t *tally) process(stream uint64) *ProcessInfo {
	p := t.proc[stream]
	if p == nil {
		p = &ProcessInfo{Stream: stream}
		t.proc[stream] = p
	}
	return p
}

func (t *tally) add(c *scanContext, rec *Record) {
	switch rec.Kind {
	case KindProcess:
		p := t.process(rec.Stream)
		p.PID, p.PPID, p.Command = rec.Process.PID, rec.Process.PPID, rec.Process.Command
	case KindSnapshot:
		d := t.db(c.dbPath(rec.Stream, rec.Snapshot.DB))
		d.Snapshot, d.SnapshotError = rec.Snapshot.Size, rec.Snapshot.Error
	case KindNote:
		t.in.Notes = append(t.in.Notes, rec.Note.Text)
		if cols, ok := ParseMaskNote(rec.Note); ok && rec.Stream == 0 {
			t.in.Masked = cols
		}
		if rec.Note.Level == NoteTail && rec.Stream == 0 && t.in.TailMissing == "" {
			t.in.TailMissing = rec.Note.Text
		}
	case KindOpen:
		t.db(c.dbPath(rec.Stream, rec.Open.DB))
		t.conn(rec.Stream, rec.Open.Conn, rec.Open.Thread)
	case KindExec:
		t.exec(c, rec.Stream, &rec.Exec)
	}
}

func (t *tally) conn(stream, conn, thread uint64) {
	p := t.process(stream)
	if k := [2]uint64{stream, conn}; !t.conns[k] {
		t.conns[k] = true
		p.Connections++
	}
	if k := [2]uint64{stream, thread}; thread != 0 && !t.threads[k] {
		t.threads[k] = true
		p.Threads++
	}
}

func (t *tally) exec(c *scanContext, stream uint64, e *Exec) {
	in := t.in
	in.Statements++
	t.process(stream).Statements++
	t.conn(stream, e.Conn, e.Thread)
	if e.Code != 0 {
		in.Errors++
		if e.Code&0xff == 5 || e.Code&0xff == 6 {
			in.Busy++
		}
	}
	if t.start == 0 || e.Start < t.start {
		t.start = e.Start
	}
	t.end = max(t.end, e.Start+e.Span)
	path := c.connDB(stream, e.Conn)
	d := t.db(path)
	d.Statements++
	o := orderOf(in.Orders, path)
	o.addState(stream, e.Snap, false)
	if e.MadeCommit() {
		o.addState(stream, e.Commit, true)
		d.Commits++
		in.Commits++
	}
	fp := Fingerprint(e.SQL)
	if e.Flags&FlagCut != 0 {
		in.Cut.Add(FingerprintID(fp))
	}
	if e.Omits() {
		in.Omitted.Add(FingerprintID(fp))
	}
	f := in.byFP[fp]
	if f == nil {
		f = &fpCount{}
		in.byFP[fp] = f
	}
	f.count++
	f.total += e.Span
}

func (t *tally) finish() {
	in := t.in
	in.Connections, in.Threads, in.Fingerprints = len(t.conns), len(t.threads), len(in.byFP)
	if t.end > t.start {
		in.Duration = time.Duration(t.end - t.start)
	}
	streams := make([]uint64, 0, len(t.proc))
	for s := range t.proc {
		streams = append(streams, s)
	}
	sort.Slice(streams, func(i, j int) bool { return streams[i] < streams[j] })
	for _, s := range streams {
		if p := t.proc[s]; s != 0 || p.Statements > 0 {
			in.Processes = append(in.Processes, *p)
		}
	}
	for _, path := range t.dbOrder {
		d := t.dbs[path]
		if path == "" && d.Statements == 0 {
			continue
		}
		o := orderOf(in.Orders, path)
		o.finish()
		d.Order = o.Method()
		d.Exact, d.Inexact = o.Exact()
		if path == "" {
			d.Path, d.SnapshotError = "(in memory or temporary)", "an in-memory or temporary database has no file"
		}
		in.Databases = append(in.Databases, *d)
	}
	for fp, f := range in.byFP {
		in.Top = append(in.Top, FingerprintInfo{ID: FingerprintID(fp), Text: fp, Count: f.count, Total: time.Duration(f.total)})
	}
	sort.Slice(in.Top, func(i, j int) bool {
		if in.Top[i].Count != in.Top[j].Count {
			return in.Top[i].Count > in.Top[j].Count
		}
		return in.Top[i].Text < in.Top[j].Text
	})
	if len(in.Top) > maxTop {
		in.Top = in.Top[:maxTop]
	}
}

// String names a state for messages.
func (s State) String() string {
	switch s.Kind {
	case StateFile:
		return fmt.Sprintf("file counter %d", s.Value)
	case StateWAL:
		return fmt.Sprintf("WAL counter %d", s.Value)
	case StateSeq:
		return fmt.Sprintf("commit %d", s.Value)
	}
	return "none"
}

// FindDatabase returns the database of the trace that name names: by
// its path as the trace holds it; else by the same file's path, name
// made absolute (against the working directory) and symbolic links
// resolved on both sides; else, when name is a base name alone, the one
// database of that base name. An error lists the trace's databases.
func (in *Info) FindDatabase(name string) (*DBInfo, error) {
	for i := range in.Databases {
		if in.Databases[i].Path == name {
			return &in.Databases[i], nil
		}
	}
	same := func(path string) bool { return false }
	if abs, err := filepath.Abs(name); err == nil {
		real, rerr := filepath.EvalSymlinks(abs)
		same = func(path string) bool {
			if path == abs {
				return true
			}
			p, err := filepath.EvalSymlinks(path)
			return rerr == nil && err == nil && p == real
		}
	}
	var byBase []int
	for i, d := range in.Databases {
		if same(d.Path) {
			return &in.Databases[i], nil
		}
		if filepath.Base(d.Path) == name {
			byBase = append(byBase, i)
		}
	}
	if len(byBase) == 1 && filepath.Base(name) == name {
		return &in.Databases[byBase[0]], nil
	}
	paths := make([]string, len(in.Databases))
	for i, d := range in.Databases {
		paths[i] = strconv.Quote(d.Path)
	}
	why := "no database of the trace is that file"
	if len(byBase) > 1 {
		why = fmt.Sprintf("%d of its databases are named %s: give the path", len(byBase), name)
	}
	return nil, fmt.Errorf("--database %s: %s; the trace's databases are %s", name, why, strings.Join(paths, ", "))
}
