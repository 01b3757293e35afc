package result

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

func plan(workers int) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver = "null"
	p.Procs = workers
	return &p
}

func rec(t *testing.T, s workload.Sink, op workload.Op, class store.Class, start, lat time.Duration) {
	t.Helper()
	if err := s.Record(workload.Sample{Op: op, Class: class, Start: start, Latency: lat}); err != nil {
		t.Fatal(err)
	}
}

func TestBuilderCounts(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(2))
	w0, w1 := b.Sink(0, 0), b.Sink(1, 0)
	// Worker 0: 100 reads of 10µs..1000µs over its first second, one busy
	// upsert of 2 s.
	for i := range 100 {
		rec(t, w0, workload.OpRead, store.OK, time.Duration(i)*time.Millisecond, time.Duration(i+1)*10*time.Microsecond)
	}
	rec(t, w0, workload.OpUpsert, store.Busy, 100*time.Millisecond, 2*time.Second)
	if err := w0.Done(workload.WorkerStats{Worker: 0, Samples: 101}); err != nil {
		t.Fatal(err)
	}
	// Worker 1: 10 upserts, one not found read, one locked read.
	for i := range 10 {
		rec(t, w1, workload.OpUpsert, store.OK, time.Duration(i)*time.Millisecond, time.Millisecond)
	}
	rec(t, w1, workload.OpRead, store.NotFound, 20*time.Millisecond, time.Microsecond)
	rec(t, w1, workload.OpRead, store.Locked, 30*time.Millisecond, time.Microsecond)
	if err := w1.Done(workload.WorkerStats{Worker: 1, Samples: 12}); err != nil {
		t.Fatal(err)
	}
	r := b.Result()
	if !r.Complete || len(r.Problems) != 0 {
		t.Fatalf("complete=%v problems=%v", r.Complete, r.Problems)
	}
	ph := r.Phases[0]
	if want := 2.1; ph.WallSeconds != want {
		t.Errorf("wall = %v s, want %v (worker 0's last completion)", ph.WallSeconds, want)
	}
	read, _ := ph.Op("read")
	if read.Count != 102 || read.NotFound != 1 || read.Errors.Locked != 1 || read.Errors.Total != 1 {
		t.Errorf("read stats = %+v", read)
	}
	if read.P50Micros < 490 || read.P50Micros > 510 {
		t.Errorf("read p50 = %v µs, want about 500", read.P50Micros)
	}
	if read.MaxMicros < 999 || read.MaxMicros > 1001 {
		t.Errorf("read max = %v µs, want about 1000", read.MaxMicros)
	}
	up, _ := ph.Op("upsert")
	if up.Count != 11 || up.Errors.Busy != 1 {
		t.Errorf("upsert stats = %+v", up)
	}
	if want := float64(10) / 2.1; abs(up.OpsPerSec-want) > 1e-9 {
		t.Errorf("upsert ops/s = %v, want %v (failed ops excluded)", up.OpsPerSec, want)
	}
	if ph.Total.Count != 113 || ph.Total.Errors.Total != 2 {
		t.Errorf("total = %+v", ph.Total)
	}
	if w := ph.Workers[0]; w.Ops != 101 || w.Errors != 1 || !w.Finished || w.Seconds != 2.1 {
		t.Errorf("worker 0 = %+v", w)
	}
	if w := ph.Workers[1]; w.Ops != 12 || w.Errors != 1 {
		t.Errorf("worker 1 = %+v", w)
	}
	if ph.WorkerSpread.MinOpsPerSec > ph.WorkerSpread.MaxOpsPerSec {
		t.Errorf("spread = %+v", ph.WorkerSpread)
	}
	// The timeline: second 0 holds everything but the 2 s upsert, second
	// 1 is a stall (no completions), second 2 holds the upsert.
	if len(ph.Timeline) != 3 {
		t.Fatalf("timeline has %d seconds, want 3: %+v", len(ph.Timeline), ph.Timeline)
	}
	if n := secondCount(ph.Timeline[0]); n != 112 {
		t.Errorf("second 0 count = %d, want 112", n)
	}
	if len(ph.Timeline[1].Ops) != 0 {
		t.Errorf("second 1 should be empty (a stall): %+v", ph.Timeline[1])
	}
	if s := ph.Timeline[2]; len(s.Ops) != 1 || s.Ops[0].Kind != "upsert" || s.Ops[0].Errors != 1 {
		t.Errorf("second 2 = %+v", s)
	}
}

