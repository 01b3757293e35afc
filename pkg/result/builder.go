package result

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Builder turns the samples of a run into a Result. It hands one Recorder
// to each worker and phase (it is a workload.Collector). Memory is bounded
// by the number of workers and op kinds, plus a small summary per second
// of timeline: never by the number of ops.
//
// Sink may be called concurrently; each Recorder is then used by one
// goroutine at a time. Result must be called after every Recorder is done
// with (the workers have returned).
type Builder struct {
	plan   *workload.Plan
	mu     sync.Mutex
	phases []*phaseState
	ledger WriteLedger
	// setup and outside are the file I/O of the store's setup and of the
	// worker processes outside every phase (nil where not traced).
	setup, outside *store.IOCounts
}

// WriteLedger receives every write op's record, for verification after the
// run (Plan.Verify). Add may be called from several goroutines at once.
type WriteLedger interface {
	Add(workload.WriteRecord)
}

// Interval is one finished second of a phase's timeline: its summary and
// its latency histograms per op kind (in nanoseconds, at two significant
// digits), which the receiver owns. Start is the wall-clock instant of
// the phase's START (see Builder.SetStart; zero if not set): the second
// began Second.Second seconds after it and lasted Second.Span().
type Interval struct {
	Phase      int
	Start      time.Time
	Second     Second
	Histograms map[string]*hdr.Histogram
}

// Observe calls f with every second of the timeline as soon as every
// worker has moved past it (typically a second or less behind the run),
// in order, for live progress and interval logs. f runs with the timeline
// locked, on whichever goroutine finished the second: it should hand the
// interval off quickly. Call Observe before the run starts.
func (b *Builder) Observe(f func(Interval)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ps := range b.phases {
		ps.tl.mu.Lock()
		ps.tl.observe = f
		ps.tl.mu.Unlock()
	}
}

// SetWriteLedger makes every Recorder created afterwards log its writes.
func (b *Builder) SetWriteLedger(l WriteLedger) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ledger = l
}

var _ workload.Collector = (*Builder)(nil)

// aggSet is one set of a phase's histograms and counts by op kind.
type aggSet struct {
	mu      sync.Mutex
	aggs    [workload.MaxOp]*opAgg
	clamped int64
}

type phaseState struct {
	recorders []*Recorder // by worker id
	// sets hold every worker's samples, by op kind, as their Recorders
	// pass them on: worker w's in sets[w%len(sets)], one set per
	// processor the coordinator may use, so that as many readers record
	// at once without waiting for each other, while the sets stay few
	// enough to stay in the caches. They are merged into the result.
	sets     []*aggSet
	pids     []int // by worker id
	size     *DiskSize
	cache    string
	wal      *WALTimeline
	walSeq   uint32 // the log's reset counter at the last sample
	walSeen  bool
	openLoop bool // the plan runs open-loop: record service time and lag
	retry    bool // the retry busy policy: record lock waits
	skew     time.Duration
	started  time.Time
	tl       timeline
	cpu      *CPU // summed over the processes that reported
	io       *store.IOCounts
	ioProcs  int
	coord    *CPUTime
	steady   *steadyState // --warmup auto: what choosing the cut needs
	roles    *roleAggs    // per role, for a plan with roles; nil without
}

// isData reports whether op is a data op of the phase's plan, counted in
// its throughput: a key-value op, a script, or a replayed statement (which
// no other plan deals).
func (ps *phaseState) isData(op workload.Op) bool {
	return op.IsData() || op.IsStatement()
}

// NewBuilder returns a Builder for a run of plan, which must be valid.
func NewBuilder(plan *workload.Plan) *Builder {
	b := &Builder{plan: plan}
	names := plan.OpNames()
	for i := range plan.RunPhases() {
		ps := &phaseState{recorders: make([]*Recorder, plan.Workers()), pids: make([]int, plan.Workers()),
			openLoop: plan.Timed(), retry: plan.Busy == workload.BusyRetry}
		for range max(min(runtime.GOMAXPROCS(0), plan.Workers()), 1) {
			ps.sets = append(ps.sets, &aggSet{})
		}
		if plan.WarmupAuto && !plan.IsWarmup(i) {
			ps.steady = newSteadyState(ps)
		}
		ps.roles = newRoleAggs(plan)
		ps.tl.init(plan.Workers())
		ps.tl.phase = i
		ps.tl.names = &names
		b.phases = append(b.phases, ps)
	}
	return b
}

