package judge

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

func TestParseExpectation(t *testing.T) {
	for _, tt := range []struct {
		in    string
		want  Expectation
		error string
	}{
		{in: "upsert ops/s: wal >= 3x rollback", want: Expectation{Metric: Metric{"upsert", "ops/s"}, Op: ">=", A: "wal", B: "rollback", Factor: 3}},
		{in: "read p99: wal <= 0.5 rollback", want: Expectation{Metric: Metric{"read", "p99"}, Op: "<=", A: "wal", B: "rollback", Factor: 0.5}},
		{in: "read p99 <= 2ms", want: Expectation{Metric: Metric{"read", "p99"}, Op: "<=", Absolute: true, Limit: 2000}},
		{in: "read p99.9 < 800µs", want: Expectation{Metric: Metric{"read", "p99.9"}, Op: "<", Absolute: true, Limit: 800}},
		{in: "read max <= 1.5s", want: Expectation{Metric: Metric{"read", "max"}, Op: "<=", Absolute: true, Limit: 1.5e6}},
		{in: "read p50 <= 900ns", want: Expectation{Metric: Metric{"read", "p50"}, Op: "<=", Absolute: true, Limit: 0.9}},
		{in: "read p50 <= 20us", want: Expectation{Metric: Metric{"read", "p50"}, Op: "<=", Absolute: true, Limit: 20}},
		{in: "upsert ops/s >= 500", want: Expectation{Metric: Metric{"upsert", "ops/s"}, Op: ">=", Absolute: true, Limit: 500}},
		{in: "total ops/s > 1.5k", want: Expectation{Metric: Metric{"total", "ops/s"}, Op: ">", Absolute: true, Limit: 1500}},
		{in: "wal: upsert ops/s >= 2M", want: Expectation{Metric: Metric{"upsert", "ops/s"}, Op: ">=", Absolute: true, Cells: "wal", Limit: 2e6}},
		{in: "journal=wal,sync=full: read p99 <= 10ms", want: Expectation{Metric: Metric{"read", "p99"}, Op: "<=", Absolute: true, Cells: "journal=wal,sync=full", Limit: 1e4}},
		{in: "commits fsync% >= 50%", want: Expectation{Metric: Metric{"commits", "fsync%"}, Op: ">=", Absolute: true, Limit: 50}},
		{in: "lost acked writes == 0", want: Expectation{Metric: Metric{"lost", "acked writes"}, Op: "==", Absolute: true}},
		{in: "corrupt states == 0", want: Expectation{Metric: Metric{"corrupt", "states"}, Op: "==", Absolute: true}},
		{in: "sync=normal: lossy states <= 30", want: Expectation{Metric: Metric{"lossy", "states"}, Op: "<=", Absolute: true, Cells: "sync=normal", Limit: 30}},
		{in: "io syncs/commit <= 4", want: Expectation{Metric: Metric{"io", "syncs/commit"}, Op: "<=", Absolute: true, Limit: 4}},
		{in: "io syncs/commit: wal <= 0.5x rollback", want: Expectation{Metric: Metric{"io", "syncs/commit"}, Op: "<=", A: "wal", B: "rollback", Factor: 0.5}},
		{in: "fairness >= 0.8", want: Expectation{Metric: Metric{"fairness", ""}, Op: ">=", Absolute: true, Limit: 0.8}},
		{in: "wal: fairness >= 0.8", want: Expectation{Metric: Metric{"fairness", ""}, Op: ">=", Absolute: true, Cells: "wal", Limit: 0.8}},
		{in: "fairness: wal >= 2x rollback", want: Expectation{Metric: Metric{"fairness", ""}, Op: ">=", A: "wal", B: "rollback", Factor: 2}},
		{in: "worker max gap <= 1s", want: Expectation{Metric: Metric{"worker", "max gap"}, Op: "<=", Absolute: true, Limit: 1e6}},
		// A cell's value with a space of its own: a replay's cell as captured.
		{in: "commit p99: wal <= 1.2x as captured", want: Expectation{Metric: Metric{"commit", "p99"}, Op: "<=", A: "wal", B: "as captured", Factor: 1.2}},
		{in: "commit p99: settings=as captured >= 2x wal", want: Expectation{Metric: Metric{"commit", "p99"}, Op: ">=", A: "settings=as captured", B: "wal", Factor: 2}},
		{in: "fairness >=", error: "want 'METRIC: A OP FACTOR B'"},
		{in: "p99 <= 2ms", error: "metric"},
		{in: "corrupt states == none", error: "want a number such as 0"},
		{in: "lost acked writes <= 2ms", error: "want a number such as 0"},
		{in: "lost writes == 0", error: "metric"},
		{in: "read p99 <= 2", error: "want a latency with its unit"},
		{in: "read p99 <= fast", error: "want a latency with its unit"},
		{in: "upsert ops/s >= 5x", error: "want a rate such as 500"},
		{in: "upsert ops/s >= -5", error: "want a rate"},
		{in: "read p90 < 1e307s", error: "want a latency"},   // finite as written, infinite in µs
		{in: "upsert ops/s >= 1e307M", error: "want a rate"}, // the same for a rate's suffix
		{in: "upsert ops/s => 5", error: `comparison "=>" is not one of`},
		{in: "upsert ops/s: wal >= 0x rollback", error: "not a positive number"},
		{in: "upsert ops/s: wal >= NaNx rollback", error: "not a positive number"},
		{in: "read p99", error: "want 'METRIC: A OP FACTOR B'"},
		{in: "upsert p99 < 2 ms", error: `limit "2 ms": write it without the space, as 2ms`},
		{in: "wal: upsert ops/s >= 1.5 k", error: "as 1.5k"},
		{in: "errors == 0", want: Expectation{Metric: Metric{"errors", ""}, Op: "==", Absolute: true}},
		{in: "busy errors == 0", want: Expectation{Metric: Metric{"busy", "errors"}, Op: "==", Absolute: true}},
		{in: "error rate <= 1%", want: Expectation{Metric: Metric{"error", "rate"}, Op: "<=", Absolute: true, Limit: 1}},
		{in: "re#ad p99 <= 2ms", error: "metric"},
		// A bounded figure's range (its row's Range): a gate that can
		// never pass, or always passes, judges nothing.
		{in: "fairness > 2", error: `fairness (Jain's index) lies between 0 and 1: a gate "> 2" can never pass`},
		{in: "fairness > 1", error: "can never pass"},
		{in: "fairness <= 1", error: "always passes"},
		{in: "fairness >= 0", error: "always passes"},
		{in: "write fairness == 1.5", error: "can never pass"},
		{in: "fairness == 1", want: Expectation{Metric: Metric{"fairness", ""}, Op: "==", Absolute: true, Limit: 1}},
		{in: "fairness < 1", want: Expectation{Metric: Metric{"fairness", ""}, Op: "<", Absolute: true, Limit: 1}},
		{in: "error rate <= 101%", error: `error rate (% of ops failed) lies between 0% and 100%: a gate "<= 101%" always passes`},
		{in: "error rate > 100%", error: "can never pass"},
		{in: "error rate >= 0%", error: "always passes"},
		{in: "error rate < 100%", want: Expectation{Metric: Metric{"error", "rate"}, Op: "<", Absolute: true, Limit: 100}},
		{in: "error rate == 0", want: Expectation{Metric: Metric{"error", "rate"}, Op: "==", Absolute: true}},
		// Every other figure is never negative: a gate below 0 can never
		// pass; one at or above 0 always passes, and stays (a gate that
		// must pass).
		{in: "read ops/s < 0", error: `read ops/s (ops/s) is never negative: a gate "< 0" can never pass`},
		{in: "read p99 < 0s", error: `read p99 (µs) is never negative: a gate "< 0s" can never pass`},
		{in: "total p99.99 < 0ms", error: "can never pass"},
		{in: "errors < 0", error: "can never pass"},
		{in: "worker max gap < 0ns", error: "can never pass"},
		{in: "commits fsync% < 0%", error: "can never pass"},
		{in: "read ops/s <= -1", error: "want a rate"},
		{in: "errors >= 0", want: Expectation{Metric: Metric{"errors", ""}, Op: ">=", Absolute: true}},
		{in: "worker max gap >= 0s", want: Expectation{Metric: Metric{"worker", "max gap"}, Op: ">=", Absolute: true}},
		{in: "read ops/s <= 0", want: Expectation{Metric: Metric{"read", "ops/s"}, Op: "<=", Absolute: true}},
	} {
		got, err := ParseExpectation(tt.in)
		if tt.error != "" {
			if err == nil || !strings.Contains(err.Error(), tt.error) {
				t.Errorf("ParseExpectation(%q) = %v, want an error with %q", tt.in, err, tt.error)
			}
			continue
		}
		tt.want.Text = tt.in
		if err != nil || got != tt.want {
			t.Errorf("ParseExpectation(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

// Gates on the recorded matrix (rollback and wal, three repeats each):
// a threshold clear of every run passes or fails, one inside the
// interval is inconclusive and says why; every cell (or pair) gets its
// own verdict, and the line names the interval and the runs.
func TestEvaluate(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	in := InconclusiveFails
	for _, tt := range []struct {
		gate     string
		cells    []string
		outcomes []string
		line     string
	}{
		// wal's upserts ran 1.69x to 2.41x rollback's: every ratio of a wal run to a rollback run.
		{"upsert ops/s: wal >= 1.5x rollback", []string{"journal=wal"}, []string{"pass"}, "90% interval ×1.69–×2.41 (medians of 3+3 runs)"},
		{"upsert ops/s: wal >= 2.5x rollback", []string{"journal=wal"}, []string{"fail"}, "90% interval ×1.69–×2.41"},
		{"upsert ops/s: wal >= 2x rollback", []string{"journal=wal"}, []string{"inconclusive"}, "straddles ×2.00"},
		// Absolute gates on 3 runs judge every run.
		{"wal: upsert ops/s >= 1400", []string{"journal=wal"}, []string{"pass"}, "the runs' range 1493 ops/s–1849 ops/s (median of 3 runs, judged run by run"},
		{"wal: upsert ops/s < 1400", []string{"journal=wal"}, []string{"fail"}, ""},
		{"wal: upsert ops/s >= 1800", []string{"journal=wal"}, []string{"inconclusive"}, "1 of 3 runs meet the limit; a 90% interval of the median needs 5 runs: raise --repeat to 5"},
		// 1,140 reads a run: each run's p99 has an order-statistic
		// interval, and every run's clears these limits.
		{"read p99 <= 100us", []string{"journal=rollback", "journal=wal"}, []string{"pass", "pass"}, "p99 of each run (fewest 1,140 read ops)"},
		{"read p99 <= 10us", []string{"journal=rollback", "journal=wal"}, []string{"fail", "fail"}, ""},
		// 60 upserts a run bound their p99 from below only: a limit
		// under the lower end fails, one above is undecided, and the
		// line says how many ops would decide it.
		{"upsert p99 <= 1ms", []string{"journal=rollback", "journal=wal"}, []string{"fail", "fail"}, "–∞"},
		{"upsert p99 <= 1s", []string{"journal=rollback", "journal=wal"}, []string{"inconclusive", "inconclusive"},
			"straddles 1.00s: about 299 upsert ops a run would decide it, if the latencies stay as they are (the fewest run had 60): raise --queries to"},
		{"upsert p99: wal <= 0.9x rollback", []string{"journal=wal"}, []string{"inconclusive"}, "the interval of the ratio ×0.00–×∞ straddles ×0.90: more upsert ops a run"},
	} {
		gates := evaluate(t, s, tt.gate)
		var cells, outcomes []string
		for _, g := range gates {
			cells, outcomes = append(cells, g.Cell), append(outcomes, g.Outcome)
			if g.Pass != (g.Outcome == result.OutcomePass) || !strings.HasPrefix(g.Verdict, "gate "+OutcomeWord(g.Outcome)+": "+tt.gate+": ") {
				t.Errorf("%s: outcome %s, pass %v, verdict %q", tt.gate, g.Outcome, g.Pass, g.Verdict)
			}
		}
		if !slices.Equal(cells, tt.cells) || !slices.Equal(outcomes, tt.outcomes) {
			t.Errorf("%s: cells %v outcomes %v; want %v %v", tt.gate, cells, outcomes, tt.cells, tt.outcomes)
		}
		if !strings.Contains(gates[0].Verdict, tt.line) {
			t.Errorf("%s: verdict %q lacks %q", tt.gate, gates[0].Verdict, tt.line)
		}
		err := GateError(gates, in)
		switch {
		case slices.Contains(tt.outcomes, "fail"):
			if !errors.Is(err, ErrThreshold) {
				t.Errorf("%s: GateError = %v, want ErrThreshold", tt.gate, err)
			}
		case slices.Contains(tt.outcomes, "inconclusive"):
			if !errors.Is(err, ErrInconclusive) || GateError(gates, InconclusivePasses) != nil {
				t.Errorf("%s: GateError = %v, want ErrInconclusive (nil when it passes)", tt.gate, err)
			}
		case err != nil:
			t.Errorf("%s: GateError = %v", tt.gate, err)
		}
	}
}

// A relative gate needs two cells; selectors and op kinds must resolve
// before anything runs.
func TestValidateGates(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	one, _ := result.NewSuite("mix", "single", []*result.Result{s.Cells[0].Runs[0]}, "")
	ro := *s.Cells[0].Runs[0]
	ro.Plan.Phases = slices.Clone(ro.Plan.Phases)
	ro.Plan.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 100}}
	readOnly, _ := result.NewSuite("mix", "single", []*result.Result{&ro}, "")
	for _, tt := range []struct {
		gate  string
		s     *result.Suite
		error string
	}{
		{"upsert ops/s: wal >= 2x rollback", one, "compares cells"},
		{"read p99 <= 2ms", one, ""},
		{"memory: read p99 <= 2ms", s, `no cell has a setting of value "memory"`},
		{"upsert ops/s: memory >= 2x rollback", s, `no cell has a setting of value "memory"`},
		{"reed p99 <= 2ms", s, `"reed" is not an op kind of these runs`}, // a typo, or a script these runs did not have
		{"reed p99: wal <= 1x rollback", s, `"reed" is not an op kind of these runs`},
		// What the plans cannot produce is refused before they run.
		{"scan p99 <= 1s", s, `--expect "scan p99 <= 1s": journal=rollback: the first phase deals no scan (its ops: read, upsert)`},
		{"delete p50: wal <= 1x rollback", s, "the first phase deals no delete"},
		{"commit p99 <= 1s", s, "commit is timed only in batches: give --batch 2 or more"},
		{"commits fsync% >= 50%", s, "commits fsync% is a share of the disk's fsync rate: give --ceiling to measure it"},
		{"commits ops/s >= 1", readOnly, "commit no write: there are no commits to read"},
		{"total ops/s >= 1", readOnly, ""},
		{"cpu µs/op <= 1s", readOnly, ""},
	} {
		e, err := ParseExpectation(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		err = e.Validate(tt.s)
		if (tt.error == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.error)) {
			t.Errorf("%s: Validate = %v, want %q", tt.gate, err, tt.error)
		}
	}
}

// Any --expect text parses or is refused with an error, never a panic; a
// gate that parses keeps its text, a known comparison and a finite,
// non-negative threshold.
func FuzzParseExpectation(f *testing.F) {
	for _, s := range []string{"upsert ops/s: wal >= 3x rollback", "read p99 <= 2ms", "wal: upsert ops/s >= 1.5k",
		"commits fsync% >= 50%", "read p99: wal <= 0.5 rollback", ":", "a: b: c", "read p99 <= 1e309s", "read p99 <= NaNms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpectation(s)
		if err != nil {
			return
		}
		if e.Text != strings.TrimSpace(s) || checkOp(e.Op) != nil {
			t.Fatalf("%q parsed to %+v", s, e)
		}
		v := e.Factor
		if e.Absolute {
			v = e.Limit
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("%q: threshold %v", s, v)
		}
	})
}

// CPU per op gates like a latency: relative and absolute, its figures
// printed as CPU time per op; a suite without CPU times has no such metric.
func TestCPUGate(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	if slices.Contains(DefaultMetrics(s), Metric{"cpu", "µs/op"}) {
		t.Error("a suite without CPU times has the cpu metric")
	}
	for ci, us := range []float64{4, 2} { // rollback, wal
		for _, r := range s.Cells[ci].Runs {
			r.Phases[0].CPU = &result.CPU{Scope: result.CPUWorkers, Processes: 1, UserSeconds: 1, MicrosPerOp: us}
		}
	}
	if !slices.Contains(DefaultMetrics(s), Metric{"cpu", "µs/op"}) {
		t.Error("a suite with CPU times lacks the cpu metric")
	}
	for _, tt := range []struct {
		gate, figures string
		pass          []bool
	}{
		{"cpu µs/op: wal <= 0.5x rollback", "journal=wal 2.00µs CPU/op / journal=rollback 4.00µs CPU/op = ×0.5", []bool{true}},
		{"cpu us/op: wal <= 0.4x rollback", "journal=wal 2.00µs CPU/op / journal=rollback 4.00µs CPU/op = ×0.5", []bool{false}},
		{"cpu us/op < 3us", "journal=rollback 4.00µs CPU/op", []bool{false, true}},
	} {
		gates := evaluate(t, s, tt.gate)
		var pass []bool
		for _, g := range gates {
			pass = append(pass, g.Pass)
		}
		if !slices.Equal(pass, tt.pass) || !strings.Contains(gates[0].Verdict, tt.figures) {
			t.Errorf("%s: pass %v, verdict %q; want %v, %q", tt.gate, pass, gates[0].Verdict, tt.pass, tt.figures)
		}
	}
}

// evaluate parses gate, validates it against s and evaluates it.
func evaluate(t *testing.T, s *result.Suite, gate string) []result.Gate {
	t.Helper()
	e, err := ParseExpectation(gate)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(s); err != nil {
		t.Fatal(err)
	}
	gates, err := Evaluate(s, []Expectation{e})
	if err != nil {
		t.Fatal(err)
	}
	return gates
}

// The gates on what --crash found pass where no state lost a write or
// was corrupt, fail where one did, and fail for lack of a figure where
// the run simulated no power cut.
func TestDurabilityGates(t *testing.T) {
	run := func(d *result.Durability) *result.Result {
		return &result.Result{Phases: []result.Phase{{Name: "mix"}}, Durability: d}
	}
	s := &result.Suite{Varied: []string{"sync"}, Cells: []result.Cell{
		{Settings: result.Settings{{Name: "sync", Value: "full"}}, Runs: []*result.Result{run(&result.Durability{States: 30})}},
		{Settings: result.Settings{{Name: "sync", Value: "normal"}}, Runs: []*result.Result{run(&result.Durability{States: 30, Lossy: 12, MaxLost: 596})}},
		{Settings: result.Settings{{Name: "sync", Value: "off"}}, Runs: []*result.Result{run(&result.Durability{States: 30, Corrupt: 3})}},
		{Settings: result.Settings{{Name: "sync", Value: "extra"}}, Runs: []*result.Result{run(nil)}},
	}}
	for _, tt := range []struct {
		expect string
		pass   []bool // per cell, in order
	}{
		{"lost acked writes == 0", []bool{true, false, true, false}},
		{"corrupt states == 0", []bool{true, true, false, false}},
		{"lossy states <= 12", []bool{true, true, true, false}},
	} {
		e, err := ParseExpectation(tt.expect)
		if err != nil {
			t.Fatal(err)
		}
		gates, err := Evaluate(s, []Expectation{e})
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range gates {
			if g.Pass != tt.pass[i] {
				t.Errorf("%s on %s: pass = %v, want %v (%s)", tt.expect, g.Cell, g.Pass, tt.pass[i], g.Verdict)
			}
		}
		if !gates[3].NoFigure {
			t.Errorf("%s on a run without --crash: %+v", tt.expect, gates[3])
		}
		if v := gates[1].Verdict; strings.Contains(v, "%") {
			t.Errorf("a count reads as a percentage: %s", v)
		}
	}
}

// A gate that read a run with no steady state (--warmup auto found none)
// says so in its verdict; one on steady runs does not.
func TestGateOnUnsteadyRun(t *testing.T) {
	five := []float64{100, 104, 96, 102, 98}
	s := synthetic(five, five, 5000)
	for _, gate := range []string{"wal: total ops/s >= 10", "total ops/s: wal >= 0.5x rollback"} {
		if g := evaluate(t, s, gate)[0]; g.Unsteady || strings.Contains(g.Verdict, "steady") {
			t.Errorf("%s on steady runs: %q", gate, g.Verdict)
		}
	}
	s.Cells[1].Runs[2].Phases[0].Steady = &result.SteadyCut{Method: "MSER-5", Reason: "settles only in the run's second half"}
	for _, gate := range []string{"wal: total ops/s >= 10", "total ops/s: wal >= 0.5x rollback"} {
		g := evaluate(t, s, gate)[0]
		if !g.Unsteady || !strings.HasSuffix(g.Verdict, " · decided on a run with no steady state") || g.OutcomeOf() != OutcomePass {
			t.Errorf("%s with an unsteady run: %+v", gate, g)
		}
	}
	if g := evaluate(t, s, "rollback: total ops/s >= 10")[0]; g.Unsteady {
		t.Errorf("a gate on the steady cell is marked: %q", g.Verdict)
	}
}

// runOfReads is a run of reads whose latencies are given as (µs, count)
// pairs, recorded into a histogram of gobench's geometry.
func runOfReads(t *testing.T, lat ...int64) *result.Result {
	t.Helper()
	h := hdr.New(result.HistogramMin, result.HistogramMax, 3)
	for i := 0; i < len(lat); i += 2 {
		if err := h.RecordValues(lat[i]*1000, lat[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	l := result.Latency{Count: h.TotalCount(), P99Micros: float64(h.ValueAtQuantile(99)) / 1e3, Histogram: string(enc)}
	p := workload.DefaultPlan()
	p.Phases[0].Ops = h.TotalCount()
	return &result.Result{Plan: p, Complete: true, Phases: []result.Phase{{
		Total: result.OpStats{Kind: "total", Latency: l}, Ops: []result.OpStats{{Kind: "read", Latency: l}}}}}
}

// With repeats, an inconclusive percentile gate's advice reads every run:
// a run of 570 reads, all fast, decides "read p99 <= 1ms" alone at about
// 299 ops, but two runs of 1,140 with 12 slow reads straddle it, and only
// many more ops a run (their share under the limit, 98.9%, lies just
// under 99%) would decide; never fewer than the runs had. When every run
// decides but not the same way, more ops cannot mend it: the line says
// more runs instead.
func TestQuantileAdviceWithRepeats(t *testing.T) {
	fast := runOfReads(t, 100, 570)
	slowTail := runOfReads(t, 100, 1128, 2000, 12)
	slow := runOfReads(t, 2000, 1140)
	for _, tt := range []struct {
		name string
		runs []*result.Result
		gate string
		want string
	}{
		{"one undecided run needs more", []*result.Result{fast, slowTail, slowTail}, "read p99 <= 1ms", "read ops a run would decide it"},
		{"runs disagree", []*result.Result{fast, slow, fast}, "read p99 <= 1ms", "more ops a run would not decide it; more runs would: 5 runs or more, of at least 1,000 read ops each"},
		// The binomial alone would call 1,140 ops enough, but the limit
		// lies inside the histogram's bucket at 1ms: no count narrows it.
		{"limit within a bucket", []*result.Result{runOfReads(t, 1000, 1128, 1001, 12)}, "read p99 <= 1000.2us", "the limit lies within the histogram's precision (0.1%) at the percentile, and no number of ops would decide it"},
	} {
		s := &result.Suite{Kind: result.SuiteKind, Cells: []result.Cell{{Runs: tt.runs}}}
		gates := evaluate(t, s, tt.gate)
		g := gates[0]
		if g.Outcome != result.OutcomeInconclusive || !strings.Contains(g.Why, tt.want) {
			t.Errorf("%s: %s: %s", tt.name, g.Outcome, g.Why)
			continue
		}
		if i := strings.Index(g.Why, "about "); i >= 0 {
			n, err := strconv.ParseInt(strings.ReplaceAll(strings.Fields(g.Why[i+len("about "):])[0], ",", ""), 10, 64)
			if err != nil || n <= 1140 {
				t.Errorf("%s: advises %d ops a run (%v), no more than the runs had (1,140): %s", tt.name, n, err, g.Why)
			}
		}
	}
}
