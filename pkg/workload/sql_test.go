package workload

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
)

// sqlPlan is a sql workload of the given scripts (name.sql → text, weight
// 1 each, in order) on a new SQLite file, with a counter table.
func sqlPlan(t *testing.T, workers int, scripts ...string) *Plan {
	t.Helper()
	p := DefaultPlan()
	p.Driver = sqlite.Modernc().Name()
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "sql.db"), Options: sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 10_000}.Encode()}
	p.Preload = 0
	p.Procs, p.Goroutines = 1, workers
	p.SQL = &SQL{Scale: 1, Schema: &Source{File: "schema.sql", Text: `
		CREATE TABLE counter (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
		INSERT INTO counter VALUES (1, 0);
		CREATE TABLE log (worker INTEGER, x INTEGER);`}}
	for i := 0; i+1 < len(scripts); i += 2 {
		p.SQL.Scripts = append(p.SQL.Scripts, Source{File: scripts[i], Text: scripts[i+1], Weight: 1})
	}
	p.Phases[0].Name, p.Phases[0].Ops, p.Phases[0].Mix = "sql", 200, p.SQL.Mix()
	return &p
}

// classSink records every sample's op and class, per worker.
type classSink struct {
	mu      sync.Mutex
	samples map[int][]Sample
}

func (c *classSink) Sink(worker, _ int) Sink { return &classWorker{c: c, worker: worker} }

type classWorker struct {
	c      *classSink
	worker int
	got    []Sample
}

func (s *classWorker) Record(smp Sample) error { s.got = append(s.got, smp); return nil }

func (s *classWorker) Done(WorkerStats) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.samples[s.worker] = s.got
	return nil
}

func TestSQLValidate(t *testing.T) {
	t.Parallel()
	const ok = "SELECT 1;"
	for _, tt := range []struct {
		name  string
		edit  func(p *Plan)
		error string
	}{
		{"valid", func(*Plan) {}, ""},
		{"no scripts", func(p *Plan) { p.SQL.Scripts = nil }, "at least one script"},
		{"weight 0", func(p *Plan) { p.SQL.Scripts[0].Weight = 0 }, "weight 0 is out of range"},
		{"same names", func(p *Plan) { p.SQL.Scripts[1].File = "dir/a.sql" }, "have the same name, a"},
		{"name of a figure", func(p *Plan) { p.SQL.Scripts[0].File = "total.sql" }, `"total" names a figure`},
		{"name with a space", func(p *Plan) { p.SQL.Scripts[0].File = "my script.sql" }, "cannot name an op kind"},
		{"parse error", func(p *Plan) { p.SQL.Scripts[1].Text = "SELECT :nope;" }, "b.sql:1: unknown variable :nope"},
		{"schema parse error", func(p *Plan) { p.SQL.Schema.Text = `\set x 1 +` }, "schema.sql:1:"},
		{"scale 0", func(p *Plan) { p.SQL.Scale = 0 }, "scale 0 is out of range"},
		{"unknown check", func(p *Plan) { p.SQL.Check = "acid" }, `unknown check "acid"`},
		{"check with skipped ops", func(p *Plan) {
			p.SQL.Check, p.Rate, p.LatencyLimit, p.SkipLate = CheckTPCB, 100, Duration(1e6), true
		}, "cannot run with ops skipped"},
		{"preload", func(p *Plan) { p.Preload = 10 }, "preloads nothing"},
		{"verify", func(p *Plan) { p.Verify = true }, "not --verify"},
		{"batch", func(p *Plan) { p.Phases[0].Batch = 10 }, "one script per transaction"},
		{"a kv op among scripts", func(p *Plan) { p.Phases[0].Mix = Mix{{ScriptOp(0), 1}, {OpRead, 1}} }, "not both"},
		{"a script the plan lacks", func(p *Plan) { p.Phases[0].Mix = Mix{{ScriptOp(0), 1}, {ScriptOp(2), 1}} }, "not one of the plan's 2 scripts"},
		{"scripts without SQL", func(p *Plan) { p.SQL = nil }, "the plan has no scripts"},
		{"too many scripts", func(p *Plan) {
			for i := range MaxScripts {
				p.SQL.Scripts = append(p.SQL.Scripts, Source{File: string(rune('c'+i)) + ".sql", Text: ok, Weight: 1})
			}
		}, "more than the 16 a run can have"},
		{"too many statements", func(p *Plan) { p.SQL.Scripts[0].Text = strings.Repeat(ok, MaxStatements+1) }, "more than the 80 a run can have"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := sqlPlan(t, 1, "a.sql", ok, "b.sql", ok)
			tt.edit(p)
			err := p.Validate()
			if (tt.error == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.error) {
				t.Fatalf("Validate() = %v, want %q", err, tt.error)
			}
		})
	}
}

