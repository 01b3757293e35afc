package workload

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Worker modes.
const (
	// ModeProcess runs each group of Goroutines workers in its own OS
	// process, each with its own database connection.
	ModeProcess = "process"
	// ModeGoroutine runs every worker as a goroutine of one process.
	ModeGoroutine = "goroutine"
)

// Error policies.
const (
	// OnErrorStop stops the run at the first error that is not busy,
	// locked or not-found.
	OnErrorStop = "stop"
	// OnErrorContinue counts every error and goes on.
	OnErrorContinue = "continue"
)

// Plan is everything a run needs, as plain data: the store to open, what
// to preload, the phases and who runs them. Worker processes receive it as
// JSON on stdin; results carry it. Build one with DefaultPlan and adjust.
type Plan struct {
	// Seed is the base seed; every worker's random streams derive from
	// it, the worker id and the phase (see WorkerSeed).
	Seed uint64 `json:"seed"`
	// Driver is the registered store driver name, such as "mattn".
	Driver string `json:"driver"`
	// Store says which database to open and with which engine options.
	Store store.Config `json:"store"`
	// Target names the plan's cell in a suite of targets compared side by
	// side (the blob benchmark's db, flat and tree); "" elsewhere.
	Target string `json:"target,omitempty"`
	// Scenario names the scenario (gobench scenario) the plan is a cell
	// of, such as "deferred-begin"; "" elsewhere.
	Scenario string `json:"scenario,omitempty"`
	// Variant names the plan's cell in a scenario whose cells run
	// different workloads, the pitfall's and the fix's ("deferred" and
	// "immediate"): a setting of its own, so that gates select cells by
	// it, and runs of different variants are of different workloads by
	// design. "" where the cells differ in settings only.
	Variant string `json:"variant,omitempty"`
	// Keys is the key space the ops draw from.
	Keys KeySpace `json:"keys"`
	// Preload is how many rows (keys 0 to Preload-1) are written before
	// the first phase, outside any measurement.
	Preload uint64 `json:"preload"`
	// ValueSize is the size in bytes of every value written, or with
	// ValueVariance the middle of the range of sizes.
	ValueSize int `json:"value_size"`
	// ValueVariance makes value sizes vary by key: every value of key k is
	// ValueSizeOf(k) bytes, from ValueSize-ValueVariance to
	// ValueSize+ValueVariance, a function of the seed and k alone, so an
	// update rewrites a value with one of the same size.
	ValueVariance int `json:"value_variance,omitempty"`
	// RandomValues fills values with uniformly random bytes, which no
	// file system or engine can compress, instead of printable text.
	RandomValues bool `json:"random_values,omitempty"`
	// AppendOrder is the order of each worker's appended keys (see
	// OpAppend): AppendSequential ("" too) or AppendRandom.
	AppendOrder string `json:"append_order,omitempty"`
	// ScanLength is how many consecutive keys a lottery's scan reads (see
	// OpScan); 0 reads the default ScanLength (see ScanLen).
	ScanLength int `json:"scan_length,omitempty"`
	// Mode is ModeProcess or ModeGoroutine.
	Mode string `json:"mode"`
	// Procs is the number of worker processes (in goroutine mode: groups
	// of goroutines, numbered the same way).
	Procs int `json:"procs"`
	// Goroutines is the number of workers per process. Worker ids run
	// from 0 to Procs*Goroutines-1; worker p*Goroutines+g is goroutine g
	// of process p.
	Goroutines int `json:"goroutines"`
	// OnError is OnErrorStop or OnErrorContinue: what a worker does after
	// an op fails with an error other than busy or locked (those are
	// always counted and the worker goes on).
	OnError string `json:"on_error"`
	// Phases run one after another, each started by its own barrier.
	Phases []Phase `json:"phases"`
	// Roles, when set, split the workers into groups that deal mixes
	// (and rates) of their own in every lottery phase, whose Mix is then
	// theirs over all workers (RolesMix); results report each role's
	// figures beside the phase's (see Role).
	Roles []Role `json:"roles,omitempty"`
	// Rate, when positive, runs lottery phases open-loop: ops are due on a
	// schedule of Rate ops per second over all workers (each worker Rate
	// divided by the workers), counted from the phase's START, whatever
	// earlier ops did. Latency is then timed from each op's intended start,
	// so a stall counts for every op it delayed (no coordinated omission);
	// the service time from the actual start is kept too. Zero is closed
	// loop: each worker starts an op when its previous one ends.
	Rate float64 `json:"rate,omitempty"`
	// Arrival is how due times are spaced: ArrivalConstant (evenly, the
	// default) or ArrivalPoisson (exponential gaps), drawn from the seed.
	Arrival string `json:"arrival,omitempty"`
	// LatencyLimit marks an op that begins more than this behind its due
	// time as late; with SkipLate such an op is skipped and counted, not
	// run. Zero: no limit.
	LatencyLimit Duration `json:"latency_limit,omitempty"`
	SkipLate     bool     `json:"skip_late,omitempty"`
	// Busy is the lock policy: BusyTimeout (the engine's own busy handler
	// waits, and lock waits hide inside op latency) or BusyRetry (the
	// engine fails at once and the worker retries busy and locked ops with
	// a bounded backoff for up to BusyBudget, recording every retry and
	// the time waited).
	Busy       string   `json:"busy,omitempty"`
	BusyBudget Duration `json:"busy_budget,omitempty"`
	// ConnPerOp opens a new connection for every op, as a program that
	// opens the database for each request does: the open with its
	// settings and the statements' preparation (which parses the schema)
	// count in the op's latency. Each op is then its own transaction
	// (every phase's Batch is 1); the worker's first connection, opened
	// before START, stays open and idle.
	ConnPerOp bool `json:"conn_per_op,omitempty"`
	// Warmup, when set, runs before the first phase, with a barrier of its
	// own, and is not measured: its ops are counted, never part of a
	// phase's histograms. It deals from random streams of its own, so the
	// phases deal the same ops with or without it.
	Warmup *Phase `json:"warmup,omitempty"`
	// WarmupAuto chooses each measured phase's warm-up after the run, from
	// its timeline (--warmup auto; see package steady), and measures the
	// part after it. It excludes Warmup.
	WarmupAuto bool `json:"warmup_auto,omitempty"`
	// Verify tags every written value with its writer and sequence number
	// (see deal.Tag), so that after the run every key can be checked against
	// the writes that were acknowledged (see Verify).
	Verify bool `json:"verify,omitempty"`
	// ColdCache drops the store's files from the OS page cache before
	// every phase (after flushing them), so reads come from the disk
	// rather than from memory. Linux only; elsewhere results say it could
	// not be done.
	ColdCache bool `json:"cold_cache,omitempty"`
	// Settle writes the store's dirty pages back to the disk before each
	// measured phase (disk.Settle), so that a pass finds the data on disk
	// as an application finds data written long before, not blocks the
	// file system has not even allocated yet. ColdCache writes back too.
	Settle bool `json:"settle,omitempty"`
	// Shard, when set, runs only some of the worker processes: those
	// whose index p has p % Count == Index. The shards of a plan, run on
	// several machines, together run every worker once, each with the
	// ops it would have had in one run; their results merge into one.
	Shard *Shard `json:"shard,omitempty"`
	// Pin, when set, pins the run's processes to CPUs (Linux).
	Pin *Pin `json:"pin,omitempty"`
	// SQL, when set, makes this a sql workload: the phases deal the
	// user's scripts instead of key-value ops (see SQL).
	SQL *SQL `json:"sql,omitempty"`
	// Replay, when set, makes this a replay of a captured trace: the
	// phase deals the trace's statements (see Replay).
	Replay *Replay `json:"replay,omitempty"`
	// Records, when set, makes this a record workload, YCSB's core
	// workload: the phases deal record ops on the table Store.Table
	// instead of key-value ops (see Records).
	Records *Records `json:"records,omitempty"`
	// Crash, when set, records the run's I/O and afterwards simulates
	// power cuts at points of it (see Crash).
	Crash *Crash `json:"crash,omitempty"`
	// IOTrace says what counts the run's file I/O and, with Crash,
	// records it: IOTraceVFS, the engine's own tracing VFS (SQLite's
	// mattn, capi and ncruces drivers); IOTraceFS, the FUSE recording file
	// system under any engine that keeps files; "" the VFS where the
	// engine has one, else the file system with Crash, and nothing
	// without (see IOTraceOf).
	IOTrace string `json:"io_trace,omitempty"`
	// AckRecord, set by the coordinator in the plan a run's workers get
	// when a recorder under the engine (the FUSE recording file system)
	// records its files, is the crash record the workers append their
	// acknowledgements to themselves; engines then record nothing.
	AckRecord *store.Record `json:"ack_record,omitempty"`
	// StallTimeout, set by the coordinator in the plans its hosts run (a
	// copy, never a result's), is the run's stall time-out: a source whose
	// workers wait on each other (a replay's order of commits) gives up
	// below it, saying what each waits for, before a silent worker is
	// killed.
	StallTimeout Duration `json:"stall_timeout,omitempty"`
	// Custom, when set, is the source of every phase's ops in place of
	// the one the plan's data names (see Plan.Source): a library user's
	// own. It is not data: it does not travel to worker processes, so a
	// plan with one runs its workers as goroutines.
	Custom Source `json:"-"`
}

