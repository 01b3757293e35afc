package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// addTwelve adds runs as commits c1…c12 of branch main.
func addTwelve(t *testing.T, h *Store, runs []*result.Suite) Added {
	t.Helper()
	var total Added
	for i, su := range runs {
		n, err := h.Add(context.Background(), Meta{Commit: fmt.Sprintf("c%d", i+1), Branch: "main", Machine: "ci"}, su)
		if err != nil {
			t.Fatal(err)
		}
		total.Runs += n.Runs
		total.Known += n.Known
		total.Elsewhere += n.Elsewhere
		total.Figures += n.Figures
	}
	return total
}

// show reads figure's series of branch main, failing the test on an
// error.
func show(t *testing.T, h *Store, figure string) []*Series {
	t.Helper()
	ss, err := h.Show(context.Background(), Query{Figure: figure, Branch: "main"}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// historyScenario is the "done means" on the history at dsn: a
// plan slower by 30% from c7 has one change point between c6 and c7 in
// its latency and throughput; adding it again changes nothing; an A/A
// history of another plan is a series of its own with none; the gate
// fails on the first and passes the second. It returns what show gave,
// for comparing two databases.
func historyScenario(t *testing.T, dsn string) map[string][]*Series {
	ctx := context.Background()
	h, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	base := baseRun(t)
	slow := twelve(t, base, 0, from7(1.3), constant(10))
	aa := twelve(t, base, 99, constant(1), constant(10))
	if n := addTwelve(t, h, slow); n.Runs != 12 || n.Known != 0 || n.Figures == 0 {
		t.Fatalf("adding twelve runs: %+v", n)
	}
	addTwelve(t, h, aa)
	out := map[string][]*Series{}
	for _, fig := range []string{"read p99", "upsert p50", "total ops/s", "read ops/s"} {
		ss := show(t, h, fig)
		out[fig] = ss
		if len(ss) != 2 {
			t.Fatalf("%s: %d series, want 2 (one a plan)", fig, len(ss))
		}
		for _, sr := range ss {
			if len(sr.Points) != 12 {
				t.Errorf("%s of plan %.8s: %d points, want 12", fig, sr.Plan, len(sr.Points))
			}
			if sr.Points[0].Commit != "c1" || sr.Points[11].Commit != "c12" {
				t.Errorf("%s: points run %s…%s, want c1…c12", fig, sr.Points[0].Commit, sr.Points[11].Commit)
			}
			aaSeries := sr.Plan != result.PlanHash(slow[0].Cells[0].Runs[0])
			switch {
			case aaSeries && len(sr.Changes) != 0:
				t.Errorf("%s of the A/A history: change points %+v, want none", fig, sr.Changes)
			case !aaSeries && (len(sr.Changes) != 1 || sr.Changes[0].Before != "c6" || sr.Changes[0].After != "c7" || !sr.Changes[0].Worse):
				t.Errorf("%s of the slower history: change points %+v, want one, c6 → c7, worse", fig, sr.Changes)
			}
			checkGate(t, fig, sr, !aaSeries)
		}
	}
	if n := addTwelve(t, h, slow); n.Runs != 0 || n.Known != 12 || n.Figures != 0 || n.Elsewhere != 0 {
		t.Errorf("adding the same twelve runs again: %+v, want all known, none elsewhere", n)
	}
	if n, err := h.Add(context.Background(), Meta{Commit: "other", Branch: "main"}, slow[0]); err != nil || n.Known != 1 || n.Elsewhere != 1 {
		t.Errorf("adding c1's run again as commit other: %+v, %v, want it known, under another commit", n, err)
	}
	again, _ := json.Marshal(show(t, h, "read p99"))
	if first, _ := json.Marshal(out["read p99"]); string(first) != string(again) {
		t.Errorf("the series changed when the same runs were added again:\n%s\n%s", first, again)
	}
	checkConfirmed(t, h, slow[0].Cells[0].Runs[0])
	return out
}

// checkConfirmed records verdicts of the slower plan's change point, as
// history confirm does: show reads each back beside it, and the gate
// follows it (a pass passes whatever the interval says).
func checkConfirmed(t *testing.T, h *Store, r *result.Result) {
	t.Helper()
	for _, verdict := range []string{VerdictPass, VerdictRegression} {
		c := Confirmation{Plan: result.PlanHash(r), Cell: result.RunSettings(r).String(), Figure: "read p99",
			Before: "c6", After: "c7", Verdict: verdict, Detail: "ab: read p99 ×1.30"}
		if err := h.Confirm(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		ss, err := h.Show(context.Background(), Query{Figure: "read p99", Plan: c.Plan[:12]}, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if len(ss) != 1 || len(ss[0].Changes) != 1 || ss[0].Changes[0].Verdict != verdict {
			t.Fatalf("after confirming %s: %+v", verdict, ss)
		}
		checkGate(t, "read p99 confirmed "+verdict, ss[0], verdict == VerdictRegression)
	}
	if err := h.Confirm(context.Background(), Confirmation{Verdict: "maybe"}); err == nil {
		t.Error("a verdict \"maybe\" was recorded")
	}
}

// checkGate checks the gate's verdict on a series: a failure (a
// judge.ErrThreshold) exactly when fail.
func checkGate(t *testing.T, fig string, sr *Series, fail bool) {
	t.Helper()
	vs := Gate([]*Series{sr}, 0.10, 0)
	err := ErrRegression(vs)
	if fail != (err != nil) || (err != nil && !errors.Is(err, judge.ErrThreshold)) {
		t.Errorf("%s: gate says %v (%s), want a failure: %v", fig, err, vs[0].Reason, fail)
	}
}

func TestHistorySQLite(t *testing.T) {
	historyScenario(t, filepath.Join(t.TempDir(), "sub", "history.db"))
}

// A run that did not complete (interrupted, or a worker failed) is left
// out of the history, counted, so that a partial run's figures never
// become a point of a series; the complete runs beside it are added.
func TestIncompleteRunsLeftOut(t *testing.T) {
	ctx := context.Background()
	h, err := Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	runs := twelve(t, baseRun(t), 0, constant(1), constant(10))
	partial := runs[1].Cells[0].Runs[0]
	partial.Complete = false
	n, err := h.Add(ctx, Meta{Commit: "c1", Branch: "main"}, runs[0], runs[1])
	if err != nil {
		t.Fatal(err)
	}
	if n.Runs != 1 || n.Incomplete != 1 {
		t.Fatalf("added %+v, want 1 run added and 1 incomplete left out", n)
	}
	if ss := show(t, h, "read p99"); len(ss) != 1 || len(ss[0].Points) != 1 || len(ss[0].Points[0].Runs) != 1 {
		t.Errorf("the series holds %+v, want one point of the one complete run", ss)
	}
}
