package choose

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Measured is what the runs of a Plan gave: its Speed plans' repeats and
// its Crash plans' runs, in any order, some missing where a run failed
// (Failed then says why, by candidate: Candidate.Name), and the time they
// took.
type Measured struct {
	Speed, Crash []*result.Result
	Failed       map[string]string
	Elapsed      time.Duration
}

// Rank reads what the runs of p measured into the answer: a row per
// candidate, with each role's figures for a workload of roles, those
// that kept the promise ranked by their median ops/s (p.RankBy's, for
// roles), the winner and its margin over the runner-up by the same.
func Rank(p *Plan, m Measured) *result.Choice {
	c := &result.Choice{SchemaVersion: result.SchemaVersion, Kind: result.ChoiceKind, Keep: p.Spec.Keep, Says: Says(p.Spec.Keep),
		Budget: p.Spec.Budget, Elapsed: m.Elapsed, Repeats: p.Size.Repeats, Duration: p.Size.Run, NotMeasured: p.NotMeasured,
		RankBy: p.RankBy, RankWhy: p.RankWhy}
	if p.Spec.Keep == KeepAcked {
		c.Cuts = p.Size.Cuts
	}
	kind := "total"
	if len(p.Speed) > 0 {
		c.Workload, kind = p.Workload, p99Kind(p.Speed[0].Phases[0].Mix)
	}
	var firsts []*result.Result
	values := map[int][]float64{}
	for i, cand := range p.Candidates {
		runs := matching(m.Speed, p.Speed[i])
		row := speedRow(cand, runs, kind)
		row.Roles = roleFigures(p.Speed[i], runs)
		values[i] = keyValues(runs, p.RankBy)
		cutRow(&row, p.Spec.Keep, first(matching(m.Crash, p.Crash[i])))
		if why := m.Failed[cand.Name()]; why != "" && row.Why != "" {
			row.Why += ": " + why
		}
		c.Rows = append(c.Rows, row)
		if len(runs) > 0 {
			firsts = append(firsts, runs[0])
			if c.Machine == "" {
				c.Machine = runs[0].Environment.CPUModel
				c.Tool = runs[0].Tool
			}
		}
	}
	if r := first(m.Crash); c.Tool.Name == "" && r != nil {
		// No speed run finished (an interrupt among the power cuts): the
		// build and machine are the power-cut runs'.
		c.Machine, c.Tool = r.Environment.CPUModel, r.Tool
	}
	engineRSS(c, m.Speed, matching(m.Speed, p.Baseline))
	if note := judge.VersionsNote(firsts); note != "" {
		c.Notes = append(c.Notes, note)
	}
	order := rankRows(c.Rows, p.RankBy)
	c.Rows = reorder(c.Rows, order)
	if len(order) > 0 && c.Rows[0].Rank == 1 {
		c.Winner = c.Rows[0].Name()
		if len(c.Rows) > 1 && c.Rows[1].Rank == 2 {
			c.Margin = margin(c.Rows[1].Name(), values[order[0]], values[order[1]])
		}
	}
	return c
}

// p99Kind is the op kind whose p99 the table shows: the mix's largest
// write, or the total where it writes nothing.
func p99Kind(m workload.Mix) string {
	kind, share := "total", 0.0
	for _, w := range m {
		if w.Op.IsWrite() && w.Percent > share {
			kind, share = w.Op.String(), w.Percent
		}
	}
	return kind
}

// matching returns the runs of plan, by their settings.
func matching(runs []*result.Result, plan *workload.Plan) []*result.Result {
	if plan == nil {
		return nil
	}
	want := plan.Driver + " " + result.PlanSettings(plan).String()
	var out []*result.Result
	for _, r := range runs {
		if r.Plan.Driver+" "+result.RunSettings(r).String() == want {
			out = append(out, r)
		}
	}
	return out
}

// first returns the first run, or nil.
func first(runs []*result.Result) *result.Result {
	if len(runs) == 0 {
		return nil
	}
	return runs[0]
}

// opsValues returns the complete runs' total ops/s.
func opsValues(runs []*result.Result) []float64 { return keyValues(runs, "") }

// keyValues returns the complete runs' ops/s of role ("": the total's).
func keyValues(runs []*result.Result, role string) []float64 {
	m := judge.Metric{Kind: "total", Stat: "ops/s"}
	if role != "" {
		m.Kind = role + " total"
	}
	var out []float64
	for _, r := range runs {
		if v, ok := m.Value(r); ok && r.Complete {
			out = append(out, v)
		}
	}
	return out
}