// Results name scripts after their files and statements SCRIPT#LINE;
// scripts are data ops, statements markers.
func TestOpNames(t *testing.T) {
	t.Parallel()
	p := sqlPlan(t, 1, "dir/lookup.sql", "\\set id 1\nSELECT :id;", "write.sql", "BEGIN IMMEDIATE;\n\nUPDATE counter SET v = v + 1;\nCOMMIT;")
	names := p.OpNames()
	for op, want := range map[Op]string{ScriptOp(0): "lookup", ScriptOp(1): "write", StatementOp(0): "lookup#2",
		StatementOp(1): "write#1", StatementOp(2): "write#3", StatementOp(3): "write#4", OpRead: "read"} {
		if names[op] != want {
			t.Errorf("name of %v = %q, want %q", op, names[op], want)
		}
	}
	for kind, data := range map[string]bool{"lookup": true, "write": true, "read": true, "write#3": false, "commit": false, "nosuch": false} {
		if p.IsDataKind(kind) != data {
			t.Errorf("IsDataKind(%q) = %v, want %v", kind, !data, data)
		}
		if marker := kind == "write#3" || kind == "commit"; IsMarkerKind(kind) != marker {
			t.Errorf("IsMarkerKind(%q) = %v, want %v", kind, !marker, marker)
		}
	}
	if op, err := ParseOp(ScriptOp(3).String()); err != nil || op != ScriptOp(3) {
		t.Errorf("ParseOp(%q) = %v, %v", ScriptOp(3), op, err)
	}
}

func TestBuiltinSQL(t *testing.T) {
	t.Parallel()
	for _, name := range BuiltinNames() {
		s, err := BuiltinSQL(name, 3)
		if err != nil {
			t.Fatal(err)
		}
		p := sqlPlan(t, 1)
		p.SQL, p.Phases[0].Mix = s, s.Mix()
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if names := p.OpNames(); names[ScriptOp(0)] != name || (s.Check == CheckTPCB) != (name == BuiltinTPCBLike) {
			t.Errorf("%s: named %q, check %q", name, names[ScriptOp(0)], s.Check)
		}
	}
	if _, err := BuiltinSQL("tpcc", 1); err == nil {
		t.Error("an unknown built-in was accepted")
	}
}

// Every worker runs the scripts its deck deals, each one sample; the
// database holds exactly the writes the samples acknowledged; the values
// bound come from the worker's own seeded state.
func TestRunScripts(t *testing.T) {
	t.Parallel()
	p := sqlPlan(t, 4,
		"read.sql", "SELECT v FROM counter WHERE id = 1;",
		"bump.sql", "\\set x random(1, 1000000)\nBEGIN IMMEDIATE;\nUPDATE counter SET v = v + 1;\nINSERT INTO log VALUES (:client_id, :x);\nCOMMIT;")
	p.SQL.Scripts[0].Weight = 3
	p.Phases[0].Mix = p.SQL.Mix()
	c := &classSink{samples: map[int][]Sample{}}
	if err := Run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	var bumps int64
	for w := range 4 {
		want := deal(p, 0, w, 200)
		got := c.samples[w]
		if len(got) != len(want) {
			t.Fatalf("worker %d: %d samples, want %d", w, len(got), len(want))
		}
		for i, s := range got {
			if s.Op != want[i].op || s.Class != store.OK {
				t.Fatalf("worker %d sample %d: %v %v, dealt %v", w, i, s.Op, s.Class, want[i].op)
			}
			if s.Op == ScriptOp(1) {
				bumps++
			}
		}
	}
	if bumps == 0 || bumps == 800 {
		t.Fatalf("%d bumps of 800 scripts: the weights were not dealt", bumps)
	}
	rows := countRows(t, p, "SELECT 1 FROM counter WHERE v = :n", int64(bumps))
	logged := countRows(t, p, "SELECT 1 FROM log", nil)
	if rows != 1 || logged != bumps {
		t.Fatalf("counter = bumps: %d rows; log rows %d; want 1 and %d", rows, logged, bumps)
	}
}

