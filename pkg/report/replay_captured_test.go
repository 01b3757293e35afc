package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay beside its capture: where each setting came from (the cell as
// captured, or the flags given), what the statements set again and what
// no cell takes, the capture's own pace, and each statement's mean
// against the capture's; a run of an older gobench says none of it.
func TestCapturedLines(t *testing.T) {
	captured := &workload.ReplayCaptured{
		Settings: []workload.CapturedSetting{
			{Pragma: "journal_mode", Value: "wal", SQL: "PRAGMA journal_mode=WAL", Count: 2, Flag: "journal", Cell: "wal"},
			{Pragma: "synchronous", Value: "1", SQL: "PRAGMA synchronous=1", Count: 1, Others: 1, Flag: "sync", Cell: "normal"},
			{Pragma: "cache_size", Value: "-4000", SQL: "PRAGMA cache_size=-4000", Count: 2},
			{Pragma: "locking_mode", Value: "exclusive", SQL: "PRAGMA locking_mode=EXCLUSIVE", Count: 1, NotApplied: "shared in the normal mode"},
		},
		Kinds: []workload.CapturedTiming{{Kind: "q00000001", Count: 10, MeanMicros: 300}},
		Total: workload.CapturedTiming{Kind: "total", Count: 10, MeanMicros: 300, TotalMicros: 3000, P99Micros: 900},
	}
	for _, tt := range []struct {
		name      string
		rp        workload.Replay
		want, not []string
	}{
		{"as captured", workload.Replay{Captured: captured, AsCaptured: true, Duration: int64(2 * time.Second), Commits: 4}, []string{
			"settings: as captured, the application's own: journal wal from journal_mode wal (PRAGMA journal_mode=WAL, 2×) · sync normal from synchronous 1 (PRAGMA synchronous=1, 1×; 1 other values less often)",
			"settings the application's statements set again in every cell: cache_size -4000 (PRAGMA cache_size=-4000, 2×)",
			"not applied: locking_mode exclusive (PRAGMA locking_mode=EXCLUSIVE, 1×): shared in the normal mode",
			"captured: 10 statements in 2.00s (5.0 statements/s, 2.0 committed tx/s, at the application's own pace); this run's mean time against the capture's: every statement ×0.33 (3× faster) · q00000001 ×0.33 (3× faster)",
		}, nil},
		{"given", workload.Replay{Captured: captured, Duration: int64(2 * time.Second)}, []string{"settings: the flags given; the application's where none was given: journal wal"}, []string{"as captured"}},
		{"an older gobench's", workload.Replay{}, nil, []string{"settings", "captured"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rp := tt.rp
			r := &result.Result{}
			r.Plan.Replay = &rp
			ph := result.Phase{Ops: []result.OpStats{{Kind: "q00000001"}}}
			ph.Ops[0].Count, ph.Ops[0].MeanMicros = 10, 100
			ph.Total.Count, ph.Total.MeanMicros = 10, 100
			checkText(t, strings.Join(capturedLines(r, ph), "\n"), tt.want, tt.not)
			row, ok := capturedRow(&rp)
			if ok != (rp.Captured != nil) || (ok && (row[0] != "captured" || row[1] != "10" || row[5] != "900µs")) {
				t.Errorf("captured row %q, %v", row, ok)
			}
		})
	}
}

// A suite's latency tables get the capture's value: a statement's or the
// total's percentile, not a throughput.
func TestCapturedStat(t *testing.T) {
	r := &result.Result{}
	r.Plan.Replay = &workload.Replay{Captured: &workload.ReplayCaptured{
		Kinds: []workload.CapturedTiming{{Kind: "q00000001", Count: 3, P99Micros: 50, MeanMicros: 20}},
		Total: workload.CapturedTiming{Kind: "total", Count: 3, P99Micros: 70, P50Micros: 10}}}
	s := &result.Suite{Cells: []result.Cell{{Runs: []*result.Result{r}}}}
	for _, tt := range []struct {
		m    judge.Metric
		want float64
		ok   bool
	}{
		{judge.Metric{Kind: "total", Stat: "p99"}, 70, true},
		{judge.Metric{Kind: "total", Stat: "p50"}, 10, true},
		{judge.Metric{Kind: "q00000001", Stat: "mean"}, 20, true},
		{judge.Metric{Kind: "total", Stat: "ops/s"}, 0, false},
		{judge.Metric{Kind: "q00000002", Stat: "p99"}, 0, false},
	} {
		if got, ok := capturedStat(s, tt.m); got != tt.want || ok != tt.ok {
			t.Errorf("%v: %v, %v; want %v, %v", tt.m, got, ok, tt.want, tt.ok)
		}
	}
}

// checkText fails t for each of want that text lacks and each of not
// that it holds.
func checkText(t *testing.T, text string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in:\n%s", w, text)
		}
	}
	for _, n := range not {
		if strings.Contains(text, n) {
			t.Errorf("%q in:\n%s", n, text)
		}
	}
}

