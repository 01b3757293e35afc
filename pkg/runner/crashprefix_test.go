package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// The prefix matcher: a state equals the longest prefix of the commits
// whose sums it has (on the columns compared); the acknowledged commits
// after it, that changed something, are lost, with the tables they
// changed; a state equal to no prefix is found.
func TestPrefixMatch(t *testing.T) {
	// Columns a.x, a.y, b.z; four commits: the second changes b, the
	// third nothing (a read), the fourth a again.
	p := &prefixes{
		cols: []string{"a.x", "a.y", "b.z"},
		sums: [][]uint64{{1, 1, 1}, {2, 5, 1}, {2, 5, 7}, {2, 5, 7}, {3, 9, 7}},
		commits: []prefixCommit{{ack: 0, changed: true}, {ack: 1, changed: true}, {ack: 2, changed: false},
			{ack: 3, changed: true}},
		compare: []bool{true, true, true},
	}
	tests := []struct {
		name   string
		state  []uint64
		acked  int // acks 0 to acked-1 came before the cut
		prefix int
		found  bool
		lost   []int
		tables []string
	}{
		{"every commit", []uint64{3, 9, 7}, 4, 4, true, nil, nil},
		{"exact prefix, the rest not yet acknowledged", []uint64{2, 5, 7}, 2, 3, true, nil, nil},
		{"a lost tail", []uint64{2, 5, 1}, 4, 1, true, []int{2, 4}, []string{"a", "b"}},
		{"everything lost", []uint64{1, 1, 1}, 4, 0, true, []int{1, 2, 4}, []string{"a", "b"}},
		{"a read is never lost", []uint64{2, 5, 7}, 3, 3, true, nil, nil},
		{"no prefix: a half-applied commit", []uint64{3, 5, 7}, 4, 0, false, nil, nil},
		{"no prefix: commits out of order", []uint64{2, 9, 1}, 4, 0, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, ok := p.match(tt.state)
			if ok != tt.found || ok && k != tt.prefix {
				t.Fatalf("match = %d, %v; want %d, %v", k, ok, tt.prefix, tt.found)
			}
			if !ok {
				return
			}
			lost := p.lostAfter(k, func(ack int) bool { return ack < tt.acked })
			if !slices.Equal(lost, tt.lost) {
				t.Errorf("lost commits %v, want %v", lost, tt.lost)
			}
			if got := p.tablesOf(lost); !slices.Equal(got, tt.tables) {
				t.Errorf("tables %v, want %v", got, tt.tables)
			}
		})
	}
}

// A column the rebuild does not reproduce (the clock's, chance's) is left
// out of the comparison, and said.
func TestPrefixReproduce(t *testing.T) {
	p := &prefixes{cols: []string{"a.x", "a.when"}, sums: [][]uint64{{1, 1}, {2, 8}}, commits: []prefixCommit{{0, true}}}
	if not := p.reproduce([]uint64{2, 9}); !slices.Equal(not, []string{"a.when"}) {
		t.Fatalf("not compared %v, want [a.when]", not)
	}
	if k, ok := p.match([]uint64{2, 3}); !ok || k != 1 {
		t.Errorf("match on the compared column = %d, %v; want 1, true", k, ok)
	}
}