// countRows opens p's database again and counts the rows of query (with
// :n bound to n, unless n is nil).
func countRows(t *testing.T, p *Plan, query string, n any) int64 {
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
	var params []string
	var args []any
	if n != nil {
		params, args = []string{"n"}, []any{n}
	}
	stmt, err := c.(store.Scripter).Prepare(query, params)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := stmt.Run(args...)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A \set that cannot be evaluated fails its script with class Script,
// before any SQL runs; a script that leaves its transaction open fails
// with OpenTx and is rolled back; per-statement samples come before their
// script's.
func TestScriptFailures(t *testing.T) {
	t.Parallel()
	p := sqlPlan(t, 1,
		"div.sql", "\\set z 0\n\\set a 1 / :z\nUPDATE counter SET v = v + 1;",
		"open.sql", "BEGIN IMMEDIATE;\nUPDATE counter SET v = v + 100;")
	p.OnError = OnErrorContinue
	p.SQL.PerStatement = true
	p.Phases[0].Ops = 20
	c := &classSink{samples: map[int][]Sample{}}
	if err := Run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	classes := map[Op]map[store.Class]int{}
	for _, s := range c.samples[0] {
		if classes[s.Op] == nil {
			classes[s.Op] = map[store.Class]int{}
		}
		classes[s.Op][s.Class]++
	}
	div, open := classes[ScriptOp(0)], classes[ScriptOp(1)]
	if div[store.Script] == 0 || len(div) != 1 || open[store.OpenTx] == 0 || len(open) != 1 {
		t.Fatalf("div: %v, open: %v; want every div failed with class script, every open with open_tx", div, open)
	}
	if n := len(classes[StatementOp(0)]); n != 0 {
		t.Errorf("div's UPDATE ran %d times after its \\set failed", n)
	}
	if got := classes[StatementOp(1)][store.OK] + classes[StatementOp(2)][store.OK]; got != 2*open[store.OpenTx] {
		t.Errorf("open's two statements ran %d times for %d scripts", got, open[store.OpenTx])
	}
	if rows := countRows(t, p, "SELECT 1 FROM counter WHERE v = 0", nil); rows != 1 {
		t.Fatalf("the counter changed: the open transactions were not rolled back")
	}
}

// The TPC-B check holds after the built-in ran, and finds the broken
// invariants when a script moves money without its counterpart.
func TestCheckTPCB(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name, script  string
		acked, broken int64
	}{
		{"tpcb-like", "", 100, 0},
		{"half", "\\set aid random(1, 100000)\nUPDATE pgbench_accounts SET abalance = abalance + 7 WHERE aid = :aid;", 0, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := BuiltinSQL(BuiltinTPCBLike, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tt.script != "" {
				s.Scripts[0] = Source{File: tt.name + ".sql", Text: tt.script, Weight: 1}
			}
			p := sqlPlan(t, 2)
			p.SQL, p.Phases[0].Mix, p.Phases[0].Ops = s, s.Mix(), 50
			if err := Run(ctx, p, sqlite.Modernc(), &classSink{samples: map[int][]Sample{}}); err != nil {
				t.Fatal(err)
			}
			st, err := sqlite.Modernc().Open(ctx, p.Store)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rep, err := CheckSQL(ctx, st, p, tt.acked)
			if rep == nil || rep.Invariants != 4 || rep.Violations != tt.broken || rep.Integrity != "ok" {
				t.Fatalf("report %+v", rep)
			}
			if (tt.broken > 0) != errors.Is(err, ErrVerify) {
				t.Fatalf("CheckSQL error %v with %d violations", err, rep.Violations)
			}
			// One transaction acknowledged more than the history holds is
			// caught too.
			if rep, _ := CheckSQL(ctx, st, p, tt.acked+1); rep.Violations != tt.broken+1 {
				t.Errorf("%d acknowledged against %d in the history: %d violations", tt.acked+1, tt.acked, rep.Violations)
			}
		})
	}
}

// The built-in schema drops and creates the tables BuiltinTables names,
// and no other, each CREATE TABLE marked as gobench's own: the store
// refuses a database with another program's table of one of the names
// (store.Config.Replaces) and replaces only marked ones.
func TestBuiltinSchemaMarksItsTables(t *testing.T) {
	w, err := BuiltinSQL(BuiltinTPCBLike, 1)
	if err != nil {
		t.Fatal(err)
	}
	var dropped, created []string
	for _, line := range strings.Split(w.Schema.Text, "\n") {
		if name, ok := strings.CutPrefix(line, "DROP TABLE IF EXISTS "); ok {
			dropped = append(dropped, strings.TrimSuffix(name, ";"))
		}
		if rest, ok := strings.CutPrefix(line, "CREATE TABLE "); ok {
			name, mark, _ := strings.Cut(rest, " ")
			if !strings.HasPrefix(mark, store.OwnMark+" (") {
				t.Errorf("CREATE TABLE %s carries no mark: %s", name, line)
			}
			created = append(created, name)
		}
	}
	want := BuiltinTables()
	slices.Sort(want)
	slices.Sort(dropped)
	slices.Sort(created)
	if !slices.Equal(dropped, want) || !slices.Equal(created, want) {
		t.Errorf("the schema drops %v and creates %v; BuiltinTables says %v", dropped, created, want)
	}
}