// speedRow is a candidate's row from its speed runs: its median ops/s
// with the interval of the median (or the runs' range), its p99 of kind,
// its errors, its space and memory (spaceRow) and its engine's version.
func speedRow(cand Candidate, runs []*result.Result, kind string) result.ChoiceRow {
	row := result.ChoiceRow{Driver: cand.Driver, Settings: cand.Settings(), P99Kind: kind, SyncsPerCommit: -1}
	vals := opsValues(runs)
	row.Runs = len(vals)
	if len(runs) > 0 {
		row.Version = runs[0].Environment.StoreFact(store.FactEngine)
	}
	for _, r := range runs {
		if len(r.Phases) > 0 {
			row.Errors.Add(r.Phases[0].Total.Errors)
		}
	}
	if len(vals) == 0 {
		row.Why = "no complete speed run"
		return row
	}
	row.OpsPerSec, row.Low, row.High, row.Confidence = medianInterval(vals)
	row.P99 = medianP99(runs, kind)
	spaceRow(&row, runs)
	return row
}

// medianInterval is the median of vals with the interval of the median
// at confidence where they allow one, else (confidence 0) their range.
func medianInterval(vals []float64) (median, low, high, confidence float64) {
	st := judge.StatsOf(vals)
	if iv, ok := judge.MedianInterval(vals); ok {
		return st.Median, iv.Lo, iv.Hi, iv.Confidence
	}
	return st.Median, st.Min, st.Max, 0
}

// medianP99 is the median over runs of kind's p99 (a role's "ROLE
// total"), 0 where no run has one.
func medianP99(runs []*result.Result, kind string) float64 {
	p99 := judge.Metric{Kind: kind, Stat: "p99"}
	var lat []float64
	for _, r := range runs {
		if v, ok := p99.Value(r); ok {
			lat = append(lat, v)
		}
	}
	return judge.StatsOf(lat).Median
}

// cutRow fills a row's power-cut columns from its crash run, and under
// KeepAcked says why a row that lost writes, was corrupt or was not cut
// is not ranked.
func cutRow(row *result.ChoiceRow, keep string, run *result.Result) {
	if keep != KeepAcked {
		row.CutNote = "not cut (" + keep + ")"
		return
	}
	var d *result.Durability
	if run != nil {
		d = run.Durability
		if v, ok := (judge.Metric{Kind: "io", Stat: "syncs/commit"}).Value(run); ok {
			row.SyncsPerCommit = v
		}
	}
	switch {
	case d == nil || d.States == 0:
		row.CutNote = "no power-cut run"
		if run != nil && len(run.Warnings) > 0 {
			row.CutNote += ": " + run.Warnings[0]
		}
		row.Why = cmp.Or(row.Why, row.CutNote)
		return
	case d.NotChecked != "":
		row.CutNote = "acknowledged writes not checked: " + d.NotChecked
		row.Why = cmp.Or(row.Why, row.CutNote)
	}
	row.Cuts, row.Lossy, row.Lost, row.Corrupt = d.States, d.Lossy, d.MaxLost, d.Corrupt
	if d.Lossy > 0 || d.Corrupt > 0 {
		row.Why = fmt.Sprintf("lost acknowledged writes in %d of %d power cuts (at most %d in one), %d corrupt", d.Lossy, d.States, d.MaxLost, d.Corrupt)
	}
}

// rankRows ranks the rows with no reason against them by median ops/s
// (role's, where it is set), fastest first, and returns the order of
// every row: the ranked, then the others in their order.
func rankRows(rows []result.ChoiceRow, role string) []int {
	var ranked, others []int
	for i, r := range rows {
		if r.Why == "" {
			ranked = append(ranked, i)
		} else {
			others = append(others, i)
		}
	}
	key := func(r result.ChoiceRow) float64 {
		if role == "" {
			return r.OpsPerSec
		}
		ro, _ := r.Role(role)
		return ro.OpsPerSec
	}
	slices.SortStableFunc(ranked, func(a, b int) int { return cmp.Compare(key(rows[b]), key(rows[a])) })
	for place, i := range ranked {
		rows[i].Rank = place + 1
	}
	return append(ranked, others...)
}

// reorder returns rows in order.
func reorder(rows []result.ChoiceRow, order []int) []result.ChoiceRow {
	out := make([]result.ChoiceRow, len(order))
	for i, j := range order {
		out[i] = rows[j]
	}
	return out
}

// margin is the winner's lead over the runner-up from their runs' ops/s:
// the ratio of medians and the interval of the ratio where the repeats
// allow one (judge.RatioInterval, a relative gate's rule).
func margin(runnerUp string, winner, second []float64) *result.Margin {
	w, s := judge.StatsOf(winner).Median, judge.StatsOf(second).Median
	if s == 0 {
		return nil
	}
	m := &result.Margin{RunnerUp: runnerUp, Ratio: w / s}
	if iv, ok := judge.RatioInterval(winner, second); ok {
		m.Low, m.High, m.Confidence = iv.Lo, iv.Hi, iv.Confidence
		m.Significant = iv.Lo > 1
	}
	return m
}
