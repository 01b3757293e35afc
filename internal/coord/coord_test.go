package coord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/internal/wire"
	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/recfs"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// The test binary doubles as the worker process (the os/exec helper
// process pattern): with GOBENCH_TEST_WORKER set, TestMain serves the
// worker protocol on stdin and fd 3 instead of running tests.
func TestMain(m *testing.M) {
	switch os.Getenv("GOBENCH_TEST_WORKER") {
	case "":
		os.Exit(m.Run())
	case "serve":
		err := ServeWorker(context.Background(), os.Stdin, os.NewFile(3, "samples"), all.Registry(), os.Getpid())
		if err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "late":
		// START reaches this worker 300 ms late, as if the scheduler
		// had not run it: the plan and header come in 3 reads, START's
		// header in the 4th, which is held back once it has arrived.
		in := &lateReader{r: os.Stdin, delayRead: 4, delay: 300 * time.Millisecond}
		if err := ServeWorker(context.Background(), in, os.NewFile(3, "samples"), all.Registry(), os.Getpid()); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "recordfs":
		// The recording file system's helper.
		if err := recfs.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "recordfs:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "crashcheck":
		// A crash state's check in a child process of its own.
		if err := ServeCrashCheck(context.Background(), os.Stdin, os.Stdout, all.Registry()); err != nil {
			fmt.Fprintln(os.Stderr, "crashcheck:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "exit":
		fmt.Fprintln(os.Stderr, "boom: the worker gave up")
		os.Exit(3)
	case "stall":
		// Speak the protocol up to START, then go silent.
		speakUntilStart(func(*wire.Writer) {})
	case "panic", "sigkill", "slowread", "stuck":
		reg := all.Registry()
		reg.Register(faulty(os.Getenv("GOBENCH_TEST_WORKER")))
		if err := ServeWorker(context.Background(), os.Stdin, os.NewFile(3, "samples"), reg, os.Getpid()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "dying":
		reg := all.Registry()
		reg.Register(dying(true))
		if err := ServeWorker(context.Background(), os.Stdin, os.NewFile(3, "samples"), reg, os.Getpid()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "hang":
		time.Sleep(time.Hour)
	case "owncrash":
		// A --crash run's coordinator, as far as its directory goes:
		// marks the directory its own, says so, and lives until killed.
		if _, err := ownCrashDir(os.Getenv("GOBENCH_TEST_DIR")); err != nil {
			fmt.Fprintln(os.Stderr, "owncrash:", err)
			os.Exit(1)
		}
		fmt.Println("owned")
		time.Sleep(time.Hour)
	case "extraready":
		// Ready for phase 0, then, once started, for a phase the plan
		// does not have.
		speakUntilStart(func(w *wire.Writer) {
			_ = w.Ready(wire.Ready{Phase: 1, PID: os.Getpid(), Clock: runner.Now()})
		})
	case "closestdin":
		// Take none of the plan: the coordinator's write fails.
		os.Stdin.Close()
		time.Sleep(time.Hour)
	default:
		if child, ok := helperChildren[os.Getenv("GOBENCH_TEST_WORKER")]; ok {
			if err := child(); err != nil {
				fmt.Fprintln(os.Stderr, "helper:", err)
				os.Exit(1)
			}
			os.Exit(0)
		}
	}
}

// helperChildren are the helper modes that files built only in some
// configurations add (a cgo build's bare engine, bench_capi_test.go).
var helperChildren = map[string]func() error{}

// speakUntilStart is a worker process that reads its plan, reports ready
// for phase 0, waits for START, then does then and sleeps.
func speakUntilStart(then func(*wire.Writer)) {
	r := wire.NewReader(os.Stdin, "coordinator")
	w := wire.NewWriter(os.NewFile(3, "samples"))
	if r.Scan() && r.Frame().Type == wire.TypePlan {
		_ = w.Ready(wire.Ready{Phase: 0, PID: os.Getpid(), Clock: runner.Now()})
		r.Scan() // START
		then(w)
	}
	time.Sleep(time.Hour)
}

func helper(mode string) func() (*exec.Cmd, error) {
	return func() (*exec.Cmd, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "GOBENCH_TEST_WORKER="+mode)
		return cmd, nil
	}
}

func nullPlan(procs, goroutines int, ops int64) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver = "null"
	p.Procs, p.Goroutines = procs, goroutines
	p.Phases[0].Ops = ops
	return &p
}

func run(t *testing.T, p *workload.Plan, mode string) (*result.Result, error) {
	t.Helper()
	return Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper(mode), ReadyTimeout: 30 * time.Second})
}

