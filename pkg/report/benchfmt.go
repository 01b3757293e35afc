package report

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/gobench/gobench/pkg/result"
)

// runBenchfmt writes a run in the Go benchmark format, so benchstat compares
// gobench runs: one line per op kind, named BenchmarkMix/op=KIND (plus the
// varied settings in a suite), with the op count as iterations and the
// mean latency (ns/op), throughput (ops/s) and latency percentiles
// (p50-ns, p99-ns, p99.9-ns) as values. The run's settings are file
// configuration lines, which benchstat shows and groups by.
func runBenchfmt(w io.Writer, r *result.Result) error {
	return writeBenchfmt(benchfmt.NewWriter(w), r, nil)
}

// suiteBenchfmt writes every repeat of every cell in the Go benchmark
// format; benchstat summarises the repeats itself (for example with
// `benchstat -col /journal`).
func suiteBenchfmt(w io.Writer, sum *Summary) error {
	bw := benchfmt.NewWriter(w)
	for _, c := range sum.Suite.Cells {
		for _, r := range c.Runs {
			if err := writeBenchfmt(bw, r, sum.Suite.Varied); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeBenchfmt(bw *benchfmt.Writer, r *result.Result, varied []string) error {
	var cfg []benchfmt.Config
	add := func(k, v string) { cfg = append(cfg, benchfmt.Config{Key: k, Value: []byte(v), File: true}) }
	add("goos", r.Environment.OS)
	add("goarch", r.Environment.Arch)
	if v := r.Environment.StoreFact("sqlite_version"); v != "" {
		add("sqlite", v)
	}
	var name strings.Builder
	name.WriteString(benchName(r.Command))
	for _, st := range result.RunSettings(r) {
		if contains(varied, st.Name) {
			fmt.Fprintf(&name, "/%s=%s", st.Name, st.Value)
		} else {
			add(st.Name, st.Value)
		}
	}
	for _, ph := range r.Phases {
		prefix := name.String()
		if len(r.Phases) > 1 {
			prefix += "/phase=" + ph.Name
		}
		for _, o := range append(append([]result.OpStats{}, ph.Ops...), ph.Total) {
			if o.Count == 0 {
				continue
			}
			res := &benchfmt.Result{
				Config: cfg,
				Name:   benchfmt.Name(prefix + "/op=" + o.Kind),
				Iters:  int(o.Count),
				Values: []benchfmt.Value{
					{Value: o.MeanMicros * 1e3, Unit: "ns/op"},
					{Value: o.OpsPerSec, Unit: "ops/s"},
					{Value: o.P50Micros * 1e3, Unit: "p50-ns"},
					{Value: o.P99Micros * 1e3, Unit: "p99-ns"},
					{Value: o.P999Micros * 1e3, Unit: "p99.9-ns"},
				},
			}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
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