// Crash is a power-cut simulation (gobench's --crash): the run records,
// in one order across its processes, every write, truncate, sync,
// creation, deletion and directory sync of the database's files, and
// every acknowledgement; afterwards States crash states are built at
// seeded points of that order, each opened by the run's own engine and
// checked: its integrity, and every write acknowledged before the point,
// present or lost. The engine must be a store.PowerCutter. A key-value
// workload tags its values (Verify) so that a state's values name their
// writes.
type Crash struct {
	// States is how many crash states to build and check; 0 with
	// Exhaustive.
	States int `json:"states"`
	// Exhaustive builds one state after every persistence point of the
	// record (every sync of a file or directory) in place of States
	// seeded ones; a record with more than MaxExhaustivePoints of them
	// is refused.
	Exhaustive bool `json:"exhaustive,omitempty"`
	// From is where the record starts: CrashFromStart ("", the run's
	// START, the store set up and preloaded), CrashFromOpen (before the
	// store is created or opened) or CrashFromPreload (once it is set
	// up, before the preload), so that cuts land in the setup too.
	From string `json:"from,omitempty"`
	// Model is one of store.CrashModels.
	Model string `json:"model"`
	// Models, when the run spans more than one model, lists them: the
	// matrix has a cell per model (preset.Loop), each with its Model,
	// and names it in its settings (crash-model).
	Models []string `json:"models,omitempty"`
	// RecordLimit is the most bytes the record may hold.
	RecordLimit int64 `json:"record_limit"`
}