// Sink returns the Recorder of worker in phase (the same one on every
// call).
func (b *Builder) Sink(worker, phase int) workload.Sink { return b.Recorder(worker, phase) }

// Recorder returns the Recorder of worker in phase, creating it on first
// use. It panics on a worker or phase outside the plan: callers check ids
// from outside input first.
func (b *Builder) Recorder(worker, phase int) *Recorder {
	b.mu.Lock()
	defer b.mu.Unlock()
	ps := b.phases[phase]
	r := ps.recorders[worker]
	if r == nil {
		r = &Recorder{ps: ps, worker: worker, phase: phase, ledger: b.ledger}
		ps.recorders[worker] = r
	}
	return r
}

// Finished reports whether worker reported the end of run phase phase
// (warm-up included, as Plan.RunPhases counts them). Call it once the
// workers are done.
func (b *Builder) Finished(worker, phase int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if phase < 0 || phase >= len(b.phases) || worker < 0 || worker >= len(b.phases[phase].recorders) {
		return false
	}
	r := b.phases[phase].recorders[worker]
	return r != nil && r.finished
}

// SetStart records the wall-clock instant of phase's START: the time line
// of the result and of its intervals counts from it. Call it before the
// phase's workers start.
func (b *Builder) SetStart(phase int, at time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ps := b.phases[phase]
	ps.started = at
	ps.tl.mu.Lock()
	ps.tl.start = at
	ps.tl.mu.Unlock()
}

// SetStartSkew records how long releasing every worker from the START
// barrier of phase took.
func (b *Builder) SetStartSkew(phase int, d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.phases[phase].skew = d
}

// SetSize records the database's size on disk at the end of phase.
func (b *Builder) SetSize(phase int, apparent, allocated int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.phases[phase].size = &DiskSize{ApparentBytes: apparent, AllocatedBytes: allocated}
}

// SetPageCache records what became of the store's files in the OS page
// cache before phase: "dropped", or why they could not be.
func (b *Builder) SetPageCache(phase int, note string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.phases[phase].cache = note
}

// RecordWAL adds a sample of the write-ahead log taken during phase, at
// second (from its START): its size and its reset counter as the engine
// reports it. Samples come in time order; a counter that goes back (a log
// deleted and made anew) starts a new baseline.
func (b *Builder) RecordWAL(phase int, second, bytes int64, seq uint32) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ps := b.phases[phase]
	if ps.wal == nil {
		ps.wal = &WALTimeline{Seconds: []WALSecond{}}
	}
	l := ps.wal
	if ps.walSeen && seq > ps.walSeq {
		l.Resets += int64(seq - ps.walSeq)
	}
	ps.walSeq, ps.walSeen = seq, true
	l.MaxBytes = max(l.MaxBytes, bytes)
	if n := len(l.Seconds); n > 0 && l.Seconds[n-1].Second >= second {
		last := &l.Seconds[n-1]
		last.Bytes, last.Resets = max(last.Bytes, bytes), l.Resets
		return
	}
	l.Seconds = append(l.Seconds, WALSecond{Second: second, Bytes: bytes, Resets: l.Resets})
}

// AddCPU adds one process's processor time over phase, of scope
// CPUWorkers or CPUProcess.
func (b *Builder) AddCPU(phase int, scope string, cpu workload.CPU) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ps := b.phases[phase]
	if ps.cpu == nil {
		ps.cpu = &CPU{Scope: scope}
	}
	ps.cpu.add(CPU{Processes: 1, UserSeconds: cpu.User.Seconds(), SystemSeconds: cpu.System.Seconds()})
}

// SetCoordinatorCPU records the coordinator process's own processor time
// over phase, from START until the last of its workers finished (see
// CPU.Coordinator).
func (b *Builder) SetCoordinatorCPU(phase int, cpu workload.CPU) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.phases[phase].coord = &CPUTime{UserSeconds: cpu.User.Seconds(), SystemSeconds: cpu.System.Seconds()}
}