// lotteryCounts deals every worker's lottery and counts the ops.
func lotteryCounts(p *workload.Plan) map[string]int64 {
	counts := map[string]int64{}
	for w := range p.Workers() {
		l := deal.NewLottery(p, 0, w)
		for range p.Phases[0].Ops {
			op, _ := l.Next()
			counts[op.String()]++
		}
	}
	return counts
}

// Every op of every worker process arrives, and the split per op kind is
// exactly what the lottery dealt.
func TestProcessModeCounts(t *testing.T) {
	t.Parallel()
	p := nullPlan(3, 2, 1000)
	res, err := run(t, p, "serve")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete {
		t.Fatalf("incomplete: %v", res.Problems)
	}
	ph := res.Phases[0]
	if ph.Total.Count != 6000 {
		t.Fatalf("total count = %d, want 6000", ph.Total.Count)
	}
	for kind, want := range lotteryCounts(p) {
		if got, _ := ph.Op(kind); got.Count != want {
			t.Errorf("%s count = %d, lottery dealt %d", kind, got.Count, want)
		}
	}
	if len(ph.Workers) != 6 {
		t.Fatalf("%d workers, want 6", len(ph.Workers))
	}
	pids := map[int]bool{}
	for _, w := range ph.Workers {
		if w.Ops != 1000 || !w.Finished {
			t.Errorf("worker %d: %+v", w.ID, w)
		}
		pids[w.PID] = true
	}
	// Two goroutines share each of three processes, none of them ours.
	if len(pids) != 3 || pids[os.Getpid()] || pids[0] {
		t.Errorf("worker pids %v, want 3 distinct child pids", pids)
	}
	for pid := range pids {
		assertGone(t, []int{pid})
	}
}

// Goroutine mode and process mode run the same ops.
func TestModesAgree(t *testing.T) {
	t.Parallel()
	counts := map[string]map[string]int64{}
	for _, mode := range []string{workload.ModeProcess, workload.ModeGoroutine} {
		p := nullPlan(2, 3, 700)
		p.Mode = mode
		res, err := run(t, p, "serve")
		if err != nil {
			t.Fatal(err)
		}
		counts[mode] = map[string]int64{}
		for _, o := range res.Phases[0].Ops {
			counts[mode][o.Kind] = o.Count
		}
	}
	if fmt.Sprint(counts[workload.ModeProcess]) != fmt.Sprint(counts[workload.ModeGoroutine]) {
		t.Fatalf("process mode %v, goroutine mode %v", counts[workload.ModeProcess], counts[workload.ModeGoroutine])
	}
}

// Real SQLite through real processes, in rollback and WAL mode.
func TestProcessModeSQLite(t *testing.T) {
	t.Parallel()
	for _, journal := range []string{"rollback", "wal"} {
		t.Run(journal, func(t *testing.T) {
			p := nullPlan(3, 1, 300)
			p.Driver = "modernc"
			o := sqlite.DefaultOptions()
			o.Journal = journal
			o.Sync = "normal"
			p.Store = store.Config{Path: filepath.Join(t.TempDir(), "mix.db"), Options: o.Encode()}
			p.Keys.Count, p.Preload = 500, 500
			res, err := run(t, p, "serve")
			if err != nil {
				t.Fatal(err)
			}
			ph := res.Phases[0]
			if ph.Total.Count != 900 || ph.Total.NotFound != 0 {
				t.Fatalf("total = %+v", ph.Total)
			}
			if got := res.Environment.StoreFact("journal_mode"); got != map[string]string{"rollback": "delete", "wal": "wal"}[journal] {
				t.Errorf("journal_mode fact = %q", got)
			}
		})
	}
}