// A sql workload's states are judged by their content, on real
// databases: a state equal to the run's end kept everything; the
// database as START found it (a cut before the WAL's first sync, at
// NORMAL) lost every acknowledged script, and says which tables; a
// state changed by no commit of the run equals no prefix.
func TestCheckCrashStateByContent(t *testing.T) {
	drv := sqlite.Modernc()
	p := sqlPlan(t, 1, "bump.sql", "\\set x random(1, 1000000)\nBEGIN IMMEDIATE;\nUPDATE counter SET v = v + :x;\nINSERT INTO log VALUES (:client_id, :x);\nCOMMIT;")
	p.Phases[0].Ops = 20
	p.Crash = &workload.Crash{States: 1, Model: store.CrashLose, RecordLimit: 1 << 30}
	// The database as the run's START finds it: set up as the run sets
	// its own up.
	dir := t.TempDir()
	bp := *p
	bp.Store.Path = filepath.Join(dir, "base", "sql.db")
	if err := os.MkdirAll(filepath.Dir(bp.Store.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(context.Background(), &bp, drv, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	base := bp.Store.Path
	if err := Run(context.Background(), p, drv, &classSink{samples: map[int][]workload.Sample{}}); err != nil {
		t.Fatal(err)
	}
	x := NewCrashIndex(p)
	for i := range 20 {
		x.Add(store.Ack{Worker: 0, First: uint64(i), N: 1, Event: int64(10 * (i + 1)), Commit: int64(10*i + 1), At: int64(i)})
	}
	x.SetContent(ContentSums{Open: func(path string) (Rebuilder, error) { return dbdigest.OpenRebuild(path) },
		Sums: dbdigest.FileSums, Base: base, End: p.Store.Path, Scratch: filepath.Join(dir, "scratch")})
	state := func(from, sql string) string {
		d, err := os.MkdirTemp(dir, "state")
		if err != nil {
			t.Fatal(err)
		}
		path, err := copyDB(from, d)
		if err != nil {
			t.Fatal(err)
		}
		if sql != "" {
			r, err := dbdigest.OpenRebuild(path)
			if err == nil {
				err = r.Exec(sql, nil, nil)
			}
			if err == nil {
				err = r.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
	tests := []struct {
		name         string
		path         string
		event        int64
		lost, prefix int64
		noPrefix     bool
		tables       []string
	}{
		{"kept everything", state(p.Store.Path, ""), 1000, 0, 20, false, nil},
		{"lost every acknowledged script", state(base, ""), 1000, 20, 0, false, []string{"counter", "log"}},
		{"lost the 5 acknowledged", state(base, ""), 50, 5, 0, false, []string{"counter", "log"}},
		{"no prefix", state(p.Store.Path, "UPDATE counter SET v = v + 1"), 1000, 0, 0, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := CheckCrashState(context.Background(), drv, p, store.CrashState{Path: tt.path, Event: tt.event}, x)
			if err != nil {
				t.Fatal(err)
			}
			if r.Lost != tt.lost || r.NoPrefix != tt.noPrefix || r.Corrupt != tt.noPrefix || !tt.noPrefix && r.Prefix != tt.prefix ||
				!slices.Equal(r.LostTables, tt.tables) || r.NotChecked != "" {
				t.Errorf("lost %d, prefix %d of %d, no prefix %v, corrupt %v (%s), tables %v, not checked %q; want lost %d, prefix %d, no prefix %v, tables %v",
					r.Lost, r.Prefix, r.Commits, r.NoPrefix, r.Corrupt, r.Why, r.LostTables, r.NotChecked, tt.lost, tt.prefix, tt.noPrefix, tt.tables)
			}
		})
	}
	if len(x.NotCompared()) != 0 {
		t.Errorf("columns not reproduced: %v", x.NotCompared())
	}
}

// redoStmt is a replayed statement, as a test source deals it.
type redoStmt struct {
	sql    string
	failed bool
}

func (s redoStmt) Run(store.Conn) (workload.SampleFlags, error) { return 0, nil }
func (s redoStmt) Redo() ([]string, []any, bool)                { return []string{s.sql}, nil, s.failed }

// redoSource deals one connection's statements, as a replay does.
type redoSource struct{ stmts []redoStmt }

func (redoSource) Name() string { return "redo" }
func (redoSource) Kinds(*workload.Plan, *workload.Phase) []workload.Op {
	return []workload.Op{workload.OpRead}
}
func (redoSource) Writes(*workload.Plan, *workload.Phase) float64 { return 1 }
func (redoSource) Describe(*workload.Plan, bool) string           { return "statements" }
func (redoSource) Brief(*workload.Plan) string                    { return "statements" }
func (s redoSource) Dealer(*workload.Plan, int, int, *deal.Shared) (deal.Dealer, error) {
	return &redoDealer{stmts: s.stmts}, nil
}
func (redoSource) Pacer(*workload.Plan, int, int, *deal.Shared) (deal.Pacer, error) { return nil, nil }

type redoDealer struct {
	stmts []redoStmt
	n     int
}

func (d *redoDealer) Deal(dl *deal.Deal) error {
	if d.n >= len(d.stmts) {
		return deal.ErrDealt
	}
	*dl = deal.Deal{Op: workload.OpRead, Action: d.stmts[d.n], Seq: uint64(d.n)}
	d.n++
	return nil
}
func (d *redoDealer) Len() int64           { return int64(len(d.stmts)) }
func (d *redoDealer) Release(uint64) error { return nil }

// A replay's commits are rebuilt by running each connection's statements
// since its previous commit again, at the commit's place: a table the
// trace creates is summed from then on, a statement that failed when
// captured may fail again, a transaction rolled back leaves nothing; a
// state cut before the last commit lost it, in the table it changed.
func TestRebuildReplayedStatements(t *testing.T) {
	src := redoSource{stmts: []redoStmt{
		{sql: "CREATE TABLE t (x)"}, // 0: committed
		{sql: "BEGIN"},
		{sql: "INSERT INTO t VALUES (1)"},
		{sql: "INSERT INTO nosuch VALUES (1)", failed: true},
		{sql: "COMMIT"}, // 4: committed
		{sql: "BEGIN"},
		{sql: "INSERT INTO t VALUES (2)"},
		{sql: "ROLLBACK"},
		{sql: "INSERT INTO t VALUES (3)"}, // 8: committed
	}}
	dir := t.TempDir()
	db := func(name string, stmts ...string) string {
		path := filepath.Join(dir, name, "r.db")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		r, err := dbdigest.OpenRebuild(path)
		for _, s := range stmts {
			if err == nil {
				err = r.Exec(s, nil, nil)
			}
		}
		if err == nil {
			err = r.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	p := workload.DefaultPlan()
	p.Replay, p.Procs, p.Preload = &workload.Replay{}, 1, 0
	p.Phases[0].Ops = 9
	x := NewCrashIndex(&p)
	for i, seq := range []uint64{0, 4, 8} {
		x.Add(store.Ack{Worker: 0, First: seq, N: 1, Event: int64(10 * (i + 1)), Commit: int64(10*i + 1)})
	}
	x.SetContent(ContentSums{Open: func(path string) (Rebuilder, error) { return dbdigest.OpenRebuild(path) },
		Sums: dbdigest.FileSums, Base: filepath.Join(dir, "none", "r.db"), End: db("end", "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (3)"),
		Scratch: filepath.Join(dir, "scratch"), Source: src})
	if err := x.rebuildOnce(context.Background()); err != nil || x.noPrefixes != "" {
		t.Fatalf("rebuild: %v %s", err, x.noPrefixes)
	}
	if n := len(x.prefixes.commits); n != 3 || len(x.NotCompared()) != 0 {
		t.Fatalf("%d commits rebuilt, want 3; not compared %v", n, x.NotCompared())
	}
	var res workload.CrashResult
	st := store.CrashState{Path: db("state", "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)"), Event: 30}
	if err := x.judgeContent(context.Background(), st, &res); err != nil {
		t.Fatal(err)
	}
	if res.Prefix != 2 || res.Lost != 1 || !slices.Equal(res.LostTables, []string{"t"}) {
		t.Errorf("held %d commits, lost %d in %v; want 2, 1 in [t]", res.Prefix, res.Lost, res.LostTables)
	}

	// A run that ended elsewhere than its commits run again (every column
	// differs) has its states judged by nothing but their integrity, and
	// says why: else every state would equal the last prefix.
	y := NewCrashIndex(&p)
	for i, seq := range []uint64{0, 4, 8} {
		y.Add(store.Ack{Worker: 0, First: seq, N: 1, Event: int64(10 * (i + 1)), Commit: int64(10*i + 1)})
	}
	c := *x.content
	c.End, c.Scratch = db("other", "CREATE TABLE t (x)", "INSERT INTO t VALUES (9)"), filepath.Join(dir, "scratch2")
	y.SetContent(c)
	if err := y.rebuildOnce(context.Background()); err != nil || y.noPrefixes == "" || y.prefixes != nil {
		t.Errorf("a rebuild that reproduced nothing: error %v, why %q, prefixes %v", err, y.noPrefixes, y.prefixes != nil)
	}
}
