package result

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Merge combines suites (and single results, as suites of one cell) into
// one. Runs that are shards of one run (the same settings and repeat, each
// with its own Shard index) become one run whose histograms are merged
// losslessly, counts summed and workers united; every other run keeps its
// place as a repeat of its cell. Runs of different workloads are refused.
// A merge that yields a single run returns it as a suite of one cell.
//
// Suites that are shards of one job split by its runs (Suite.Shard, from
// --shard I/N) become the job's suite instead: each run in its cell and
// repeat, as one machine would have run them all; runs no shard brought
// are named in the suite's Missing.
func Merge(suites []*Suite) (*Suite, error) {
	if len(suites) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	for _, s := range suites {
		if s.Shard != nil {
			return mergeJob(suites)
		}
	}
	type shardKey struct {
		settings string
		repeat   int
		count    int
	}
	var runs []*Result
	groups := map[shardKey][]*Result{}
	var order []shardKey
	command := suites[0].Command
	for _, s := range suites {
		for _, c := range s.Cells {
			for i, r := range c.Runs {
				if r.Plan.Shard == nil {
					runs = append(runs, r)
					continue
				}
				k := shardKey{PlanSettings(&r.Plan).String(), i, r.Plan.Shard.Count}
				if _, ok := groups[k]; !ok {
					order = append(order, k)
				}
				groups[k] = append(groups[k], r)
			}
		}
	}
	for _, k := range order {
		m, err := MergeShards(groups[k])
		if err != nil {
			return nil, fmt.Errorf("%s, repeat %d: %w", k.settings, k.repeat+1, err)
		}
		runs = append(runs, m)
	}
	out, err := NewSuite(command, "merged", runs, "")
	if err == nil {
		out.Shape, out.Reference = suites[0].Shape, suites[0].Reference
	}
	return out, err
}

// MergeShards combines the shards of one run into one result. Shards must
// be of the same workload and settings and carry distinct indices of one
// shard count; a missing shard leaves the result incomplete, saying which.
func MergeShards(shards []*Result) (*Result, error) {
	first := shards[0]
	count := first.Plan.Shard.Count
	seen := map[int]bool{}
	for _, r := range shards {
		if err := SameWorkload(first, r); err != nil {
			return nil, err
		}
		if a, b := PlanSettings(&first.Plan).String(), PlanSettings(&r.Plan).String(); a != b {
			return nil, fmt.Errorf("shards of different settings: %s and %s", a, b)
		}
		if r.Plan.Shard == nil || r.Plan.Shard.Count != count {
			return nil, fmt.Errorf("shards of different shard counts")
		}
		if seen[r.Plan.Shard.Index] {
			return nil, fmt.Errorf("shard %s given twice", r.Plan.Shard)
		}
		seen[r.Plan.Shard.Index] = true
	}
	out := *first
	out.Plan.Shard = nil
	out.Problems = nil
	out.Complete = true
	out.Phases = nil
	out.Gates = nil // a shard's gates judged the shard, not the whole
	for _, r := range shards {
		out.Complete = out.Complete && r.Complete
		for _, p := range r.Problems {
			out.Problems = append(out.Problems, fmt.Sprintf("shard %s: %s", r.Plan.Shard, p))
		}
		out.CoordinatorMaxRSSBytes = max(out.CoordinatorMaxRSSBytes, r.CoordinatorMaxRSSBytes)
		if r.StartedAt.Before(out.StartedAt) {
			out.StartedAt = r.StartedAt
		}
	}
	for i := range count {
		if !seen[i] {
			out.Complete = false
			out.Problems = append(out.Problems, fmt.Sprintf("shard %s is missing", workload.Shard{Index: i, Count: count}))
			out.Plan.Shard = first.Plan.Shard // still a partial run
		}
	}
	out.Shards, out.Warnings = shardOrigins(shards)
	// Each shard set up its own database and its workers opened and
	// closed their connections: the I/O outside the phases is all of
	// theirs, summed.
	out.IOSetup = sumIO(shards, func(r *Result) *store.IOCounts { return r.IOSetup })
	out.IOOutside = sumIO(shards, func(r *Result) *store.IOCounts { return r.IOOutside })
	for pi := range first.Phases {
		ph, err := mergePhase(shards, pi)
		if err != nil {
			return nil, err
		}
		out.Phases = append(out.Phases, ph)
	}
	if first.Warmup != nil {
		w := Warmup{}
		for _, r := range shards {
			if r.Warmup != nil {
				w.Ops += r.Warmup.Ops
				w.Errors.Add(r.Warmup.Errors)
				w.WallSeconds = max(w.WallSeconds, r.Warmup.WallSeconds)
			}
		}
		if w.WallSeconds > 0 {
			w.OpsPerSec = float64(w.Ops-w.Errors.Total) / w.WallSeconds
		}
		out.Warmup = &w
	}
	return &out, nil
}