// SetPID records the process that runs worker in phase.
func (b *Builder) SetPID(worker, phase, pid int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.phases[phase].pids[worker] = pid
}

// Recorder aggregates one worker's samples for one phase: a latency
// histogram and outcome counts per op kind, and the current second of the

// Result assembles the result of the run. Command, StartedAt and the
// Environment are for the caller to fill in (coord.Run does). A worker
// that never finished its phase, or whose sample count did not match,
// makes the result incomplete, with the reason in Problems.
func (b *Builder) Result() *Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &Result{
		SchemaVersion: SchemaVersion,
		Tool:          ToolInfo(),
		Plan:          *b.plan,
	}
	mine := map[int]bool{}
	for _, id := range b.plan.WorkerIDs() {
		mine[id] = true
	}
	run := b.plan.RunPhases()
	for i, ps := range b.phases {
		ph, problems := ps.build(run[i].Name, mine, run[i].Ops == 0)
		r.Problems = append(r.Problems, problems...)
		if ps.io != nil {
			ph.IO = newPhaseIO(*ps.io, ps.ioProcs, &ph, &run[i], b.plan)
		}
		if b.plan.IsWarmup(i) {
			r.Warmup = &Warmup{Ops: ph.Total.Count, Errors: ph.Total.Errors, WallSeconds: ph.WallSeconds, OpsPerSec: ph.Total.OpsPerSec}
			continue
		}
		r.Phases = append(r.Phases, ph)
	}
	r.Complete = len(r.Problems) == 0
	r.IOSetup, r.IOOutside = b.setup, b.outside
	return r
}

// build summarises a phase over the workers this run ran (all of them, or
// its shard's). timed says the phase runs until its duration is over, not
// until each worker has run its count of ops: a worker's longest gap then
// reaches to the phase's end.
func (ps *phaseState) build(name string, mine map[int]bool, timed bool) (Phase, []string) {
	ph := Phase{Name: name, StartedAt: ps.started, StartSkewMicros: micros(int64(ps.skew)), Timeline: ps.tl.flush(), Size: ps.size, PageCache: ps.cache, WAL: ps.wal}
	var problems []string
	var wall time.Duration
	for _, r := range ps.recorders {
		if r != nil {
			r.flush() // a worker that never finished leaves samples pending
		}
	}
	for id, r := range ps.recorders {
		if !mine[id] {
			continue
		}
		w := Worker{ID: id, PID: ps.pids[id]}
		if r != nil {
			wall = max(wall, r.end)
			w.Finished = r.finished
			w.Seconds = r.end.Seconds()
			w.FirstOpMicros = micros(int64(r.first))
			ph.LastFirstOpMicros = max(ph.LastFirstOpMicros, w.FirstOpMicros)
			w.Ops, w.Errors = r.ops, r.errors
			if w.Seconds > 0 {
				w.OpsPerSec = float64(w.Ops-w.Errors) / w.Seconds
			}
			r.ownFigures(&w)
			if r.finished && r.reported != r.samples {
				problems = append(problems, fmt.Sprintf("phase %s: worker %d sent %d samples but %d arrived", name, id, r.reported, r.samples))
			}
		}
		if !w.Finished {
			problems = append(problems, fmt.Sprintf("phase %s: worker %d did not finish", name, id))
		}
		ph.Workers = append(ph.Workers, w)
	}
	ph.WallSeconds = wall.Seconds()
	for i := range ph.Workers {
		// In a timed phase, the gap from a worker's last completion to
		// the phase's end (a worker that ran its count of ops is done).
		if r := ps.recorders[ph.Workers[i].ID]; r != nil && r.lat != nil && timed {
			ph.Workers[i].MaxGapMicros = micros(int64(max(r.maxGap, wall-r.lastEnd)))
		}
	}
	if n := len(ph.Timeline); n > 0 {
		last := &ph.Timeline[n-1]
		last.Length = partialLength(last.Second, wall)
	}
	merged, clamped := ps.merged()
	measured := ph.WallSeconds
	if ps.steady != nil {
		c := ps.steady.cut(ps.allRunning(wall), ps.tl.names)
		if c.Seconds > 0 {
			all := ps.total(merged).lat.TotalCount()
			merged, clamped = ps.steady.after(time.Duration(c.Seconds * float64(time.Second)))
			c.Ops = all - ps.total(merged).lat.TotalCount()
			measured -= c.Seconds
		}
		ph.Steady = &c
	}
	ph.ClampedSamples = clamped
	for op, a := range merged {
		if a != nil {
			ph.Ops = append(ph.Ops, a.stats(ps.tl.names[op], measured))
		}
	}
	ph.Total = ps.total(merged).stats("total", measured)
	ph.WorkerSpread = spread(ph.Workers)
	ph.Roles = ps.roles.build(ps, ph.Workers)
	if ps.cpu != nil {
		c := *ps.cpu
		if ps.coord != nil && c.Scope == CPUWorkers {
			c.Coordinator = ps.coord
		}
		ph.CPU = c.per(ph.Total.Count)
	}
	return ph, problems
}