// FailSync returns the sync a run of c fails (store.Record.FailSync):
// under store.CrashFsyncFail the Nth sync of the store's files that a
// recording process sees, N from 4 to 19 as seed picks it; 0 under
// every other model.
func (c *Crash) FailSync(seed uint64) int64 {
	if c == nil || c.Model != store.CrashFsyncFail {
		return 0
	}
	return 4 + int64(seed%16)
}

// Where a power-cut simulation's record starts (Crash.From).
const (
	CrashFromStart   = "start"
	CrashFromOpen    = "open"
	CrashFromPreload = "preload"
)

// CrashFroms lists where a record may start.
func CrashFroms() []string { return []string{CrashFromStart, CrashFromOpen, CrashFromPreload} }

// FromSetup reports whether the record starts before the run's START:
// in the store's creation or its preload.
func (c *Crash) FromSetup() bool {
	return c != nil && c.From != "" && c.From != CrashFromStart
}

// Limits of a power-cut simulation.
const (
	MaxCrashStates = 10_000
	// MaxExhaustivePoints bounds the persistence points an exhaustive
	// simulation builds a state after.
	MaxExhaustivePoints = 2_000
	DefaultRecordLimit  = 1 << 30
)

// Shard is one part of a plan spread over several machines or CI jobs.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String returns "index/count", counting from 1 as the --shard flag does.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index+1, s.Count) }