// pidsIn returns the worker pids an error message names.
func pidsIn(s string) []int {
	var pids []int
	for _, m := range regexp.MustCompile(`pid (\d+)`).FindAllStringSubmatch(s, -1) {
		n, _ := strconv.Atoi(m[1])
		pids = append(pids, n)
	}
	return pids
}

func assertGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("worker pid %d still exists (kill 0: %v)", pid, err)
		}
	}
}

// A worker that exits before it is ready fails the run with its exit
// status and its last output.
func TestWorkerExitsEarly(t *testing.T) {
	t.Parallel()
	_, err := run(t, nullPlan(2, 1, 100), "exit")
	if !errors.Is(err, ErrWorker) {
		t.Fatalf("err = %v, want ErrWorker", err)
	}
	for _, want := range []string{"worker process", "exit status 3", "boom: the worker gave up"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	assertGone(t, pidsIn(err.Error()))
}

// A worker that never reports ready is timed out and killed.
func TestReadyTimeout(t *testing.T) {
	t.Parallel()
	p := nullPlan(2, 1, 100)
	_, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("hang"), ReadyTimeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "was not ready for phase 0 within 300ms") {
		t.Fatalf("err = %v, want a ready time-out", err)
	}
	assertGone(t, pidsIn(err.Error()))
}

// Cancelling a run stops the workers after their current op and returns
// what they measured, marked incomplete. The cancel comes once the first
// second of the timeline is finished: every worker has run ops by then.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	p := nullPlan(2, 1, 0)
	p.Phases[0].Duration = workload.Duration(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	res, err := Run(ctx, Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), Observe: func(result.Interval) { once.Do(cancel) }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res == nil || res.Complete || res.Problems[0] != "interrupted" {
		t.Fatalf("result = %+v", res)
	}
	ph := res.Phases[0]
	if ph.Total.Count == 0 {
		t.Fatal("no samples kept from the interrupted run")
	}
	for _, w := range ph.Workers {
		if !w.Finished {
			t.Errorf("worker %d did not report its end after the stop", w.ID)
		}
	}
}

// lateReader holds back the data of its delayRead-th Read for delay after
// it arrives.
type lateReader struct {
	r         io.Reader
	reads     int
	delayRead int
	delay     time.Duration
}

func (l *lateReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if l.reads++; l.reads == l.delayRead {
		time.Sleep(l.delay)
	}
	return n, err
}

// Every worker process measures from the coordinator's START instant, so
// a worker that starts late shows it, and the wall time counts it.
func TestSharedStartClock(t *testing.T) {
	t.Parallel()
	p := nullPlan(2, 1, 100)
	res, err := run(t, p, "late")
	if err != nil {
		t.Fatal(err)
	}
	ph := res.Phases[0]
	for _, w := range ph.Workers {
		if w.FirstOpMicros < 300_000 {
			t.Errorf("worker %d began %v µs after START; it was held back 300 ms", w.ID, w.FirstOpMicros)
		}
	}
	if ph.WallSeconds < 0.3 || ph.LastFirstOpMicros < 300_000 {
		t.Errorf("wall %v s, last first op %v µs: the late start is not counted", ph.WallSeconds, ph.LastFirstOpMicros)
	}
}

// faultAt is the read at which a faulty engine fails: past two frames of
// samples, so that some arrive before it.
const faultAt = 2*wire.MaxBatch + 500