// shardOrigins lists where and when each shard ran, in shard order, and
// warns when shards on one host ran against different database files:
// each file then saw only its own shard's workers, so locks were contended
// less than in one run of all of them.
func shardOrigins(shards []*Result) ([]ShardOrigin, []string) {
	var out []ShardOrigin
	dbs := map[string][]string{} // host -> its distinct database paths
	shards = slices.Clone(shards)
	slices.SortFunc(shards, func(a, b *Result) int { return a.Plan.Shard.Index - b.Plan.Shard.Index })
	for _, r := range shards {
		o := ShardOrigin{Shard: r.Plan.Shard.String(), Host: r.Environment.Host, Database: r.Plan.Store.Path, StartedAt: r.StartedAt}
		if len(r.Phases) > 0 {
			for _, w := range r.Phases[0].Workers {
				o.Workers = append(o.Workers, w.ID)
			}
		}
		out = append(out, o)
		if !slices.Contains(dbs[o.Host], o.Database) {
			dbs[o.Host] = append(dbs[o.Host], o.Database)
		}
	}
	var warnings []string
	for _, host := range slices.Sorted(maps.Keys(dbs)) {
		if paths := dbs[host]; len(paths) > 1 {
			name := host
			if name == "" {
				name = "one machine"
			}
			warnings = append(warnings, fmt.Sprintf("shards on %s ran against %d different database files (%s): each file saw only its own shard's workers, so lock contention was lower than in one run of all workers on one file",
				name, len(paths), strings.Join(paths, ", ")))
		}
	}
	return out, warnings
}

// mergePhase merges phase pi of every shard: op measurements from their
// histograms, timelines second by second, workers side by side.
func mergePhase(shards []*Result, pi int) (Phase, error) {
	ph := Phase{Name: shards[0].Phases[pi].Name, Size: shards[0].Phases[pi].Size, WAL: shards[0].Phases[pi].WAL} // the first shard's database
	aggs := map[string]*opAgg{}
	var kinds []string
	timeline := map[int64]map[string]*SecondOps{}
	for _, r := range shards {
		sp := r.Phases[pi]
		ph.WallSeconds = max(ph.WallSeconds, sp.WallSeconds)
		if t := sp.StartedAt; !t.IsZero() && (ph.StartedAt.IsZero() || t.Before(ph.StartedAt)) {
			ph.StartedAt = t // shards started on other clocks: the earliest, for reference
		}
		ph.StartSkewMicros = max(ph.StartSkewMicros, sp.StartSkewMicros)
		ph.LastFirstOpMicros = max(ph.LastFirstOpMicros, sp.LastFirstOpMicros)
		ph.ClampedSamples += sp.ClampedSamples
		ph.Workers = append(ph.Workers, sp.Workers...)
		for _, o := range sp.Ops {
			a, err := aggOf(o)
			if err != nil {
				return ph, err
			}
			if aggs[o.Kind] == nil {
				aggs[o.Kind] = a
				kinds = append(kinds, o.Kind)
				continue
			}
			aggs[o.Kind].merge(a)
		}
		for _, s := range sp.Timeline {
			mergeSecond(timeline, s)
		}
	}
	if err := sortWorkers(ph.Workers); err != nil {
		return ph, err
	}
	p := shards[0].Plan
	total := newOpAgg(p.Rate > 0, p.Busy == workload.BusyRetry)
	var measured float64
	ph.Steady, measured = mergeSteady(shards, pi)
	for _, k := range kinds {
		ph.Ops = append(ph.Ops, aggs[k].stats(k, measured))
		if p.IsDataKind(k) {
			total.merge(aggs[k])
		}
	}
	ph.Total = total.stats("total", measured)
	ph.WorkerSpread, ph.CPU = spread(ph.Workers), mergeCPU(shards, pi, ph.Total.Count)
	ph.IO = mergeIO(shards, pi, &ph)
	roles, err := mergeRoles(shards, pi, ph.Workers)
	if err != nil {
		return ph, err
	}
	ph.Roles = roles
	secs := make([]int64, 0, len(timeline))
	for s := range timeline {
		secs = append(secs, s)
	}
	slices.Sort(secs)
	for _, s := range secs {
		e := Second{Second: s, Ops: []SecondOps{}}
		for _, k := range kinds {
			if so := timeline[s][k]; so != nil {
				e.Ops = append(e.Ops, *so)
			}
		}
		ph.Timeline = append(ph.Timeline, e)
	}
	if n := len(ph.Timeline); n > 0 {
		last := &ph.Timeline[n-1]
		last.Length = partialLength(last.Second, time.Duration(ph.WallSeconds*float64(time.Second)))
	}
	return ph, nil
}

