// Package e2e runs the real gobench binary on real SQLite files with real
// worker processes, from testscript scripts in testdata/script.
package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobench/gobench/internal/cli"
	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/result"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes this test binary the gobench command too: testscript
// puts it on the scripts' PATH as "gobench", and gobench's re-executions
// of itself as workers land back in cli.Main.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gobench":    func() { os.Exit(cli.Main(os.Args[1:], cli.OSEnv())) },
		"sqlhold":    func() { os.Exit(sqlHold()) },
		"enginehold": func() { os.Exit(engineHold()) },
		"goshop":     func() { os.Exit(goshopMain()) },
	})
}

func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:       "testdata/script",
		Condition: condition,
		Setup: func(env *testscript.Env) error {
			if os.Getenv("GOBENCH_E2E_PROGRESS") != "" {
				progress.start(env)
			}
			env.Setenv("FIXTURES", fixtures) // the recorded results, read only
			env.Setenv("EXAMPLES", filepath.Join(fixtures, "..", "examples"))
			env.Setenv("YCSB_WORKLOADS", filepath.Join(fixtures, "..", "pkg", "preset", "testdata", "ycsb"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"resultcheck":   resultCheck,
			"scaleresult":   scaleResult,
			"suitecheck":    suiteCheck,
			"workflow":      workflowScript,
			"samecounts":    sameCounts,
			"samejob":       sameJob,
			"waitfile":      waitFile,
			"widthcheck":    widthCheck,
			"nodir":         noDir,
			"rssflat":       rssFlat,
			"rssafter":      rssAfter,
			"choicerss":     choiceRSS,
			"sizecheck":     sizeCheck,
			"contention":    contention,
			"holdread":      holdRead,
			"sqlexec":       sqlExec,
			"sqlvalue":      sqlValue,
			"ackcheck":      ackCheck,
			"samerows":      sameRows,
			"tpcbcheck":     tpcbCheck,
			"capcheck":      capCheck,
			"ycsbcheck":     ycsbCheck,
			"stracecheck":   straceCheck,
			"waitmount":     waitMount,
			"killrun":       killRun,
			"deadmount":     deadMount,
			"stracefscheck": straceFSCheck,
			"traceinfo":     traceInfo,
			"replaycheck":   replayCheck,
			"replaysum":     replaySum,
			"scalesteps":    scaleSteps,
			"replayfold":    replayFold,
			"replayselect":  replaySelect,
			"tracedamage":   traceDamage,
			"primcheck":     primCheck,
			"walcopy":       walCopy,
			"buildenv":      buildEnv,
			"choicecheck":   choiceCheck,
			"buildcheck":    buildCheck,
		},
	})
}

// progress prints a line on stdout as each script ends, when
// GOBENCH_E2E_PROGRESS is set (make test sets it and streams this
// package's output): the scripts take minutes, and a silent stretch that
// long reads as a hang.
var progress scriptProgress

type scriptProgress struct {
	mu          sync.Mutex
	done, total int
}

