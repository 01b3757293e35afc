package result

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
)

var updateFixtures = flag.Bool("update-fixtures", false, "rewrite the percentiles of the recorded results in testdata/ from their own histograms")

// fixtureRuns reads every recorded result and suite in the repository's
// testdata/ and returns their runs, and a function that writes the files
// back as they are in memory.
func fixtureRuns(t *testing.T) (runs []*Result, save func()) {
	t.Helper()
	files, err := filepath.Glob("../../testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded results: %v", err)
	}
	var writers []func() error
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var kind struct{ Kind string }
		if err := json.Unmarshal(b, &kind); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if kind.Kind == KindCapacity {
			if _, err := ReadCapacity(bytes.NewReader(b)); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			continue // a capacity search keeps no histograms
		}
		if kind.Kind == SuiteKind {
			s, err := ReadSuite(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, c := range s.Cells {
				runs = append(runs, c.Runs...)
			}
			writers = append(writers, func() error { return writeFile(f, s.Write) })
			continue
		}
		r, err := Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		runs = append(runs, r)
		writers = append(writers, func() error { return writeFile(f, r.Write) })
	}
	return runs, func() {
		for _, w := range writers {
			if err := w(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func writeFile(path string, write func(w io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// bruteRank returns the nearest-rank value of the per-100,000 quantile q
// (99,900 is p99.9) by walking h's buckets in order: the highest value
// equivalent to the ceil(q·N/100,000)-th smallest recorded value, in
// integer arithmetic. It shares no code with package percentile.
func bruteRank(h *hdr.Histogram, q int64) int64 {
	n := h.TotalCount()
	rank := max((q*n+99_999)/100_000, 1)
	var seen int64
	for _, b := range h.Distribution() {
		if seen += b.Count; seen >= rank {
			return b.To
		}
	}
	return 0
}

// latencies returns every latency summary of a phase's op kind with its
// name: the op's own, its service time, schedule lag and lock waits.
func latencies(o *OpStats) map[string]*Latency {
	all := map[string]*Latency{}
	if o.Service != nil {
		all["service"] = o.Service
	}
	if o.Lag != nil {
		all["lag"] = o.Lag
	}
	if o.LockWaits != nil {
		all["wait"] = &o.LockWaits.Wait
	}
	return all
}

// Every recorded result reports the nearest-rank percentiles of its own
// histograms (HdrHistogram's reference rule), checked against a brute
// walk of the buckets. With -update-fixtures, the files are rewritten so.
func TestFixturePercentiles(t *testing.T) {
	t.Parallel()
	runs, save := fixtureRuns(t)
	checked := 0
	for _, r := range runs {
		for pi := range r.Phases {
			ph := &r.Phases[pi]
			for oi := range ph.Ops {
				o := &ph.Ops[oi]
				own := Latency{P50Micros: o.P50Micros, P90Micros: o.P90Micros, P99Micros: o.P99Micros, P999Micros: o.P999Micros, Histogram: o.Histogram}
				sums := latencies(o)
				sums["latency"] = &own
				for name, l := range sums {
					h, err := (&OpStats{Kind: o.Kind, Latency: Latency{Histogram: l.Histogram}}).DecodeHistogram()
					if err != nil {
						t.Fatal(err)
					}
					if h.TotalCount() == 0 {
						continue
					}
					if *updateFixtures {
						l.P50Micros, l.P90Micros = micros(percentile.Value(h, 50)), micros(percentile.Value(h, 90))
						l.P99Micros, l.P999Micros = micros(percentile.Value(h, 99)), micros(percentile.Value(h, 99.9))
					}
					for _, c := range []struct {
						q   int64
						got float64
					}{{50_000, l.P50Micros}, {90_000, l.P90Micros}, {99_000, l.P99Micros}, {99_900, l.P999Micros}} {
						checked++
						if want := micros(bruteRank(h, c.q)); c.got != want {
							t.Errorf("%s %s %s %s: p%v = %v µs, nearest rank says %v µs", r.Plan.Driver, ph.Name, o.Kind, name, float64(c.q)/1000, c.got, want)
						}
					}
				}
				o.P50Micros, o.P90Micros, o.P99Micros, o.P999Micros = own.P50Micros, own.P90Micros, own.P99Micros, own.P999Micros
			}
		}
	}
	if checked == 0 {
		t.Fatal("no percentile checked")
	}
	if *updateFixtures {
		save()
	}
}