// faulty is the null engine misbehaving on its reads as mode says: "panic"
// or "sigkill" at the faultAt-th, "hangread" blocks the faultAt-th until
// hangRelease is closed ("hangone": the first connection to get there;
// the others take slowAfterHang over it), "slowread" stalls the stallAt-th for stall, "stuck" never
// ends the first (once it marked it in $GOBENCH_TEST_MARKS).
func faulty(mode string) store.Driver {
	release := hangRelease
	return storetest.Wrap("faulty", nullstore.Driver{}, func(c store.Conn) store.Conn { return &faultyConn{Conn: c, mode: mode, release: release} })
}

type faultyConn struct {
	store.Conn
	mode    string
	reads   int
	release chan struct{}
}

func (c *faultyConn) Get(key uint64, dst []byte) ([]byte, error) {
	c.reads++
	if c.mode == "stuck" {
		// Mark the op begun, then never end it.
		_ = os.WriteFile(filepath.Join(os.Getenv("GOBENCH_TEST_MARKS"), strconv.Itoa(os.Getpid())), nil, 0o644)
		select {}
	}
	if c.mode == "slowread" {
		if c.reads == stallAt {
			time.Sleep(stall)
		}
		return c.Conn.Get(key, dst)
	}
	if c.reads == faultAt {
		if c.mode == "hangread" || c.mode == "hangone" && hangFirst.Add(1) == 1 {
			<-c.release
			return c.Conn.Get(key, dst)
		}
		if c.mode == "hangone" {
			time.Sleep(slowAfterHang)
			return c.Conn.Get(key, dst)
		}
		if c.mode == "panic" {
			panic(fmt.Sprintf("faulty engine: read %d exploded", faultAt))
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Second)
	}
	return c.Conn.Get(key, dst)
}

// A worker process that goes silent while it runs is killed after the
// stall time-out, named, and leaves no process behind.
func TestStallTimeout(t *testing.T) {
	t.Parallel()
	p := nullPlan(2, 1, 1000)
	_, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("stall"), StallTimeout: 500 * time.Millisecond, StopGrace: time.Second})
	if !errors.Is(err, ErrWorker) || !strings.Contains(err.Error(), "sent nothing for longer than the stall time-out") {
		t.Fatalf("err = %v, want a stall", err)
	}
	assertGone(t, pidsIn(err.Error()))
}

// A worker that reports ready for a phase the plan does not have is a
// protocol error naming it, not a crash of the coordinator (it was an
// index out of range).
func TestReadyForUnknownPhase(t *testing.T) {
	t.Parallel()
	p := nullPlan(1, 1, 100)
	_, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("extraready"), StopGrace: time.Second})
	if err == nil || !strings.Contains(err.Error(), "ready for phase 1, which the plan does not have") {
		t.Fatalf("err = %v", err)
	}
	assertGone(t, pidsIn(err.Error()))
}

// When the plan cannot be sent to a worker process (it closed its stdin
// before reading a plan too large for the pipe's buffer), the process is
// killed and reaped, and the run fails naming it.
func TestPlanNotSent(t *testing.T) {
	t.Parallel()
	p := nullPlan(1, 1, 100)
	p.Phases[0].Name = strings.Repeat("x", 256<<10) // a plan more than a pipe holds
	_, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("closestdin"), StopGrace: time.Second})
	if !errors.Is(err, ErrWorker) || !strings.Contains(err.Error(), "sending the plan to worker process 0") {
		t.Fatalf("err = %v", err)
	}
	pids := pidsIn(err.Error())
	if len(pids) != 1 {
		t.Fatalf("no pid named: %v", err)
	}
	assertGone(t, pids)
}

// A driver whose data lives in one process's memory is refused in process
// mode by the coordinator itself, before anything is set up: every worker
// process would read its own empty map.
func TestInProcessEngineRefused(t *testing.T) {
	t.Parallel()
	p := nullPlan(2, 1, 100)
	p.Driver = "map"
	_, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve")})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "driver map allows one process at a time") {
		t.Fatalf("err = %v", err)
	}
}

