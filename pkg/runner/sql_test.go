package runner

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

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
	c := &classSink{samples: map[int][]workload.Sample{}}
	if err := Run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	var bumps int64
	for w := range 4 {
		want := dealOps(p, 0, w, 200)
		got := c.samples[w]
		if len(got) != len(want) {
			t.Fatalf("worker %d: %d samples, want %d", w, len(got), len(want))
		}
		for i, s := range got {
			if s.Op != want[i].op || s.Class != store.OK {
				t.Fatalf("worker %d sample %d: %v %v, dealt %v", w, i, s.Op, s.Class, want[i].op)
			}
			if s.Op == workload.ScriptOp(1) {
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
func countRows(t *testing.T, p *workload.Plan, query string, n any) int64 {
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
	p.OnError = workload.OnErrorContinue
	p.SQL.PerStatement = true
	p.Phases[0].Ops = 20
	c := &classSink{samples: map[int][]workload.Sample{}}
	if err := Run(context.Background(), p, sqlite.Modernc(), c); err != nil {
		t.Fatal(err)
	}
	classes := map[workload.Op]map[store.Class]int{}
	for _, s := range c.samples[0] {
		if classes[s.Op] == nil {
			classes[s.Op] = map[store.Class]int{}
		}
		classes[s.Op][s.Class]++
	}
	div, open := classes[workload.ScriptOp(0)], classes[workload.ScriptOp(1)]
	if div[store.Script] == 0 || len(div) != 1 || open[store.OpenTx] == 0 || len(open) != 1 {
		t.Fatalf("div: %v, open: %v; want every div failed with class script, every open with open_tx", div, open)
	}
	if n := len(classes[workload.StatementOp(0)]); n != 0 {
		t.Errorf("div's UPDATE ran %d times after its \\set failed", n)
	}
	if got := classes[workload.StatementOp(1)][store.OK] + classes[workload.StatementOp(2)][store.OK]; got != 2*open[store.OpenTx] {
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
			s, err := workload.BuiltinSQL(workload.BuiltinTPCBLike, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tt.script != "" {
				s.Scripts[0] = workload.SQLFile{File: tt.name + ".sql", Text: tt.script, Weight: 1}
			}
			p := sqlPlan(t, 2)
			p.SQL, p.Phases[0].Mix, p.Phases[0].Ops = s, s.Mix(), 50
			if err := Run(ctx, p, sqlite.Modernc(), &classSink{samples: map[int][]workload.Sample{}}); err != nil {
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
			if (tt.broken > 0) != errors.Is(err, workload.ErrVerify) {
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
