package history

import (
	"encoding/json"
	"slices"

	"github.com/gobench/gobench/pkg/judge"
)

// build makes the series of raw samples: points by commit, normalised,
// searched.
func build(m judge.Metric, rs *rawSeries, o Options) *Series {
	f := m.Figure()
	sr := &Series{Figure: m.String(), Unit: rs.unit, Higher: f.Higher, Neutral: f.Neutral,
		Plan: rs.planHash, Command: rs.command, Cell: rs.cell, Setting: rs.settings,
		Basis: basisOf(m, rs.samples), Raw: o.Raw, Detector: o.Detector, MaxDrift: o.MaxDrift}
	_ = json.Unmarshal([]byte(rs.args), &sr.Args) // none, where a run recorded none
	var cals, all []float64
	for _, s := range rs.samples {
		if c := s.Cal.cal(sr.Basis); c > 0 {
			all = append(all, c)
			if s.Cal.Drift(sr.Basis) <= o.MaxDrift {
				cals = append(cals, c)
			}
		}
	}
	if len(cals) == 0 {
		cals = all // every calibrated run moved: normalised to them all the same
	}
	if len(cals) > 0 {
		sr.Reference = median(cals)
	}
	at := map[string]int{} // a commit's point
	for _, s := range rs.samples {
		key := s.Commit
		if key == "" {
			key = "run " + s.RunID // a run of no known commit is a point of its own
		}
		i, ok := at[key]
		if !ok {
			i = len(sr.Points)
			at[key] = i
			sr.Points = append(sr.Points, Point{Commit: s.Commit, Branch: s.Branch, At: s.StartedAt})
		}
		rv := RunValue{RunID: s.RunID, StartedAt: s.StartedAt, Machine: s.Machine, Raw: s.Value, Cal: s.Cal, Drift: s.Cal.Drift(sr.Basis),
			Normalised: normalise(s.Value, s.Cal.cal(sr.Basis), sr.Reference, f.Higher)}
		if rv.Drift > o.MaxDrift {
			rv.Excluded = true
			sr.Excluded = append(sr.Excluded, ExcludedRun{RunID: s.RunID, Commit: s.Commit, Drift: rv.Drift})
		}
		sr.Points[i].Runs = append(sr.Points[i].Runs, rv)
	}
	for i := range sr.Points {
		summarise(&sr.Points[i], o.Raw)
	}
	sr.Changes = changes(sr, o)
	return sr
}

// summarise sets a point's medians and interval from its runs.
func summarise(p *Point, raw bool) {
	value := func(r RunValue) float64 {
		if raw {
			return r.Raw
		}
		return r.Normalised
	}
	var all, kept []float64
	for _, r := range p.Runs {
		all = append(all, r.Raw)
		if !r.Excluded {
			kept = append(kept, value(r))
		}
	}
	p.Raw = median(all)
	if len(kept) == 0 { // shown, from every run, and not searched
		p.Excluded = true
		for _, r := range p.Runs {
			kept = append(kept, value(r))
		}
	}
	p.Value = median(kept)
	if iv, ok := judge.MedianInterval(kept); ok {
		p.Lo, p.Hi, p.Confidence = iv.Lo, iv.Hi, iv.Confidence
		return
	}
	p.Lo, p.Hi = slices.Min(kept), slices.Max(kept)
}

// ratioPoints is the most points on either side of a change point its
// interval of after/before reads: those nearest it. The interval forms
// every pair's ratio; thousands of points a side would cost seconds and
// say no more of the step than the nearest do.
const ratioPoints = 50

// changes searches the series' kept points and describes each change
// point found.
func changes(sr *Series, o Options) []Change {
	var idx []int // the kept points' places
	var x []float64
	for i, p := range sr.Points {
		if !p.Excluded {
			idx, x = append(idx, i), append(x, p.Value)
		}
	}
	splits := o.Detector.Find(x)
	out := make([]Change, 0, len(splits))
	for k, sp := range splits {
		lo, hi := around(splits, k, len(x))
		before, after := x[lo:sp.Index], x[sp.Index:hi]
		c := Change{Index: idx[sp.Index], Before: sr.Points[idx[sp.Index-1]].Commit, After: sr.Points[idx[sp.Index]].Commit,
			From: median(before), To: median(after), P: sp.P}
		if c.From != 0 {
			c.Step = c.To/c.From - 1
		}
		c.Ratio, c.RatioOK = judge.RatioInterval(after[:min(len(after), ratioPoints)], before[max(0, len(before)-ratioPoints):])
		c.Worse = !sr.Neutral && (c.To > c.From) != sr.Higher && c.To != c.From
		out = append(out, c)
	}
	return out
}
