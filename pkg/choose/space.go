package choose

import (
	"math"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// The figures a row's space and memory columns read, as every report
// reads them: space amplification only from judge.MinSpaceLiveBytes of
// live data on, and the peak resident memory of each run's worker
// process.
var (
	spaceAmplification = judge.Metric{Kind: "space", Stat: "amplification"}
	workerRSS          = judge.Metric{Kind: "worker", Stat: "rss"}
)

// spaceRow fills a row's space and memory columns from its complete
// speed runs: the medians over them of the database's size on disk after
// the run, of the live data it held, of its space amplification (where
// the figure's rule states one) and of the peak resident memory of the
// run's own worker process; a note says why a column has no value.
func spaceRow(row *result.ChoiceRow, runs []*result.Result) {
	var disk, live, amp, rss []float64
	for _, r := range runs {
		if !r.Complete || len(r.Phases) == 0 {
			continue
		}
		if sp := r.Space; sp != nil {
			disk = append(disk, float64(sp.AllocatedBytes))
			if sp.NotCounted == "" {
				live = append(live, float64(sp.LiveBytes))
			}
		}
		if v, ok := spaceAmplification.Value(r); ok {
			amp = append(amp, v)
		} else if row.SpaceNote == "" {
			row.SpaceNote = ampMissing(r)
		}
		if v, ok := workerRSS.Value(r); ok {
			rss = append(rss, v)
		} else if row.MemoryNote == "" {
			row.MemoryNote = workerRSS.Figure().Missing(r)
		}
	}
	row.DiskBytes, row.LiveBytes, row.PeakRSSBytes = median(disk), median(live), median(rss)
	if len(amp) > 0 {
		// Where some runs state it and others do not (live data about
		// the threshold), the median is over those that do.
		row.SpaceAmplification, row.SpaceNote = judge.StatsOf(amp).Median, ""
	}
	if len(rss) > 0 {
		row.MemoryNote = ""
	}
}

// ampMissing says why run r states no space amplification: the engine
// could not count its live data, or the figure's own reason.
func ampMissing(r *result.Result) string {
	if sp := r.Space; sp != nil && sp.NotCounted != "" {
		return sp.NotCounted
	}
	return spaceAmplification.Figure().Missing(r)
}

// median is the median of byte counts, rounded; 0 for none.
func median(vals []float64) int64 {
	if len(vals) == 0 {
		return 0
	}
	return int64(math.Round(judge.StatsOf(vals).Median))
}

// engineRSS subtracts the memory baseline, the median over its complete
// runs of its worker process's peak, from each row's peak: what the
// engine costs beside gobench's worker. Without a baseline a row with a
// peak says why it has no engine figure. The largest peak of the
// coordinating process over the speed runs is kept beside them, in no
// row.
func engineRSS(c *result.Choice, speed, baseline []*result.Result) {
	for _, r := range speed {
		c.CoordinatorMaxRSSBytes = max(c.CoordinatorMaxRSSBytes, r.CoordinatorMaxRSSBytes)
	}
	var peaks []float64
	for _, r := range baseline {
		if v, ok := workerRSS.Value(r); ok && r.Complete {
			peaks = append(peaks, v)
		}
	}
	c.BaselineRSSBytes = median(peaks)
	for i := range c.Rows {
		row := &c.Rows[i]
		switch {
		case row.PeakRSSBytes == 0:
		case c.BaselineRSSBytes == 0:
			row.MemoryNote = "the memory baseline (the " + BaselineDriver + " driver's worker) was not measured"
		default:
			row.EngineRSSBytes = row.PeakRSSBytes - c.BaselineRSSBytes
		}
	}
}