// The stall watchdog looks at a positive interval whatever the time-out
// (a time-out of 1 ns made NewTicker panic).
func TestWatchInterval(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ limit, want time.Duration }{
		{time.Nanosecond, time.Millisecond}, {50 * time.Millisecond, 5 * time.Millisecond}, {time.Minute, time.Second},
	} {
		if got := watchInterval(tt.limit); got != tt.want {
			t.Errorf("watchInterval(%v) = %v, want %v", tt.limit, got, tt.want)
		}
	}
	p := nullPlan(1, 1, 100)
	p.Mode = workload.ModeGoroutine
	if _, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), StallTimeout: time.Nanosecond}); err != nil && !errors.Is(err, ErrWorker) {
		t.Fatalf("a 1 ns stall time-out: %v", err)
	}
}

// hangRelease ends the hangs of the "hangread" and "hangone" engines.
var hangRelease = make(chan struct{})

// hangFirst counts the connections of the "hangone" engine that reached
// their faultAt-th read: the first hangs until hangRelease, the others
// take slowAfterHang over that read.
var hangFirst atomic.Int32

const slowAfterHang = 700 * time.Millisecond

// runHanging runs 3 goroutine workers on the faulty engine in mode (a
// hang of theirs), with a stall time-out of 300 ms and a grace of 200 ms.
func runHanging(mode string) (*result.Result, error) {
	p := nullPlan(3, 1, 100_000)
	p.Mode = workload.ModeGoroutine
	p.Driver = "faulty"
	p.Keys.Count, p.Preload = 1000, 0
	reg := all.Registry()
	reg.Register(faulty(mode))
	return Run(context.Background(), Config{Plan: p, Registry: reg, StallTimeout: 300 * time.Millisecond, StopGrace: 200 * time.Millisecond})
}

// When the coordinator stops waiting for goroutine workers (a stalled op
// and a grace past), the result is built while the others may still be
// in their last op; what they record after it is dropped, not written
// into what the result is read from. (CI's -race caught a worker ending
// its phase after the grace while the result was built from its
// recorder; without the fix this test shows that race every time.)
func TestGoroutinesRecordingAfterTheGrace(t *testing.T) {
	hangRelease = make(chan struct{})
	defer close(hangRelease)
	hangFirst.Store(0)
	res, err := runHanging("hangone")
	if !errors.Is(err, ErrWorker) || res == nil || res.Complete {
		t.Fatalf("err = %v, result %+v: want a stall and a partial result", err, res)
	}
	if n := hangFirst.Load(); n < 2 {
		t.Fatalf("%d workers reached the read that hangs or slows, want the one that hangs and a slow one", n)
	}
	time.Sleep(2 * slowAfterHang) // the slow workers' reads return and try to record
}

// A goroutine worker whose op never returns, which nothing can kill,
// fails the run after the stall time-out, named; the other workers stop
// after their current op and what arrived is kept, marked incomplete.
// (Before, such a run hung for good.)
func TestGoroutineStallTimeout(t *testing.T) {
	hangRelease = make(chan struct{})
	defer close(hangRelease)
	res, err := runHanging("hangread")
	if !errors.Is(err, ErrWorker) || !regexp.MustCompile(`worker \d \(a goroutine of this process\) completed nothing for longer than the stall time-out`).MatchString(err.Error()) {
		t.Fatalf("err = %v, want a stalled goroutine named", err)
	}
	if res == nil || res.Complete || res.Phases[0].Total.Count < faultAt-1 {
		t.Fatalf("want a partial result marked incomplete with the ops before the hang, got %+v", res)
	}
}

// A worker that panics or is killed mid-run fails the run with its exit
// status or signal and its last output; the other workers are stopped,
// and the samples that arrived are kept, marked incomplete.
func TestWorkerDiesMidRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ mode, want string }{
		{"panic", fmt.Sprintf("faulty engine: read %d exploded", faultAt)},
		{"sigkill", "signal: killed"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			p := nullPlan(3, 1, 100_000)
			p.Driver = "faulty"
			p.Keys.Count, p.Preload = 1000, 0
			reg := all.Registry()
			reg.Register(faulty(tt.mode))
			res, err := Run(context.Background(), Config{Plan: p, Registry: reg, Command: helper(tt.mode), StopGrace: 2 * time.Second})
			if !errors.Is(err, ErrWorker) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if res == nil || res.Complete || res.Phases[0].Total.Count == 0 {
				t.Fatalf("want a partial result marked incomplete, got %+v", res)
			}
			var pids []int
			for _, w := range res.Phases[0].Workers {
				pids = append(pids, w.PID)
			}
			assertGone(t, pids)
		})
	}
}

