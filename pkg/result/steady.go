package result

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/steady"
	"github.com/gobench/gobench/pkg/workload"
)

// SteadyCut is where --warmup auto found a phase's warm-up to end (see
// package steady): its latencies and rates are of the part after Seconds.
type SteadyCut struct {
	// Method is the rule that chose it: "MSER-5".
	Method string `json:"method"`
	// Found is false when no steady state was seen: the rule's cut fell
	// in the run's second half, or the run was too short to tell. Nothing
	// is cut then.
	Found bool `json:"found"`
	// ChosenSeconds is where the rule put the warm-up's end; Seconds where
	// the measured part begins (the boundary the phase's aggregates were
	// kept at nearest ChosenSeconds: they are kept in at most 32 stretches
	// of time, 0.5 s each in a 10 s run); 0 when nothing was cut.
	ChosenSeconds float64 `json:"chosen_s"`
	Seconds       float64 `json:"cut_s"`
	// Ops counts the data ops left out as warm-up.
	Ops int64 `json:"ops"`
	// Series names the series whose cut was latest ("throughput", "read
	// latency").
	Series string `json:"series,omitempty"`
	// TrendPerSecond is, when no steady state was found or throughput
	// did not settle, throughput's least-squares slope over the run's
	// second half, as a fraction of its mean per second (0.04: still
	// rising 4%/s).
	TrendPerSecond float64 `json:"trend_per_s,omitempty"`
	// Unsettled names a series that settled only in the run's second half
	// although the phase was found steady: "throughput", when every op
	// kind's latency settled and the rate did not (the machine's doing:
	// see steadyState.cut). Its cut is not the phase's.
	Unsettled string `json:"unsettled,omitempty"`
	// Reason says why none was found, when it was not.
	Reason string `json:"reason,omitempty"`
}

// Steady-state bookkeeping of --warmup auto, bounded whatever the run's
// length: at most steadyBins intervals of counts and latency sums per op
// kind, and steadySegments sets of the phase's aggregates; when a run
// outgrows them, neighbours merge in pairs and the width doubles.
const (
	steadyBins      = 1000
	steadySegments  = 32
	steadyBinStart  = 2 * time.Millisecond
	steadySegStart  = 32 * steadyBinStart
	minOpsPerGroup  = 10 // the fewest ops a group of intervals holds (steady.Groups)
	throughputLabel = "throughput"
)

// steadyState keeps what choosing a warm-up cut after the run needs.
type steadyState struct {
	mu       sync.Mutex
	ps       *phaseState
	binWidth time.Duration
	series   map[workload.Op]*binSeries // by data op kind
	segWidth time.Duration
	segs     []*aggSet
}

// binSeries is one op kind's counts and sums of log latency by interval:
// the series MSER-5 reads is each interval's mean log latency (the
// logarithm of its geometric mean latency, not the geometric mean), which
// one stall among thousands of fast ops moves by a little, not by orders
// of magnitude (an arithmetic mean would make any late stall look like a
// warm-up still under way).
type binSeries struct {
	n   []int64
	sum []float64 // Σ ln(latency in ns)
}

func newSteadyState(ps *phaseState) *steadyState {
	return &steadyState{ps: ps, binWidth: steadyBinStart, segWidth: steadySegStart, series: map[workload.Op]*binSeries{}}
}

// add records samples in their interval and segment of time.
func (st *steadyState) add(samples []workload.Sample) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i := range samples {
		s := &samples[i]
		end := s.Start + s.Latency
		if s.Flags&workload.FlagSkipped != 0 {
			end = s.Start
		}
		end = max(end, 0)
		seg := st.segment(end)
		a := seg.aggs[s.Op]
		if a == nil {
			a = st.ps.newAgg(s.Op)
			seg.aggs[s.Op] = a
		}
		seg.clamped += a.record(s)
		if !st.ps.isData(s.Op) || s.Flags&workload.FlagSkipped != 0 {
			continue
		}
		st.bin(s.Op, end, math.Log(float64(max(s.Latency, 1))))
	}
}