// classCounts recovers an op kind's counts by outcome class.
func classCounts(o OpStats) [store.NumClasses]int64 {
	var c [store.NumClasses]int64
	c[store.NotFound] = o.NotFound
	for _, cl := range ErrorClasses() {
		c[cl] = o.Errors.Of(cl)
	}
	c[store.OK] = o.Count - o.NotFound - o.Errors.Total
	return c
}

// mergeCPU sums the shards' processor time over phase pi, per op of the
// merged total; nil unless every shard measured it, in the same scope.
// Their coordinators' times are summed likewise, and left out unless every
// shard has one.
func mergeCPU(shards []*Result, pi int, ops int64) *CPU {
	var c CPU
	coord := &CPUTime{}
	for i, r := range shards {
		sc := r.Phases[pi].CPU
		if sc == nil || (i > 0 && sc.Scope != c.Scope) {
			return nil
		}
		c.Scope = sc.Scope
		c.add(*sc)
		if co := sc.Coordinator; co != nil && coord != nil {
			coord.UserSeconds += co.UserSeconds
			coord.SystemSeconds += co.SystemSeconds
		} else {
			coord = nil
		}
	}
	c.Coordinator = coord
	return c.per(ops)
}

// mergeIO sums the shards' file I/O over phase pi (every process's
// counts) and reads it per commit of the merged phase ph; nil unless
// every shard traced it.
func mergeIO(shards []*Result, pi int, ph *Phase) *PhaseIO {
	var files store.IOCounts
	procs := 0
	for _, r := range shards {
		sio := r.Phases[pi].IO
		if sio == nil {
			return nil
		}
		files.Add(sio.Files)
		procs += sio.Processes
	}
	p := shards[0].Plan
	return newPhaseIO(files, procs, ph, &p.Phases[pi], &p)
}

// sumIO sums the I/O counts every shard has; nil unless all have them.
func sumIO(shards []*Result, of func(*Result) *store.IOCounts) *store.IOCounts {
	var out store.IOCounts
	for _, r := range shards {
		c := of(r)
		if c == nil {
			return nil
		}
		out.Add(*c)
	}
	return &out
}

// sortWorkers sorts a merged phase's workers by id, and refuses a worker
// two shards claim.
func sortWorkers(ws []Worker) error {
	sort.Slice(ws, func(i, j int) bool { return ws[i].ID < ws[j].ID })
	for i := 1; i < len(ws); i++ {
		if id := ws[i].ID; id == ws[i-1].ID {
			return fmt.Errorf("worker %d is in two shards: they are not shards of one run", id)
		}
	}
	return nil
}

// mergeSecond adds a shard's second s to the merged timeline, by second
// and kind.
func mergeSecond(timeline map[int64]map[string]*SecondOps, s Second) {
	if timeline[s.Second] == nil {
		timeline[s.Second] = map[string]*SecondOps{}
	}
	for _, so := range s.Ops {
		m := timeline[s.Second][so.Kind]
		if m == nil {
			m = &SecondOps{Kind: so.Kind}
			timeline[s.Second][so.Kind] = m
		}
		m.Count += so.Count
		m.Errors += so.Errors
		m.Retries += so.Retries
		// Per-second percentiles are not kept as histograms: the merge
		// keeps the worst shard's, an upper bound.
		m.P50Micros = max(m.P50Micros, so.P50Micros)
		m.P99Micros = max(m.P99Micros, so.P99Micros)
		m.MaxMicros = max(m.MaxMicros, so.MaxMicros)
	}
}

// mergeSteady merges the shards' warm-up cuts of phase pi (--warmup auto):
// each shard's ops are those after its own cut; the merged cut is the
// latest, found only where every shard's was, and the time the merged
// rates divide by is the longest any shard measured after its cut. It
// returns nil and the phase's wall time without cuts.
func mergeSteady(shards []*Result, pi int) (*SteadyCut, float64) {
	var out *SteadyCut
	var measured float64
	for _, r := range shards {
		sp := r.Phases[pi]
		c := sp.Steady
		if c == nil {
			measured = max(measured, sp.WallSeconds)
			continue
		}
		measured = max(measured, sp.WallSeconds-c.Seconds)
		if out == nil {
			cc := *c
			out = &cc
			continue
		}
		out.Ops += c.Ops
		if !c.Found && out.Found {
			out.Found, out.Reason, out.Series, out.TrendPerSecond, out.Unsettled = false, c.Reason, c.Series, c.TrendPerSecond, ""
		}
		if c.Unsettled != "" && out.Found && out.Unsettled == "" {
			out.Unsettled, out.TrendPerSecond = c.Unsettled, c.TrendPerSecond
		}
		if c.Seconds > out.Seconds {
			out.Seconds, out.ChosenSeconds, out.Series = c.Seconds, c.ChosenSeconds, c.Series
		}
	}
	return out, measured
}