// start counts the scripts once and has env's script say when it ends.
func (p *scriptProgress) start(env *testscript.Env) {
	t, ok := env.T().(interface {
		Name() string
		Failed() bool
		Skipped() bool
	})
	if !ok {
		return
	}
	p.mu.Lock()
	if p.total == 0 {
		scripts, _ := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
		p.total = len(scripts)
	}
	p.mu.Unlock()
	began := time.Now()
	env.Defer(func() {
		outcome := "passed"
		switch {
		case t.Failed():
			outcome = "FAILED"
		case t.Skipped():
			outcome = "skipped"
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		p.done++
		fmt.Printf("e2e %d/%d: %s %s in %.0f s\n", p.done, p.total, filepath.Base(t.Name()), outcome, time.Since(began).Seconds())
	})
}

func readResult(ts *testscript.TestScript, name string) *result.Result {
	f, err := os.Open(ts.MkAbs(name))
	ts.Check(err)
	defer f.Close()
	r, err := result.Read(f)
	ts.Check(err)
	return r
}

// readSuite reads a result file, a run or a suite, as a suite.
func readSuite(ts *testscript.TestScript, name string) *result.Suite {
	f, err := os.Open(ts.MkAbs(name))
	ts.Check(err)
	defer f.Close()
	s, err := result.ReadSuite(f)
	ts.Check(err)
	return s
}

// resultcheck FILE check... asserts facts about a result file:
//
//	count=N     total ops (with --warmup auto: measured and cut together)
//	procs=N     N distinct worker process ids, none of them alive now
//	lottery     per-kind counts equal what each worker's lottery deals
//	journal=X   the journal mode read back from SQLite
//	complete    the result is complete
//	gaveup      every error is an op the retry policy gave up on (busy or
//	            locked), and every op it gave up on is an error
//	retried     the retry policy retried busy ops: the run met contention
func resultCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: resultcheck FILE check...")
	}
	r := readResult(ts, args[0])
	ph := r.Phases[0]
	for _, a := range args[1:] {
		key, val, _ := strings.Cut(a, "=")
		switch key {
		case "count":
			n, _ := strconv.ParseInt(val, 10, 64)
			got := ph.Total.Count
			if ph.Steady != nil {
				got += ph.Steady.Ops
			}
			if got != n {
				ts.Fatalf("total count %d, want %d", got, n)
			}
		case "procs":
			n, _ := strconv.Atoi(val)
			pids := map[int]bool{}
			for _, w := range ph.Workers {
				pids[w.PID] = true
			}
			if len(pids) != n || pids[0] {
				ts.Fatalf("worker pids %v, want %d distinct", pids, n)
			}
			for pid := range pids {
				if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
					ts.Fatalf("worker process %d is still alive after the run (kill 0: %v)", pid, err)
				}
			}
		case "lottery":
			want := map[string]int64{}
			names := r.Plan.OpNames()
			for w := range r.Plan.Workers() {
				l := deal.NewLottery(&r.Plan, 0, w)
				for range r.Plan.Phases[0].Ops {
					op, _ := l.Next()
					want[names[op]]++
				}
			}
			for kind, n := range want {
				if got, _ := ph.Op(kind); got.Count != n {
					ts.Fatalf("%s count %d, the lottery dealt %d", kind, got.Count, n)
				}
			}
			ts.Logf("lottery counts match: %v", want)
		case "journal":
			if got := r.Environment.StoreFact("journal_mode"); got != val {
				ts.Fatalf("journal_mode %q, want %q", got, val)
			}
		case "gaveup":
			lw, e := ph.Total.LockWaits, ph.Total.Errors
			if lw == nil || lw.GaveUp != e.Total || e.Busy+e.Locked != e.Total {
				ts.Fatalf("lock waits %+v, errors %+v: want every error a busy or locked op given up on", lw, e)
			}
			ts.Logf("%d ops given up, all counted as errors", lw.GaveUp)
		case "complete":
			if !r.Complete {
				ts.Fatalf("result incomplete: %v", r.Problems)
			}
		case "retried":
			if lw := ph.Total.LockWaits; lw == nil || lw.Retries == 0 {
				ts.Fatalf("lock waits %+v: want retries of busy ops (the run met contention)", lw)
			}
			ts.Logf("%d retries over %d ops", ph.Total.LockWaits.Retries, ph.Total.LockWaits.OpsRetried)
		default:
			ts.Fatalf("unknown check %q", a)
		}
	}
}

// samecounts A B asserts two results hold the same count per op kind.
func sameCounts(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: samecounts A B")
	}
	counts := func(name string) string {
		var parts []string
		for _, o := range readResult(ts, name).Phases[0].Ops {
			parts = append(parts, fmt.Sprintf("%s=%d", o.Kind, o.Count))
		}
		return strings.Join(parts, ",")
	}
	a, b := counts(args[0]), counts(args[1])
	if (a == b) == neg {
		ts.Fatalf("%s: %s; %s: %s", args[0], a, args[1], b)
	}
}

// samejob A B asserts that two result files (runs or suites) ran the same
// job: the same cells in the same order, as many repeats of each, every
// run's plan equal to its counterpart's but for the database path, and
// every worker of every run with the same op count.
func sameJob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: samejob A B")
	}
	a, b := readSuite(ts, args[0]), readSuite(ts, args[1])
	if len(a.Cells) != len(b.Cells) {
		ts.Fatalf("%d cells against %d", len(a.Cells), len(b.Cells))
	}
	runs := 0
	for i, ca := range a.Cells {
		cb := b.Cells[i]
		if ca.Settings.String() != cb.Settings.String() || len(ca.Runs) != len(cb.Runs) {
			ts.Fatalf("cell %d: %s × %d against %s × %d", i+1, ca.Settings, len(ca.Runs), cb.Settings, len(cb.Runs))
		}
		for k, ra := range ca.Runs {
			rb := cb.Runs[k]
			pa, pb := ra.Plan, rb.Plan
			pa.Store.Path, pb.Store.Path = "", ""
			ja, _ := json.Marshal(pa)
			jb, _ := json.Marshal(pb)
			if !bytes.Equal(ja, jb) {
				ts.Fatalf("cell %s run %d: plans differ:\n%s\n%s", ca.Settings, k+1, ja, jb)
			}
			for p := range ra.Phases {
				wa, wb := ra.Phases[p].Workers, rb.Phases[p].Workers
				if len(wa) != len(wb) {
					ts.Fatalf("cell %s run %d phase %d: %d workers against %d", ca.Settings, k+1, p, len(wa), len(wb))
				}
				for w := range wa {
					if wa[w].Ops != wb[w].Ops {
						ts.Fatalf("cell %s run %d worker %d: %d ops against %d", ca.Settings, k+1, wa[w].ID, wa[w].Ops, wb[w].Ops)
					}
				}
			}
			runs++
		}
	}
	ts.Logf("%d runs in %d cells: same plans, same per-worker op counts", runs, len(a.Cells))
}

