package history

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
)

// baseRun reads a real run of gobench mix (the repository's shared
// testdata): every synthetic run of these tests is it, its figures
// scaled.
func baseRun(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "mix-wal.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// synth is one synthetic run: the base run started at, its latencies
// multiplied and its throughputs divided by slow, on a machine whose
// calibrations (CPU loop, fsync) are cpu and fsync µs before and after
// (after moved by drift), with seed changing its plan's seed (another
// plan) when not 0.
type synth struct {
	at         time.Time
	slow       float64
	cpu, fsync float64
	drift      float64
	seed       uint64
}

// run builds the synthetic run from base, round-tripped through its JSON
// as a result file is.
func (s synth) run(t testing.TB, base []byte) *result.Suite {
	t.Helper()
	r, err := result.Read(bytes.NewReader(base))
	if err != nil {
		t.Fatal(err)
	}
	r.StartedAt = s.at
	if s.seed != 0 {
		r.Plan.Seed = s.seed
	}
	ph := &r.Phases[0]
	for _, o := range append([]*result.OpStats{&ph.Total}, ptrs(ph.Ops)...) {
		o.OpsPerSec /= s.slow
		l := &o.Latency
		for _, v := range []*float64{&l.MeanMicros, &l.P50Micros, &l.P90Micros, &l.P99Micros, &l.P999Micros, &l.MaxMicros} {
			*v *= s.slow
		}
	}
	load := 1.0
	r.Environment.Machine = &result.Machine{
		Before: result.Probe{CPUMicros: s.cpu, FsyncMicros: s.fsync, Load1: &load},
		After:  result.Probe{CPUMicros: s.cpu * (1 + s.drift), FsyncMicros: s.fsync, Load1: &load},
	}
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	su, err := result.ReadSuite(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return su
}

func ptrs(ops []result.OpStats) []*result.OpStats {
	out := make([]*result.OpStats, len(ops))
	for i := range ops {
		out[i] = &ops[i]
	}
	return out
}

// twelve returns twelve synthetic runs, of commits c1…c12, an hour
// apart: each slow(i) times slower, within ±1% of it (seeded noise), on a
// machine whose CPU loop takes cpu(i) µs (and fsync 100 times that); a
// seed other than the base run's makes them runs of another plan.
func twelve(t testing.TB, base []byte, seed uint64, slow func(i int) float64, cpu func(i int) float64) []*result.Suite {
	rng := rand.New(rand.NewPCG(seed, 53))
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var out []*result.Suite
	for i := 1; i <= 12; i++ {
		s := synth{at: start.Add(time.Duration(i) * time.Hour), slow: slow(i) * (1 + 0.02*(rng.Float64()-0.5)),
			cpu: cpu(i), fsync: 1000 * cpu(i) / 10, seed: seed}
		out = append(out, s.run(t, base))
	}
	return out
}

// constant returns v for every commit.
func constant(v float64) func(int) float64 { return func(int) float64 { return v } }

// from7 returns f for commits from c7 on, 1 before.
func from7(f float64) func(int) float64 {
	return func(i int) float64 {
		if i >= 7 {
			return f
		}
		return 1
	}
}