// Closing Abort (a second interrupt) kills the workers at once: workers
// stuck in an op (the "stuck" engine's first read never returns), which
// the interrupt alone cannot stop before StopGrace (an hour), are killed,
// and none is left. Each worker marks its start in an op by a file.
func TestAbort(t *testing.T) {
	t.Parallel()
	p := nullPlan(2, 1, 0)
	p.Driver = "faulty"
	p.Keys.Count, p.Preload = 1000, 0
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 100}}
	p.Phases[0].Duration = workload.Duration(time.Hour)
	reg := all.Registry()
	reg.Register(faulty("stuck"))
	marks := t.TempDir()
	command := func() (*exec.Cmd, error) {
		cmd, err := helper("stuck")()
		cmd.Env = append(cmd.Env, "GOBENCH_TEST_MARKS="+marks)
		return cmd, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	abort := make(chan struct{})
	go func() {
		// Both workers in their op: interrupt, then abort.
		for limit := time.Now().Add(time.Minute); time.Now().Before(limit); time.Sleep(10 * time.Millisecond) {
			if entries, _ := os.ReadDir(marks); len(entries) == 2 {
				break
			}
		}
		cancel()
		close(abort)
	}()
	res, err := Run(ctx, Config{Plan: p, Registry: reg, Command: command, StopGrace: time.Hour, Abort: abort})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(marks); len(entries) != 2 {
		t.Fatalf("%d workers marked their op: the run did not get stuck as it should", len(entries))
	}
	var pids []int
	for _, w := range res.Phases[0].Workers {
		if w.Finished {
			t.Errorf("worker %d finished, stuck in its op: it was not killed", w.ID)
		}
		pids = append(pids, w.PID)
	}
	assertGone(t, pids)
}

// A second run on a database another run is using is refused before it
// touches anything (their writes would mix, and each would verify the
// other's as lost); the first run goes on and verifies clean. Once it is
// over, the database is free again.
func TestDatabaseInUse(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shared.db")
	plan := func() *workload.Plan {
		p := workload.DefaultPlan()
		p.Driver, p.Mode, p.Procs = "modernc", workload.ModeGoroutine, 2
		p.Store = store.Config{Path: path, Options: sqlite.DefaultOptions().Encode()}
		p.Keys.Count, p.Preload = 1000, 1000
		p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(1500*time.Millisecond)
		p.Verify = true
		return &p
	}
	ctx := context.Background()
	// The first run holds still in its first progress hook (its worker
	// waits there) until the second run was refused: it is under way,
	// whatever the machine's speed, while the second one tries.
	running, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	type outcome struct {
		res *result.Result
		err error
	}
	first := make(chan outcome, 1)
	go func() {
		res, err := Run(ctx, Config{Plan: plan(), Registry: all.Registry(), Observe: func(result.Interval) { once.Do(func() { close(running); <-release }) }})
		first <- outcome{res, err}
	}()
	select {
	case <-running:
	case o := <-first:
		t.Fatalf("the first run ended: %v", o.err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Config{Plan: plan(), Registry: all.Registry()})
	close(release)
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), path) {
		t.Fatalf("a second run on %s: %v", path, err)
	}
	o := <-first
	if o.err != nil {
		t.Fatalf("the first run: %v", o.err)
	}
	if v := o.res.Verify; v == nil || v.Violations != 0 || v.AckedWrites == 0 {
		t.Fatalf("the first run's verification: %+v", v)
	}
	if len(before) == 0 {
		t.Fatal("the database was empty while the first run used it")
	}
	p := plan()
	p.Phases[0].Duration, p.Phases[0].Ops = 0, 100
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry()})
	if err != nil {
		t.Fatalf("a run once the database is free: %v", err)
	}
	if res.Verify == nil || res.Verify.Violations != 0 {
		t.Fatalf("a run once the database is free: %+v", res.Verify)
	}
}

