package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
)

// historyReport is a history of one series: twelve commits, a step from
// c7, c3's run left out (its calibration moved), the change point
// confirmed, and the gate's verdict.
func historyReport() *history.Report {
	sr := &history.Series{Figure: "read p99", Unit: "µs", Plan: "2127fb3540f6aa", Command: "mix", Cell: "driver=mattn,journal=wal",
		Basis: history.BasisCPU, Reference: 10, Detector: history.DefaultDetector, MaxDrift: 0.2}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= 12; i++ {
		v := 100 + float64(i%3)
		if i >= 7 {
			v *= 1.3
		}
		p := history.Point{Commit: "c" + string(rune('0'+i/10)) + string(rune('0'+i%10)), At: at.Add(time.Duration(i) * time.Hour),
			Raw: v, Value: v, Lo: v - 1, Hi: v + 1, Confidence: 0.9,
			Runs: []history.RunValue{{RunID: "run", Raw: v, Normalised: v, Machine: "ci"}}}
		if i == 3 {
			p.Excluded, p.Runs[0].Excluded, p.Runs[0].Drift = true, true, 0.5
			sr.Excluded = append(sr.Excluded, history.ExcludedRun{RunID: "run3abcdef", Commit: p.Commit, Drift: 0.5})
		}
		if i == 10 {
			p.Runs[0].Machine = "ci-2" // a machine change, marked on the chart
		}
		sr.Points = append(sr.Points, p)
	}
	sr.Changes = []history.Change{{Index: 6, Before: "c06", After: "c07", From: 101, To: 131.3, Step: 0.3, P: 0.005,
		Ratio: judge.Interval{Lo: 1.28, Hi: 1.32, Confidence: 0.91}, RatioOK: true, Worse: true, Verdict: history.VerdictRegression, Detail: "gobench ab: regression, read p99 ×1.301"}}
	rep := &history.Report{History: "h.db", Figures: []string{"read p99"}, Branch: "main", Series: []*history.Series{sr}, MaxRegression: 0.1}
	rep.Gate = history.Gate(rep.Series, 0.1, 0)
	return rep
}

// The text of a history: the series' head, what normalised it, a row per
// commit (the change and the commit left out marked), the change point
// with its verdict, the runs left out, the gate; fitted to a terminal.
func TestHistoryText(t *testing.T) {
	var buf bytes.Buffer
	render, err := Render("text", historyReport(), Options{Width: TextWidth})
	if err != nil {
		t.Fatal(err)
	}
	if err := render(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "history.txt", buf.Bytes())
}

// The HTML of a history: a trend chart per series, every point drawn, the
// failed gate first among the alerts.
func TestHistoryHTML(t *testing.T) {
	var buf bytes.Buffer
	render, err := Render("html", historyReport(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := render(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="trend-0" data-points="12"`, "<svg", "gate failed: read p99 [driver=mattn,journal=wal]"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
