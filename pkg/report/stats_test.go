package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/units"
)

// A percentile no code names (p99.97) is a figure read from the histogram
// every result keeps: a run's table lists it when asked (Options.Stats)
// in text, markdown, CSV, HTML and benchfmt, with the value the figure
// reads, and a comparison asked for it shows its row in every format
// that renders comparisons.
func TestAnyPercentileInEveryFormat(t *testing.T) {
	run := loadFixture(t, "mix-fidelity.json")
	stats, err := judge.LatencyStats([]string{"p50", "p99.97"})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := stats[1].Latency(run.Phases[0].Total.Latency)
	if !ok {
		t.Fatal("no total p99.97")
	}
	for format, want := range map[string][]string{
		"text":     {"p50", "p99.97", units.Micros(v)},
		"markdown": {"| op | count | ops/s | p50 | p99.97 | errors |", units.Micros(v)},
		"csv":      {",ops_per_sec,p50_us,p9997_us,service_p50_us,", csvSig3(v)},
		"html":     {"<th>p99.97</th>", units.Micros(v)},
		"benchfmt": {" p50-ns ", fmt.Sprintf(" %v p99.97-ns", roundTenth(v*1e3))},
	} {
		render, err := Render(format, run, Options{Stats: []string{"p50", "p99.97"}})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q", format, w)
			}
		}
		if format != "html" && (strings.Contains(b.String(), "p99.9 ") || strings.Contains(b.String(), "p99.9-ns")) {
			t.Errorf("%s still lists p99.9:\n%s", format, b.String())
		}
	}
	if _, err := Render("text", run, Options{Stats: []string{"ops/s"}}); err == nil {
		t.Error("a run table of ops/s as a latency statistic rendered")
	}

	matrix := loadSuiteFixture(t, "matrix.json")
	m, err := judge.ParseMetric("read p99.97")
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := judge.Compare("old.json", matrix, "new.json", matrix, []judge.Metric{m}, judge.CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range FormatsFor(cmp) {
		render, err := Render(format, cmp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "read p99.97") {
			t.Errorf("the %s comparison lacks its read p99.97 row:\n%s", format, b.String())
		}
	}
}