// segment returns the set of aggregates that time end falls in, folding
// the segments first if it falls beyond the last.
func (st *steadyState) segment(end time.Duration) *aggSet {
	for int(end/st.segWidth) >= steadySegments {
		var folded []*aggSet
		for i := 0; i < len(st.segs); i += 2 {
			a := st.segs[i]
			if i+1 < len(st.segs) {
				a = mergeSets(a, st.segs[i+1])
			}
			folded = append(folded, a)
		}
		st.segs, st.segWidth = folded, st.segWidth*2
	}
	i := int(end / st.segWidth)
	for len(st.segs) <= i {
		st.segs = append(st.segs, &aggSet{})
	}
	return st.segs[i]
}

// mergeSets merges b into a (either may be empty) and returns a.
func mergeSets(a, b *aggSet) *aggSet {
	a.clamped += b.clamped
	for op, x := range b.aggs {
		if x == nil {
			continue
		}
		if a.aggs[op] == nil {
			a.aggs[op] = x
			continue
		}
		a.aggs[op].merge(x)
	}
	return a
}

// bin adds one op's log latency to its interval, folding first if needed.
func (st *steadyState) bin(op workload.Op, end time.Duration, lat float64) {
	for int(end/st.binWidth) >= steadyBins {
		for _, s := range st.series {
			s.fold()
		}
		st.binWidth *= 2
	}
	s := st.series[op]
	if s == nil {
		s = &binSeries{}
		st.series[op] = s
	}
	i := int(end / st.binWidth)
	for len(s.n) <= i {
		s.n = append(s.n, 0)
		s.sum = append(s.sum, 0)
	}
	s.n[i]++
	s.sum[i] += lat
}

// fold merges neighbouring intervals in pairs.
func (s *binSeries) fold() {
	for i := 0; i < len(s.n); i += 2 {
		n, sum := s.n[i], s.sum[i]
		if i+1 < len(s.n) {
			n, sum = n+s.n[i+1], sum+s.sum[i+1]
		}
		s.n[i/2], s.sum[i/2] = n, sum
	}
	h := (len(s.n) + 1) / 2
	s.n, s.sum = s.n[:h], s.sum[:h]
}