func secondCount(s Second) int64 {
	var n int64
	for _, o := range s.Ops {
		n += o.Count
	}
	return n
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// A worker whose count disagrees with what arrived, or that never
// finished, makes the result incomplete.
func TestBuilderProblems(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(3))
	s := b.Sink(0, 0)
	rec(t, s, workload.OpRead, store.OK, 0, time.Microsecond)
	if err := s.Done(workload.WorkerStats{Samples: 2}); err == nil {
		t.Error("Done with a missing sample returned nil")
	}
	rec(t, b.Sink(1, 0), workload.OpRead, store.OK, 0, time.Microsecond)
	r := b.Result()
	if r.Complete {
		t.Fatal("result is complete")
	}
	want := []string{"worker 0 sent 2 samples but 1 arrived", "worker 1 did not finish", "worker 2 did not finish"}
	if len(r.Problems) != len(want) {
		t.Fatalf("problems = %q", r.Problems)
	}
	for i, w := range want {
		if !strings.Contains(r.Problems[i], w) {
			t.Errorf("problem %d = %q, want %q", i, r.Problems[i], w)
		}
	}
}

func TestBuilderClamps(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(1))
	s := b.Sink(0, 0)
	rec(t, s, workload.OpRead, store.OK, 0, 2*time.Hour)
	_ = s.Done(workload.WorkerStats{Samples: 1})
	ph := b.Result().Phases[0]
	if ph.ClampedSamples != 1 {
		t.Fatalf("clamped = %d, want 1", ph.ClampedSamples)
	}
	if read, _ := ph.Op("read"); read.Count != 1 || read.MaxMicros < 3.5e9 {
		t.Fatalf("clamped sample recorded as %+v", read)
	}
}

// A worker that falls behind holds the timeline open; seconds close once
// it catches up, and none is lost or duplicated.
func TestTimelineWatermark(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(2))
	fast, slow := b.Sink(0, 0).(*Recorder), b.Sink(1, 0).(*Recorder)
	for sec := range 5 {
		rec(t, fast, workload.OpRead, store.OK, time.Duration(sec)*time.Second, time.Microsecond)
	}
	if n := len(b.phases[0].tl.final); n != 0 {
		t.Fatalf("%d seconds final while worker 1 has reported nothing", n)
	}
	rec(t, slow, workload.OpRead, store.OK, 3*time.Second, time.Microsecond)
	if n := len(b.phases[0].tl.final); n != 3 {
		t.Fatalf("%d seconds final, want 3 (seconds 0-2)", n)
	}
	_ = fast.Done(workload.WorkerStats{Samples: 5})
	_ = slow.Done(workload.WorkerStats{Samples: 1})
	tl := b.Result().Phases[0].Timeline
	want := []int64{1, 1, 1, 2, 1}
	if len(tl) != len(want) {
		t.Fatalf("timeline = %+v", tl)
	}
	for i, w := range want {
		if tl[i].Second != int64(i) || secondCount(tl[i]) != w {
			t.Errorf("second %d: %+v, want %d ops", i, tl[i], w)
		}
	}
}

// The phase's last second is partial: its Length is the wall time's
// fraction, in the result and in the interval handed to observers once
// every worker is done; the interval carries the phase's START. Seconds
// before it are whole.
func TestPartialLastSecond(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(2))
	start := time.Date(2026, 11, 23, 10, 0, 0, 123_000_000, time.UTC)
	b.SetStart(0, start)
	var ivs []Interval
	b.Observe(func(iv Interval) { ivs = append(ivs, iv) })
	a, c := b.Sink(0, 0), b.Sink(1, 0)
	rec(t, a, workload.OpRead, store.OK, 0, time.Millisecond)
	rec(t, a, workload.OpRead, store.OK, 1500*time.Millisecond, time.Millisecond)
	rec(t, c, workload.OpRead, store.OK, 2*time.Second, 250*time.Millisecond) // ends at 2.25 s: the phase's end
	_ = a.Done(workload.WorkerStats{Samples: 2})
	_ = c.Done(workload.WorkerStats{Samples: 1})
	ph := b.Result().Phases[0]
	if ph.WallSeconds != 2.25 || len(ph.Timeline) != 3 || !ph.StartedAt.Equal(start) {
		t.Fatalf("wall %v, timeline %+v, started %v", ph.WallSeconds, ph.Timeline, ph.StartedAt)
	}
	for i, want := range []float64{1, 1, 0.25} {
		if got := ph.Timeline[i].Span(); got != want {
			t.Errorf("second %d spans %v s, want %v", i, got, want)
		}
	}
	if len(ivs) != 3 || ivs[2].Second.Span() != 0.25 || ivs[1].Second.Partial() || !ivs[2].Start.Equal(start) {
		t.Fatalf("observed %+v", ivs)
	}
}