// Pin is where a run's processes run: worker processes round-robin over
// Workers (process i on Workers[i mod len]), the coordinating process on
// Coordinator. Pinning takes the scheduler's moves between CPUs out of
// the figures, and keeps the coordinator off the workers' CPUs.
type Pin struct {
	Workers []int `json:"workers,omitempty"`
	// Coordinator is the coordinator's CPU; nil leaves it unpinned.
	Coordinator *int `json:"coordinator,omitempty"`
}

// WorkerCPU is the CPU of worker process i, or -1 when workers are not
// pinned.
func (p *Pin) WorkerCPU(i int) int {
	if p == nil || len(p.Workers) == 0 {
		return -1
	}
	return p.Workers[i%len(p.Workers)]
}

// ParseShard reads a shard as String writes it: "I/N", the I-th of N
// (from 1). Plan.Validate checks that I is within N.
func ParseShard(s string) (*Shard, error) {
	var i, n int
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || fmt.Sprintf("%d/%d", i, n) != s {
		return nil, fmt.Errorf("%q is not a shard I/N, such as 1/4", s)
	}
	return &Shard{Index: i - 1, Count: n}, nil
}

// ProcIndexes returns the indices of the worker processes this plan runs:
// all of them, or its shard's.
func (p *Plan) ProcIndexes() []int {
	var out []int
	for i := range p.Procs {
		if p.Shard == nil || i%p.Shard.Count == p.Shard.Index {
			out = append(out, i)
		}
	}
	return out
}

// WorkerIDs returns the ids of the workers this plan runs.
func (p *Plan) WorkerIDs() []int {
	var out []int
	for _, proc := range p.ProcIndexes() {
		for g := range p.Goroutines {
			out = append(out, proc*p.Goroutines+g)
		}
	}
	return out
}

// Arrival processes of an open-loop schedule.
const (
	ArrivalConstant = "constant"
	ArrivalPoisson  = "poisson"
)

// Busy policies.
const (
	BusyTimeout = "timeout"
	BusyRetry   = "retry"
)

// MaxRate bounds Plan.Rate: a billion ops per second.
const MaxRate = 1e9

// Access patterns of a phase.
const (
	// AccessLottery (the default) deals ops from the mix's deck on keys
	// drawn from the key space, for Ops ops or Duration.
	AccessLottery = ""
	// AccessEach visits every key of the worker's share of the key space
	// (see Plan.Share) exactly once, with the phase's single op, in Order:
	// the insert, query, update, scan and delete phases of a CRUD run.
	// A scan visits the share ScanLength keys at a time. With Ops set, a
	// worker visits only the first Ops units of its share in that order:
	// in random order, a random sample of distinct keys.
	AccessEach = "each"
)

// Key orders of an AccessEach phase.
const (
	OrderSequential = "sequential"
	OrderRandom     = "random" // a seeded permutation, new in every phase
)

// Phase is one stretch of a run: a mix dealt for a count of ops per worker
// or for a duration, or one op over every key of each worker's share.
type Phase struct {
	Name string `json:"name"`
	// Mix is what the phase's lottery deals; a phase whose source deals
	// without one (a replayed trace's statements) has none.
	Mix Mix `json:"mix,omitempty"`
	// Access is AccessLottery or AccessEach; Order applies to AccessEach.
	Access string `json:"access,omitempty"`
	Order  string `json:"order,omitempty"`
	// Ops is the number of ops per worker; zero when Duration bounds the
	// phase instead. In an each-key phase, a limit (zero: the whole share).
	Ops int64 `json:"ops,omitempty"`
	// Duration bounds the phase by time when Ops is zero.
	Duration Duration `json:"duration,omitempty"`
	// Batch is the number of ops per transaction; 1 makes each op its own
	// transaction.
	Batch int `json:"batch"`
	// Optional lets an engine that cannot do the phase's op skip it: its
	// workers run the phase with no ops (the scan of a CRUD run, on an
	// engine that keeps no key order). Otherwise such an engine is refused.
	Optional bool `json:"optional,omitempty"`
}