// waitfile FILE TIMEOUT waits until FILE exists, failing after TIMEOUT.
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfile FILE TIMEOUT")
	}
	limit, err := time.ParseDuration(args[1])
	ts.Check(err)
	deadline := time.Now().Add(limit)
	for {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not appear within %v", args[0], limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// widthcheck FILE N asserts that no line of FILE is wider than N
// characters.
func widthCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: widthcheck FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	for i, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if w := utf8.RuneCountInString(line); w > n {
			ts.Fatalf("line %d is %d characters wide (more than %d): %q", i+1, w, n, line)
		}
	}
}

// nodir DIR PREFIX asserts DIR has no entry whose name starts with PREFIX.
func noDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: nodir DIR PREFIX")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), args[1]) {
			ts.Fatalf("%s was left behind in %s", e.Name(), args[0])
		}
	}
}

// rssflat SMALL LARGE asserts that the coordinator of the LARGE run (100×
// the ops) peaked at no more than 1.5× the memory of the SMALL run.
func rssFlat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: rssflat SMALL LARGE")
	}
	small, large := readResult(ts, args[0]), readResult(ts, args[1])
	s, l := small.CoordinatorMaxRSSBytes, large.CoordinatorMaxRSSBytes
	ts.Logf("coordinator peak RSS: %d ops %.1f MiB, %d ops %.1f MiB",
		small.Phases[0].Total.Count, float64(s)/(1<<20), large.Phases[0].Total.Count, float64(l)/(1<<20))
	if s <= 0 || l <= 0 {
		ts.Fatalf("no RSS recorded")
	}
	if l*2 > s*3 {
		ts.Fatalf("coordinator memory grew with the op count: %d → %d bytes", s, l)
	}
}

// rssafter FILE SMALL LARGE asserts that every run of driver SMALL that
// follows a run of driver LARGE, in the order the runs started, reports a
// worker peak RSS below that run's: each run's peak is its own, not the
// process's lifetime's (which only grows from cell to cell). It wants two
// such pairs at least.
func rssAfter(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: rssafter FILE SMALL LARGE")
	}
	s := readSuite(ts, args[0])
	var runs []*result.Result
	for _, c := range s.Cells {
		runs = append(runs, c.Runs...)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].StartedAt.Before(runs[j].StartedAt) })
	pairs := 0
	for i, r := range runs {
		ts.Logf("run %d: %s, worker peak RSS %.1f MiB", i+1, r.Plan.Driver, float64(r.WorkerMaxRSSBytes)/(1<<20))
		if r.WorkerMaxRSSBytes <= 0 {
			ts.Fatalf("run %d (%s): no worker RSS recorded", i+1, r.Plan.Driver)
		}
		if i == 0 || r.Plan.Driver != args[1] || runs[i-1].Plan.Driver != args[2] {
			continue
		}
		pairs++
		if prev := runs[i-1]; r.WorkerMaxRSSBytes >= prev.WorkerMaxRSSBytes {
			ts.Fatalf("run %d (%s) peaked at %d bytes, no less than run %d (%s) before it, %d: a lifetime peak, not the run's",
				i+1, r.Plan.Driver, r.WorkerMaxRSSBytes, i, prev.Plan.Driver, prev.WorkerMaxRSSBytes)
		}
	}
	if pairs < 2 {
		ts.Fatalf("%d runs of %s after one of %s: want 2 or more", pairs, args[1], args[2])
	}
}

// sizecheck FILE compares, for every run of a suite whose database was
// kept (--keep), the size it reports at the end with what stat says now:
// apparent bytes and allocated blocks of the database's files (and, for
// a directory, of the directories under it, itself included, as du).
func sizeCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sizecheck FILE")
	}
	s := readSuite(ts, args[0])
	checked := 0
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			last := r.Phases[len(r.Phases)-1]
			if last.Size == nil {
				ts.Fatalf("%s: no size reported", r.Plan.Driver)
			}
			var app, alloc int64
			var files []string
			if fi, err := os.Stat(r.Plan.Store.Path); err == nil && fi.IsDir() {
				ts.Check(filepath.Walk(r.Plan.Store.Path, func(p string, fi os.FileInfo, err error) error {
					if err == nil && (fi.Mode().IsRegular() || fi.IsDir()) {
						files = append(files, p)
					}
					return err
				}))
			} else {
				for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
					if _, err := os.Stat(r.Plan.Store.Path + suffix); err == nil {
						files = append(files, r.Plan.Store.Path+suffix)
					}
				}
			}
			for _, p := range files {
				var st syscall.Stat_t
				ts.Check(syscall.Stat(p, &st))
				app += st.Size
				alloc += st.Blocks * 512
			}
			if app != last.Size.ApparentBytes || alloc != last.Size.AllocatedBytes {
				ts.Fatalf("%s: reported %d apparent / %d allocated bytes, stat says %d / %d (%d files)",
					r.Plan.Driver, last.Size.ApparentBytes, last.Size.AllocatedBytes, app, alloc, len(files))
			}
			ts.Logf("%s: %d apparent / %d allocated bytes in %d files, as stat says", r.Plan.Driver, app, alloc, len(files))
			checked++
		}
	}
	if checked == 0 {
		ts.Fatalf("no run to check")
	}
}