// A factor against the capture reads as faster, slower, or as fast.
func TestMeanFactor(t *testing.T) {
	for _, tt := range []struct {
		replayed, captured float64
		want               string
	}{
		{1, 3, "×0.33 (3× faster)"},
		{3, 1, "×3 (3× slower)"},
		{1.02, 1, "×1.0 (as fast)"},
		{1, 400, "×0.0025 (400× faster)"},
	} {
		if got := meanFactor(tt.replayed, tt.captured); got != tt.want {
			t.Errorf("meanFactor(%v, %v) = %q, want %q", tt.replayed, tt.captured, got, tt.want)
		}
	}
}

// The SQLite library a replay ran on, beside the capture's: the version
// is blamed for divergence only when statements diverged and the
// versions differ; an older gobench's trace says nothing.
func TestVersionLine(t *testing.T) {
	const blame = "some of the divergence may be the version's"
	for _, tt := range []struct {
		name      string
		captured  []string
		replayed  string
		diverged  int64
		want, not []string
	}{
		{"same version", []string{"3.53.4"}, "3.53.4", 2, []string{"SQLite: captured on 3.53.4, replayed on 3.53.4 (mattn)"}, []string{blame}},
		{"other version, none diverged", []string{"3.40.1"}, "3.53.4", 0, []string{"SQLite: captured on 3.40.1, replayed on 3.53.4 (mattn)"}, []string{blame}},
		{"other version, diverged", []string{"3.40.1"}, "3.53.4", 1, []string{"captured on 3.40.1, replayed on 3.53.4 (mattn): another version", blame}, nil},
		{"two libraries captured", []string{"3.53.4", "3.40.1"}, "3.53.4", 1, []string{"captured on 3.53.4 and 3.40.1", blame}, nil},
		{"an older gobench's trace", nil, "3.53.4", 1, nil, []string{"SQLite"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &result.Result{}
			r.Plan.Driver = "mattn"
			r.Plan.Replay = &workload.Replay{Captured: &workload.ReplayCaptured{SQLiteVersions: tt.captured}}
			r.Environment.Store = []store.Fact{{Name: "sqlite_version", Value: tt.replayed}}
			line := versionLine(r, tt.diverged)
			if tt.want == nil && line != "" {
				t.Fatalf("line %q, want none", line)
			}
			checkText(t, line, tt.want, tt.not)
		})
	}
}

// A matrix of replays names the SQLite the trace was captured on beside
// the one its cells replayed on, in every format, as a single replay's
// report does; a trace that does not say gets no line.
func TestSuiteVersionLine(t *testing.T) {
	for _, tt := range []struct {
		name     string
		captured []string
		want     string
	}{
		{"captured on another version", []string{"3.40.1"}, "SQLite: captured on 3.40.1, replayed on 3.53.4 (mattn)"},
		{"an older gobench's trace", nil, ""},
	} {
		for _, format := range []string{"text", "markdown", "html"} {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				s := loadSuiteFixture(t, "replay-matrix.json")
				for _, c := range s.Cells {
					for _, r := range c.Runs {
						r.Plan.Replay.Captured = &workload.ReplayCaptured{SQLiteVersions: tt.captured}
					}
				}
				render, err := Render(format, s, Options{Width: TextWidth})
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := render(&buf); err != nil {
					t.Fatal(err)
				}
				got := strings.Join(strings.Fields(buf.String()), " ") // text wraps its lines
				switch {
				case tt.want != "" && !strings.Contains(got, tt.want):
					t.Errorf("no %q in the %s report", tt.want, format)
				case tt.want == "" && strings.Contains(got, "captured on"):
					t.Errorf("a trace that names no version got a line in the %s report", format)
				}
			})
		}
	}
}