// DefaultPlan returns the classic mix benchmark: 10,000 preloaded keys,
// 64-byte values, one phase of 15,000 ops per worker dealt 95% reads and
// 5% upserts, one worker process, seed 1. Driver and Store are left for
// the caller.
func DefaultPlan() Plan {
	return Plan{
		Seed:       1,
		Keys:       DefaultKeySpace(),
		Preload:    DefaultKeySpace().Count,
		ValueSize:  64,
		Mode:       ModeProcess,
		Procs:      1,
		Goroutines: 1,
		OnError:    OnErrorStop,
		Phases:     []Phase{DefaultPhase()},
	}
}

// DefaultPhase returns the 95/5 mix phase of 15,000 ops per worker.
func DefaultPhase() Phase {
	return Phase{Name: "mix", Mix: DefaultMix(), Ops: 15_000, Batch: 1}
}

// Workers returns the total number of workers.
func (p *Plan) Workers() int { return p.Procs * p.Goroutines }

// Processes is how many processes have the store open at once while the
// plan runs: the coordinator, which sets it up and keeps it open, and
// each worker process; in goroutine mode the one that hosts every
// worker.
func (p *Plan) Processes() int {
	if p.Mode == ModeGoroutine {
		return 1
	}
	return 1 + p.Procs
}

// Validate checks the phase.
func (ph *Phase) Validate() error { return ph.validate(true) }

// validate checks the phase, and its mix if mixed (a phase whose source
// deals without one has none).
func (ph *Phase) validate(mixed bool) error {
	if mixed {
		if err := ph.Mix.Validate(); err != nil {
			return err
		}
	}
	if ph.Batch < 1 || ph.Batch > MaxBatch {
		return fmt.Errorf("batch %d is out of range (want 1 to %d ops per transaction)", ph.Batch, MaxBatch)
	}
	switch ph.Access {
	case AccessEach:
		if len(ph.Mix.Ops()) != 1 {
			return fmt.Errorf("an each-key phase runs one op, not %s", ph.Mix)
		}
		if ph.Duration != 0 {
			return errors.New("an each-key phase visits every key of the worker's share once: it takes no duration")
		}
		if ph.Ops < 0 {
			return fmt.Errorf("op count %d is negative (want a limit per worker, or 0 for every key)", ph.Ops)
		}
		if ph.Order != OrderSequential && ph.Order != OrderRandom {
			return fmt.Errorf("unknown key order %q (want sequential or random)", ph.Order)
		}
		return nil
	case AccessLottery:
	default:
		return fmt.Errorf("unknown access pattern %q (want each, or none for the lottery)", ph.Access)
	}
	for _, op := range ph.Mix.Ops() {
		if !slices.Contains(MixOps(), op) && !slices.Contains(RecordOps(), op) && !op.IsScript() && !op.IsStatement() {
			return fmt.Errorf("%v cannot be dealt by a lottery mix (want %s)", op, MixOpNames)
		}
	}
	if ph.Order != "" {
		return errors.New("a key order applies to each-key phases only")
	}
	switch {
	case ph.Ops < 0:
		return fmt.Errorf("op count %d is negative (want a positive count per worker)", ph.Ops)
	case ph.Duration < 0:
		return fmt.Errorf("duration %v is negative", ph.Duration)
	case ph.Ops > 0 && ph.Duration > 0:
		return errors.New("both an op count and a duration are set (want one of them)")
	case ph.Ops == 0 && ph.Duration == 0:
		return errors.New("neither an op count nor a duration is set (want one of them)")
	case time.Duration(ph.Duration) > MaxPhaseLength:
		return fmt.Errorf("duration %v is longer than the maximum of %v", ph.Duration, MaxPhaseLength)
	}
	return nil
}