// cut chooses the warm-up's end for a phase that lasted wall: the latest
// of MSER-5's cuts on each op kind's mean log latency (the logarithm of
// its geometric mean; a kind with too few ops to tell is left out) and on
// throughput. Any latency series with no steady state makes the phase's.
// Throughput decides alone only when no kind has ops enough: beside
// latencies that settled, a rate that did not is the machine's, not the
// store's (in a closed loop a worker's rate moves without its latencies
// only when it waits between ops, for a CPU; in an open loop the schedule
// sets it), so it is named and its trend given, and its cut counts only
// when it settled. Each
// series is batched by completions (steady.Groups): its intervals merge in
// time order into groups of at least minOpsPerGroup ops, so a bursty run,
// whose short intervals mostly hold nothing, gives MSER-5 a mean for every
// group and no padding to mistake for a steady tail.
func (st *steadyState) cut(wall time.Duration, names *[workload.MaxOp]string) SteadyCut {
	st.mu.Lock()
	defer st.mu.Unlock()
	whole := int(wall / st.binWidth) // intervals the phase covered whole
	c := SteadyCut{Method: "MSER-5", Found: true}
	tput := make([]float64, whole)
	total := make([]int64, whole)
	var cuts []groupCut
	for op, s := range st.series {
		n := make([]int64, whole)
		sum := make([]float64, whole)
		var ops int64
		for i := range min(whole, len(s.n)) {
			n[i], sum[i] = s.n[i], s.sum[i]
			tput[i] += float64(s.n[i])
			total[i] += s.n[i]
			ops += s.n[i]
		}
		if ops < minOpsPerGroup*steady.Batch*steady.MinBatches {
			continue
		}
		// ops enough may still group into too few batches (a group
		// holds at least minOpsPerGroup, a burst many more): such a kind
		// is too short to tell, as one with fewer ops is, and says
		// nothing of the phase's steady state
		if k := cutGroups(n, sum, names[op]+" latency"); k.Batches >= steady.MinBatches {
			cuts = append(cuts, k)
		}
	}
	t := cutGroups(total, nil, throughputLabel)
	if t.Batches < steady.MinBatches {
		c.Found = false
		c.Reason = fmt.Sprintf("too short to tell: %d batches of %d groups of %d+ ops, %d needed", t.Batches, steady.Batch, minOpsPerGroup, steady.MinBatches)
		return c
	}
	if len(cuts) == 0 || t.Steady {
		cuts = append(cuts, t)
	} else {
		c.Unsettled = throughputLabel
		c.TrendPerSecond = trend(tput[len(tput)/2:], st.binWidth)
	}
	latest := cuts[0]
	for _, k := range cuts {
		switch {
		case !k.Steady:
			c.Found, c.Series = false, k.series
		case k.at > latest.at:
			latest = k
		}
	}
	if !c.Found {
		c.Unsettled = ""
		c.TrendPerSecond = trend(tput[len(tput)/2:], st.binWidth)
		c.Reason = "settles only in the run's second half"
		return c
	}
	c.Series = latest.series
	c.ChosenSeconds = (time.Duration(latest.at) * st.binWidth).Seconds()
	if latest.at > 0 {
		// the kept boundary nearest the rule's cut: at most half a
		// segment of warm-up is measured or of steady state left out
		c.Seconds = math.Round(c.ChosenSeconds/st.segWidth.Seconds()) * st.segWidth.Seconds()
	}
	if c.Seconds >= wall.Seconds() {
		c.Seconds = 0 // nothing would be left
	}
	return c
}

// groupCut is MSER-5's verdict on one series batched by completions: at
// is the interval the measured part begins at.
type groupCut struct {
	steady.Cut
	at     int
	series string
}

// cutGroups applies MSER-5 to a series of intervals grouped by
// completions (steady.Groups): with sums, each group's mean of them per
// op (mean log latency); without, its ops per interval (throughput).
func cutGroups(n []int64, sums []float64, series string) groupCut {
	bounds := steady.Groups(n, minOpsPerGroup)
	obs := make([]float64, 0, len(bounds))
	for g := 0; g+1 < len(bounds); g++ {
		var ops int64
		var sum float64
		for i := bounds[g]; i < bounds[g+1]; i++ {
			ops += n[i]
			if sums != nil {
				sum += sums[i]
			}
		}
		if sums != nil {
			obs = append(obs, sum/float64(ops))
		} else {
			obs = append(obs, float64(ops)/float64(bounds[g+1]-bounds[g]))
		}
	}
	k := groupCut{Cut: steady.MSER5(obs), series: series}
	if k.Drop > 0 {
		k.at = bounds[k.Observations()]
	}
	return k
}

// trend is the least-squares slope of throughput over intervals of width,
// in batches, as a fraction of its mean per second.
func trend(xs []float64, width time.Duration) float64 {
	var z []float64
	for i := 0; i+steady.Batch <= len(xs); i += steady.Batch {
		var sum float64
		for _, x := range xs[i : i+steady.Batch] {
			sum += x
		}
		z = append(z, sum)
	}
	return steady.Slope(z) / (float64(steady.Batch) * width.Seconds())
}

// after returns the phase's aggregates by op kind from time cut on.
func (st *steadyState) after(cut time.Duration) (merged [workload.MaxOp]*opAgg, clamped int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, seg := range st.segs {
		if time.Duration(i)*st.segWidth < cut {
			continue
		}
		clamped += seg.clamped
		for op, a := range seg.aggs {
			if a == nil {
				continue
			}
			if merged[op] == nil {
				merged[op] = st.ps.newAgg(workload.Op(op))
			}
			merged[op].merge(a)
		}
	}
	return merged, clamped
}
