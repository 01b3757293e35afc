package report

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// runBenchfmt writes a run in the Go benchmark format, so benchstat compares
// gobench runs: one line per op kind, named BenchmarkMix/op=KIND (plus the
// varied settings in a suite, which `benchstat -col /journal` projects),
// with the op count as iterations. ns/op is what Go benchmarks mean by it,
// the inverse of throughput (1e9 / ops/s, over all workers, as with
// b.RunParallel); ops/s is the throughput itself; the latency of one op is
// in its own units: mean-ns, p50-ns, p99-ns, p99.9-ns (or, for a run,
// the statistics Options.Stats names: p99.99-ns); the total line
// adds the CPU time per op, cpu-ns/op, where the run measured it (see
// result.CPU). Values are rounded
// to a tenth. The run's other settings are file configuration lines, which
// benchstat shows and splits tables by: to compare two files whose
// settings differ, tell benchstat to ignore the setting (`benchstat
// -ignore journal rollback.txt wal.txt`).
func runBenchfmt(w io.Writer, r *result.Result, stats []*judge.Figure) error {
	return writeBenchfmt(benchfmt.NewWriter(w), r, nil, statsOr(stats, benchfmtStats))
}

// benchfmtStats are the latency statistics of a benchmark line unless
// Options.Stats names others.
var benchfmtStats = []string{"mean", "p50", "p99", "p99.9"}

// suiteBenchfmt writes every repeat of every cell in the Go benchmark
// format; benchstat summarises the repeats itself (for example with
// `benchstat -col /journal`).
func suiteBenchfmt(w io.Writer, sum *judge.Summary) error {
	bw := benchfmt.NewWriter(w)
	for _, c := range sum.Suite.Cells {
		for _, r := range c.Runs {
			if err := writeBenchfmt(bw, r, sum.Suite.Varied, statsOr(nil, benchfmtStats)); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeBenchfmt writes a run's lines, the op kinds' latency statistics
// stats each in its unit (p99-ns).
func writeBenchfmt(bw *benchfmt.Writer, r *result.Result, varied []string, stats []*judge.Figure) error {
	var cfg []benchfmt.Config
	add := func(k, v string) {
		cfg = append(cfg, benchfmt.Config{Key: benchEscape(k, false), Value: []byte(benchEscape(v, true)), File: true})
	}
	add("goos", r.Environment.OS)
	add("goarch", r.Environment.Arch)
	if v := r.Environment.StoreFact(store.FactEngine); v != "" {
		add("engine", v)
	}
	var name strings.Builder
	name.WriteString(benchEscape(benchName(r.Command), false))
	for _, st := range result.RunSettings(r) {
		if contains(varied, st.Name) {
			fmt.Fprintf(&name, "/%s=%s", benchEscape(st.Name, false), benchEscape(st.Value, false))
		} else {
			add(st.Name, st.Value)
		}
	}
	for _, ph := range r.Phases {
		prefix := name.String()
		if len(r.Phases) > 1 {
			prefix += "/phase=" + benchEscape(ph.Name, false)
		}
		for _, o := range append(append([]result.OpStats{}, ph.Ops...), ph.Total) {
			if o.Count == 0 {
				continue
			}
			res := &benchfmt.Result{
				Config: cfg,
				Name:   benchfmt.Name(prefix + "/op=" + benchEscape(o.Kind, false)),
				Iters:  int(o.Count),
				Values: []benchfmt.Value{
					{Value: roundTenth(nsPerOp(o.OpsPerSec)), Unit: "ns/op"},
					{Value: roundTenth(o.OpsPerSec), Unit: "ops/s"},
				},
			}
			for _, f := range stats {
				if v, ok := f.Latency(o.Latency); ok {
					res.Values = append(res.Values, benchfmt.Value{Value: roundTenth(v * 1e3), Unit: f.Name + "-ns"})
				}
			}
			if c := ph.CPU; c != nil && o.Kind == ph.Total.Kind {
				res.Values = append(res.Values, benchfmt.Value{Value: roundTenth(c.MicrosPerOp * 1e3), Unit: "cpu-ns/op"})
			}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// nsPerOp is the time per op of a throughput, as Go benchmarks report it;
// 0 for none.
func nsPerOp(opsPerSec float64) float64 {
	if opsPerSec <= 0 {
		return 0
	}
	return 1e9 / opsPerSec
}

// benchName turns a command name into a benchmark name: "mix" → "Mix".
func benchName(command string) string {
	if command == "" {
		return "Run"
	}
	return strings.ToUpper(command[:1]) + command[1:]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