// RunPhases returns the phases a run executes, in order: the warm-up, if
// any, then Phases. Engines (hosts, coordinators, result builders) number
// phases by their place in this list; results report Phases alone.
func (p *Plan) RunPhases() []Phase {
	if p.Warmup == nil {
		return p.Phases
	}
	return append([]Phase{*p.Warmup}, p.Phases...)
}

// IsWarmup reports whether run phase i (see RunPhases) is the warm-up.
func (p *Plan) IsWarmup(i int) bool { return p.Warmup != nil && i == 0 }

// WarmupSeedPhase is the phase number that seeds the warm-up's streams:
// none of the measured phases has it.
const WarmupSeedPhase = 0xff

// SeedPhase returns the phase number seeding run phase i's lottery: the
// measured phases keep their index in Phases.
func (p *Plan) SeedPhase(i int) int {
	if p.Warmup == nil {
		return i
	}
	if i == 0 {
		return WarmupSeedPhase
	}
	return i - 1
}

// ValueSizeOf returns the size of every value of key: ValueSize, or with
// ValueVariance a size drawn for the key from the seed, the same in every
// phase, worker and run of the plan.
func (p *Plan) ValueSizeOf(key uint64) int {
	if p.ValueVariance == 0 {
		return p.ValueSize
	}
	h := SplitMix64(SplitMix64(p.Seed^0x76616c7565) ^ key)
	return p.ValueSize - p.ValueVariance + int(h%uint64(2*p.ValueVariance+1))
}

// Share returns the keys [lo, hi) worker owns in AccessEach phases: the key
// space split into Workers() contiguous parts as equal as can be.
func (p *Plan) Share(worker int) (lo, hi uint64) {
	n, w := p.Keys.Count, uint64(p.Workers())
	return n * uint64(worker) / w, n * uint64(worker+1) / w
}

// Duration is a time.Duration that reads and writes JSON as a string such
// as "10s", so plans and results stay readable.
type Duration time.Duration

// MarshalJSON encodes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON decodes a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"10s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// String formats d like time.Duration.
func (d Duration) String() string { return time.Duration(d).String() }

// Set parses a duration such as "250ms" (Duration is a flag value).
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Type names the flag value's type, for help text.
func (d *Duration) Type() string { return "duration" }

// Source is where a phase's ops come from, as plan data describes it: the
// seeded deck of a mix, every key of a worker's share once, YCSB's record
// ops, the user's scripts, a source of another package's that owns the
// plan's data (Owned), or a library user's own (Plan.Custom). Judges ask
// it which op kinds a phase can produce, and reports ask it to describe
// itself. What deals its ops is package deal's: a deal.Source is a Source
// that gives each worker a Dealer (the built-in ones are deal's own), and
// a runner asks it for each worker's. A new kind of workload whose ops
// come from somewhere new (a trace file, say) is one more Source.
type Source interface {
	// Name names the source in messages: "lottery", "each key".
	Name() string
	// Kinds returns the op kinds phase ph of p can deal, in canonical
	// order.
	Kinds(p *Plan, ph *Phase) []Op
	// Writes returns the share of ph's ops, from 0 to 1, that may commit
	// a write: a key-value write, a script that may write.
	Writes(p *Plan, ph *Phase) float64
	// Describe says in one line what p's phases deal, for the header of a
	// report: "10000 keys uniform · 64-byte values · 2000 ops/worker · mix
	// read=95,upsert=5"; with batch, a plan of one phase whose ops can be
	// batched says its batch size too (" · batch 1").
	Describe(p *Plan, batch bool) string
	// Brief says what a run of p's phases dealt, shorter, beside its
	// settings: "2000 ops/worker · mix read=95,upsert=5".
	Brief(p *Plan) string
}