// Recording allocates nothing once a worker's histograms exist, so memory
// does not grow with the number of ops.
func TestRecordDoesNotAllocate(t *testing.T) {
	b := NewBuilder(plan(1))
	s := b.Sink(0, 0)
	var start time.Duration
	record := func() {
		start += 50 * time.Microsecond
		_ = s.Record(workload.Sample{Op: workload.OpRead, Start: start, Latency: 5 * time.Microsecond})
	}
	for range 100_000 { // past several second boundaries
		record()
	}
	if a := testing.AllocsPerRun(100_000, record); a != 0 {
		t.Fatalf("Record allocates %v times per sample", a)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(1))
	s := b.Sink(0, 0)
	for i := range 1000 {
		rec(t, s, workload.OpRead, store.OK, time.Duration(i)*time.Microsecond, time.Duration(i%97+1)*time.Microsecond)
	}
	_ = s.Done(workload.WorkerStats{Samples: 1000})
	r := b.Result()
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"schema_version": 1`, `"ops_per_sec"`, `"p99_us"`, `"kind": "read"`, `"busy": 0`, `"histogram"`} {
		if !strings.Contains(buf.String(), field) {
			t.Errorf("JSON lacks %s", field)
		}
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	read, _ := got.Phases[0].Op("read")
	h, err := read.DecodeHistogram()
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 1000 || float64(h.ValueAtQuantile(99))/1e3 != read.P99Micros {
		t.Errorf("decoded histogram: %d samples, p99 %v µs; result says p99 %v", h.TotalCount(), float64(h.ValueAtQuantile(99))/1e3, read.P99Micros)
	}
}

func TestReadRejects(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(1))
	s := b.Sink(0, 0)
	rec(t, s, workload.OpRead, store.OK, 0, time.Microsecond)
	_ = s.Done(workload.WorkerStats{Samples: 1})
	var buf bytes.Buffer
	_ = b.Result().Write(&buf)
	good := buf.String()
	for name, bad := range map[string]string{
		"version":   strings.Replace(good, `"schema_version": 1`, `"schema_version": 99`, 1),
		"count":     strings.Replace(good, `"count": 1,`, `"count": 2,`, 1),
		"histogram": strings.Replace(good, `"histogram": "`, `"histogram": "x`, 1),
		"not json":  good[:len(good)/2],
	} {
		if _, err := Read(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: Read accepted a bad result", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	b := NewBuilder(plan(1))
	s := b.Sink(0, 0)
	_ = s.Record(workload.Sample{Op: workload.OpRead, Latency: time.Microsecond})
	_ = s.Done(workload.WorkerStats{Samples: 1})
	var buf bytes.Buffer
	_ = b.Result().Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"schema_version":1,"phases":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What Read accepts writes back and reads again.
		var out bytes.Buffer
		if err := r.Write(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&out); err != nil {
			t.Fatalf("accepted result does not read back: %v", err)
		}
	})
}

// A histogram of another geometry (here one that would allocate a huge
// counts array) is refused before it is decoded.
func TestForeignGeometryRefused(t *testing.T) {
	t.Parallel()
	h := hdr.New(1, 1<<62, 5)
	_ = h.RecordValue(42)
	enc, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	o := OpStats{Kind: "read", Latency: Latency{Count: 1, Histogram: string(enc)}}
	if _, err := o.DecodeHistogram(); err == nil || !strings.Contains(err.Error(), "is not gobench's") {
		t.Fatalf("DecodeHistogram = %v", err)
	}
}

func TestCommitsPerSec(t *testing.T) {
	t.Parallel()
	plan := func(batch int) workload.Plan {
		return workload.Plan{Phases: []workload.Phase{{Name: "mix", Batch: batch}}}
	}
	phase := func(ops ...OpStats) []Phase { return []Phase{{Name: "mix", Ops: ops}} }
	for _, tt := range []struct {
		name string
		r    Result
		want float64
		ok   bool
	}{
		{"every write its own transaction", Result{Plan: plan(1), Phases: phase(OpStats{Kind: "read", OpsPerSec: 900}, OpStats{Kind: "upsert", OpsPerSec: 40}, OpStats{Kind: "delete", OpsPerSec: 2})}, 42, true},
		{"batches count commits", Result{Plan: plan(10), Phases: phase(OpStats{Kind: "upsert", OpsPerSec: 400}, OpStats{Kind: "commit", OpsPerSec: 40})}, 40, true},
		{"reads only", Result{Plan: plan(1), Phases: phase(OpStats{Kind: "read", OpsPerSec: 900})}, 0, false},
		{"no such phase", Result{Plan: plan(1)}, 0, false},
	} {
		got, ok := tt.r.CommitsPerSec(0)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// The environment fingerprint of a recorded run: machine, file system and
// mount options, every SQLite pragma and compile option, as JSON.
func TestFingerprintGolden(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "mix-fidelity.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	env, err := json.MarshalIndent(r.Environment, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "environment.json", append(env, '\n'))
	e := r.Environment
	if e.Kernel == "" || e.CPUModel == "" || e.MemoryBytes == 0 || e.MountOptions == "" || e.StoreFact("compile_options") == "" || e.StoreFact("wal_autocheckpoint") == "" {
		t.Errorf("the fixture lacks part of the fingerprint: %+v", e)
	}
}

// Recorders pass their samples on to the phase's histograms a buffer at a
// time, from any number of goroutines at once: every sample arrives, a
// worker that never finished included (its last, partial buffer too), and
// each worker's own counts stay its own.
func TestRecordersShareHistograms(t *testing.T) {
	t.Parallel()
	const workers, each = 8, 3*pendingSamples + 17
	b := NewBuilder(plan(workers))
	var wg sync.WaitGroup
	for w := range workers {
		s := b.Sink(w, 0)
		wg.Go(func() {
			for i := range each {
				class := store.OK
				if i%10 == w {
					class = store.Busy
				}
				if err := s.Record(workload.Sample{Op: workload.OpRead, Class: class, Start: time.Duration(i) * time.Millisecond, Latency: time.Duration(w+1) * time.Microsecond}); err != nil {
					t.Error(err)
				}
			}
			if w != 0 { // worker 0 never finishes
				if err := s.Done(workload.WorkerStats{Worker: w, Samples: each}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	ph := b.Result().Phases[0]
	read, _ := ph.Op("read")
	h, err := read.DecodeHistogram()
	if err != nil {
		t.Fatal(err)
	}
	if read.Count != workers*each || h.TotalCount() != workers*each {
		t.Fatalf("%d reads, %d in the histogram; want %d", read.Count, h.TotalCount(), workers*each)
	}
	var values []int64 // the latencies recorded, each worker's own
	for _, bar := range h.Distribution() {
		if bar.Count > 0 {
			if bar.Count != each {
				t.Errorf("%d samples at %d ns, want %d", bar.Count, bar.From, each)
			}
			values = append(values, bar.From)
		}
	}
	if len(values) != workers {
		t.Errorf("latencies %v: want one per worker", values)
	}
	var busy int64
	for w := range workers {
		errs := int64((each + 9 - w) / 10)
		busy += errs
		if got := ph.Workers[w]; got.Ops != each || got.Errors != errs || got.Finished != (w != 0) {
			t.Errorf("worker %d = %+v, want %d ops, %d errors", w, got, each, errs)
		}
	}
	if read.Errors.Busy != busy {
		t.Errorf("%d busy reads, want %d", read.Errors.Busy, busy)
	}
	var inTimeline, busyInTimeline int64 // every sample in the second it ended in
	for _, sec := range ph.Timeline {
		for _, o := range sec.Ops {
			inTimeline += o.Count
			busyInTimeline += o.Errors
		}
	}
	if inTimeline != workers*each || busyInTimeline != busy {
		t.Errorf("the timeline holds %d samples, %d failed; want %d, %d", inTimeline, busyInTimeline, workers*each, busy)
	}
}