// allRunning is how long into a phase that lasted wall every worker was
// still running: once one has run its count of ops and stopped, the
// throughput falls for reasons no steady state explains.
func (ps *phaseState) allRunning(wall time.Duration) time.Duration {
	for _, r := range ps.recorders {
		if r != nil && r.finished {
			wall = min(wall, r.end)
		}
	}
	return wall
}

// merged returns the phase's aggregates by op kind, every set's merged,
// and the samples clamped.
func (ps *phaseState) merged() (merged [workload.MaxOp]*opAgg, clamped int64) {
	for _, set := range ps.sets {
		clamped += set.clamped
		for op, a := range set.aggs {
			if a == nil {
				continue
			}
			if merged[op] == nil {
				merged[op] = ps.newAgg(workload.Op(op))
			}
			merged[op].merge(a)
		}
	}
	return merged, clamped
}

// total merges the data ops' aggregates.
func (ps *phaseState) total(merged [workload.MaxOp]*opAgg) *opAgg {
	total := newOpAgg(ps.openLoop, ps.retry)
	for op, a := range merged {
		if a != nil && ps.isData(workload.Op(op)) {
			total.merge(a)
		}
	}
	return total
}

// record adds samples to the set's aggregates, each op kind's made as
// phase ps makes them, and counts those clamped. The caller holds set.mu.
func (set *aggSet) record(ps *phaseState, samples []workload.Sample) {
	for i := range samples {
		s := &samples[i]
		a := set.aggs[s.Op]
		if a == nil {
			a = ps.newAgg(s.Op)
			set.aggs[s.Op] = a
		}
		set.clamped += a.record(s)
	}
}

// add adds samples of worker to the phase's histograms and counts.
func (ps *phaseState) add(worker int, samples []workload.Sample) {
	set := ps.sets[worker%len(ps.sets)]
	set.mu.Lock()
	defer set.mu.Unlock()
	set.record(ps, samples)
	if ps.steady != nil {
		ps.steady.add(samples)
	}
	ps.roles.add(ps, worker, samples)
}

// newAgg returns the aggregate of op in this phase: with the open-loop
// views and the retry policy's lock waits where the plan has them, except
// for a script's statements, which are neither scheduled nor retried on
// their own (their script is).
func (ps *phaseState) newAgg(op workload.Op) *opAgg {
	if op.IsStatement() {
		return newOpAgg(false, false)
	}
	return newOpAgg(ps.openLoop, ps.retry)
}

func micros(ns int64) float64 { return float64(ns) / 1e3 }

func spread(ws []Worker) Spread {
	var rates []float64
	for _, w := range ws {
		if w.Finished {
			rates = append(rates, w.OpsPerSec)
		}
	}
	if len(rates) == 0 {
		return Spread{}
	}
	slices.Sort(rates)
	return Spread{MinOpsPerSec: rates[0], MedianOpsPerSec: median(rates), MaxOpsPerSec: rates[len(rates)-1]}
}

// median of sorted values.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
