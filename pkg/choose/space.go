package choose

import (
	"math"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// The figures a row's space and memory columns read, as every report
// reads them: space amplification only from judge.MinSpaceLiveBytes of
// live data on, and each run's own peak resident memory.
var (
	spaceAmplification = judge.Metric{Kind: "space", Stat: "amplification"}
	workerRSS          = judge.Metric{Kind: "worker", Stat: "rss"}
)

// spaceRow fills a row's space and memory columns from its complete
// speed runs: the medians over them of the database's size on disk after
// the run, of the live data it held, of its space amplification (where
// the figure's rule states one) and of the run's own peak resident
// memory; a note says why a column has no value.
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