// A database path that is a dangling symlink is refused: the target it
// names is not created. A link to an existing gobench database is used.
func TestDanglingSymlinkRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(filepath.Join(dir, "elsewhere.db"), link); err != nil {
		t.Fatal(err)
	}
	p := workload.DefaultPlan()
	p.Driver, p.Mode = "modernc", workload.ModeGoroutine
	p.Store = store.Config{Path: link, Options: sqlite.DefaultOptions().Encode()}
	p.Keys.Count, p.Preload, p.Phases[0].Ops = 100, 100, 10
	_, err := Run(context.Background(), Config{Plan: &p, Registry: all.Registry()})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "which does not exist") {
		t.Fatalf("a dangling link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere.db")); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
}

// A calibrated run records the machine before and after it: both probes'
// CPU loop, the fsync probe in the database's directory, and on Linux the
// load and the runnable threads; an uncalibrated run records none.
func TestCalibrate(t *testing.T) {
	p := nullPlan(1, 1, 100)
	p.Store.Path = filepath.Join(t.TempDir(), "null.db")
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), Calibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Environment.Machine
	if m == nil {
		t.Fatal("no machine state in a calibrated run")
	}
	for name, pr := range map[string]result.Probe{"before": m.Before, "after": m.After} {
		if pr.CPUMicros <= 0 || pr.CPUSeconds <= 0 || pr.FsyncOps != bench.CalibrationFsyncs || pr.FsyncMicros <= 0 {
			t.Errorf("%s: %+v", name, pr)
		}
		if runtime.GOOS == "linux" && (pr.Load1 == nil || pr.OtherRunnable == nil || *pr.OtherRunnable < 0) {
			t.Errorf("%s: no load on Linux: %+v", name, pr)
		}
	}
	if _, _, ok := res.Environment.Calibration(); !ok {
		t.Error("Calibration() has no figures")
	}
	plain, err := run(t, nullPlan(1, 1, 100), "serve")
	if err != nil || plain.Environment.Machine != nil {
		t.Errorf("an uncalibrated run: %v, machine %+v", err, plain.Environment.Machine)
	}
}

// A worker waiting for its turn in a replay's order of commits completes
// nothing while the others' commits go on (the captured parent's final
// read waits for the last one): the stall watchdog counts the order's
// progress as its life, and a worker is stalled only once neither it nor
// the order moved for the time-out.
func TestStallCountsOrderProgress(t *testing.T) {
	t.Parallel()
	const second, limit = int64(time.Second), 10 * time.Second
	for _, tt := range []struct {
		name    string
		ordered bool
		until   int64 // the order grows at each tick up to this second
		stalled bool
	}{
		{"no order", false, 0, true},
		{"the order never moves", true, 0, true},
		{"the order moved up to 15 s ago", true, 15, true},
		{"the order moved 5 s ago", true, 25, false},
		{"the order moves", true, 30, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var progress int64
			var order func() int64
			if tt.ordered {
				order = func() int64 { return progress }
			}
			wc := newWatchedCollector(nil, 2)
			wc.start([]int{0, 1}, 0) // neither completes anything from then on
			var seen progressSeen
			moved := seen.moved(order, 0)
			for tick := int64(1); tick <= 30; tick++ {
				if tick <= tt.until {
					progress++
				}
				moved = seen.moved(order, tick*second)
			}
			if _, stalled := wc.stalled(30*second, limit, moved); stalled != tt.stalled {
				t.Errorf("at 30 s, stalled = %v, want %v (the order moved at %v)", stalled, tt.stalled, time.Duration(moved))
			}
		})
	}
}
