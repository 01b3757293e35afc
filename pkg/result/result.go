package result

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	// Package replay's source registers itself with package workload: a
	// result of a replayed trace reads, validates and describes its plan
	// wherever results are read.
	_ "github.com/gobench/gobench/pkg/replay"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// SchemaVersion is the version of the JSON result format. It changes only
// when a field changes meaning or goes away; new fields keep the version.
const SchemaVersion = 1

// Result is everything measured in one run. Its JSON form is the stable,
// documented output of gobench (docs/results.md lists every field).
type Result struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          Tool   `json:"tool"`
	Command       string `json:"command"`
	// Shape is the shape of the suite the run belongs to (see Suite); a
	// run of a matrix of one cell is written alone.
	Shape Shape `json:"shape,omitempty"`
	// Args is the command line of the run, without the program name
	// ("mix", "--procs", "4", …); empty for a library run.
	Args      []string  `json:"args,omitempty"`
	StartedAt time.Time `json:"started_at"`
	// Complete is false when the run was interrupted or a worker failed;
	// Problems then says what happened.
	Complete    bool          `json:"complete"`
	Problems    []string      `json:"problems,omitempty"`
	Plan        workload.Plan `json:"plan"`
	Environment Environment   `json:"environment"`
	// CoordinatorMaxRSSBytes is the coordinating process's peak resident
	// memory (0 where the OS does not say). It does not grow with the
	// number of ops. In goroutine mode, where it hosts the workers too,
	// it is the run's own peak where the OS can start the peak over
	// (Linux), else the process's peak over every run before.
	CoordinatorMaxRSSBytes int64 `json:"coordinator_max_rss_bytes"`
	// WorkerMaxRSSBytes is the peak resident memory of the largest worker
	// process; in goroutine mode, the run's own peak of the one process
	// that hosts the workers, the coordinator among them, from the store's
	// setup on (Linux: the peak is started over as the run begins). 0 where
	// it is not measured: where the OS does not say, and in goroutine mode
	// where the peak cannot be started over (it would be the process's
	// lifetime peak, growing from cell to cell). An engine's caches and
	// memtables show here.
	WorkerMaxRSSBytes int64 `json:"worker_max_rss_bytes,omitempty"`
	// Space is the database's size on disk after the run against the
	// data it holds; nil where the run kept nothing on disk or failed.
	Space  *Space  `json:"space,omitempty"`
	Phases []Phase `json:"phases"`
	// Warmup is what the warm-up ran (Plan.Warmup), counted and kept out
	// of every phase; nil without one.
	Warmup *Warmup `json:"warmup,omitempty"`
	// Verify is what the check after the run found (--verify).
	Verify *workload.VerifyReport `json:"verify,omitempty"`
	// Replay is what the check after a replayed trace found: whether the
	// database ended as the capture's did.
	Replay *workload.ReplayCheck `json:"replay,omitempty"`
	// IOSetup is the file I/O of the store's setup, before the first
	// phase (its schema and preload); IOOutside what the worker
	// processes did outside every phase (opening their connections,
	// closing them: a WAL's last connection checkpoints it; under the
	// file system recorder, closing the store too: pebble syncs its WAL
	// a last time). Each
	// phase's own is its IO. All are nil where the engine does not trace
	// its I/O (see store.IOTracer).
	IOSetup   *store.IOCounts `json:"io_setup,omitempty"`
	IOOutside *store.IOCounts `json:"io_outside,omitempty"`
	// Durability is what the power-cut simulation found (Plan.Crash);
	// nil without one. A run with one recorded every write with its
	// bytes: its speed is a traced run's.
	Durability *Durability `json:"durability,omitempty"`
	// Gates holds the verdict of every gate (--expect) on this run.
	Gates []Gate `json:"gates,omitempty"`
	// Shards says where and when each shard of a merged run ran, in shard
	// order; Warnings what the merge could not vouch for. Both are empty
	// for a run that was not merged.
	Shards   []ShardOrigin `json:"shards,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
	// Slot is the run's place in its job (cell and repeat) when the job
	// was split by its runs over shards (Suite.Shard); nil otherwise.
	Slot *Slot `json:"slot,omitempty"`
}

// Space is what a database takes on disk after a run, against the live
// data it holds, counted as an application counts it (store.Live).
type Space struct {
	// AllocatedBytes and ApparentBytes are the database's files'
	// blocks (as du counts) and lengths.
	AllocatedBytes int64 `json:"allocated_bytes"`
	ApparentBytes  int64 `json:"apparent_bytes"`
	// LiveKeys and LiveBytes are the keys (and records) the store holds
	// and the bytes of their keys and values; both 0 with NotCounted.
	LiveKeys  int64 `json:"live_keys"`
	LiveBytes int64 `json:"live_bytes"`
	// Amplification is AllocatedBytes / LiveBytes; 0 when the live data
	// was not counted or is empty.
	Amplification float64 `json:"amplification,omitempty"`
	// NotCounted says why the live data was not counted (the engine
	// cannot walk it, store.LiveCounter); empty when it was.
	NotCounted string `json:"not_counted,omitempty"`
}

// ShardOrigin is where and when one shard of a merged run ran.
type ShardOrigin struct {
	Shard     string    `json:"shard"` // "2/4", as --shard reads it
	Host      string    `json:"host,omitempty"`
	Database  string    `json:"database"`
	StartedAt time.Time `json:"started_at"`
	// Workers are the ids of the shard's workers.
	Workers []int `json:"workers"`
}

// Warmup counts the ops of a run's warm-up. They are in no histogram.
type Warmup struct {
	// Ops is every data op attempted; Errors the failed ones by class.
	Ops    int64  `json:"ops"`
	Errors Errors `json:"errors"`
	// WallSeconds is the warm-up's length; OpsPerSec its throughput.
	WallSeconds float64 `json:"wall_seconds"`
	OpsPerSec   float64 `json:"ops_per_sec"`
}

// Tool identifies the gobench build that produced a result.
type Tool struct {
	Name string `json:"name"`
	// Version is the module version, or "(devel)" followed by the VCS
	// revision for a build from a checkout.
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	// Revision and RevisionTime are the VCS commit the binary was built
	// from; Modified says the checkout had uncommitted changes. Empty for
	// a build without VCS information.
	Revision     string `json:"revision,omitempty"`
	RevisionTime string `json:"revision_time,omitempty"`
	Modified     bool   `json:"modified,omitempty"`
}

// Environment is where the run happened.
type Environment struct {
	// Host is the machine's host name, where the OS tells it.
	Host string `json:"host,omitempty"`
	OS   string `json:"os"`
	Arch string `json:"arch"`
	CPUs int    `json:"cpus"`
	// Kernel ("Linux 6.1.0"), CPUModel, Governor (the cpufreq scaling
	// governor, where the OS has and shows one) and MemoryBytes describe
	// the machine; empty where the OS does not tell.
	Kernel      string `json:"kernel,omitempty"`
	CPUModel    string `json:"cpu_model,omitempty"`
	Governor    string `json:"governor,omitempty"`
	MemoryBytes int64  `json:"memory_bytes,omitempty"`
	// Filesystem is the type of the filesystem holding the database
	// (such as "ext4" or "tmpfs"), or "unknown".
	Filesystem string `json:"filesystem"`
	// MountOptions are the options of the mount holding the database
	// ("rw,relatime,errors=remount-ro"), where the OS shows them.
	MountOptions string `json:"mount_options,omitempty"`
	// Store holds the engine's facts, read back from the database: driver,
	// SQLite version, journal mode and synchronous level in force, …
	Store []store.Fact `json:"store"`
	// SyncPrimitive is the call the engine makes on this OS to sync a
	// file (fdatasync, fsync, msync, F_FULLFSYNC; whether a commit waits
	// for it is the engine's sync level), joined by " + " where a commit
	// takes two kinds ("fdatasync + O_DSYNC write": LMDB at full writes
	// its meta page through an O_DSYNC descriptor); empty where the
	// engine does not say.
	SyncPrimitive string `json:"sync_primitive,omitempty"`
	// Sharing is who may share the engine's database (store.Sharing):
	// "processes", "one process" (its workers ran as goroutines) or "one
	// goroutine"; empty in results from before it was recorded.
	Sharing string `json:"sharing,omitempty"`
	// Ceiling is the disk's fsync rate, measured on the database's file
	// system before the run (mix --ceiling); nil when not measured.
	Ceiling *Ceiling `json:"ceiling,omitempty"`
	// Machine is how loaded and how fast the machine was just before and
	// just after the run (see Machine); nil when not measured.
	Machine *Machine `json:"machine,omitempty"`
}

// Ceiling is the rate of durable small writes (each followed by
// fdatasync) the database's disk allows: no commit that waits for its
// fsync can go faster.
type Ceiling struct {
	Filesystem string `json:"filesystem"`
	// Ops writes of WriteSize bytes, each followed by fdatasync.
	Ops         int     `json:"ops"`
	WriteSize   int64   `json:"write_size"`
	FsyncPerSec float64 `json:"fsync_per_sec"`
	P50Micros   float64 `json:"p50_us"`
	P99Micros   float64 `json:"p99_us"`
}

// CommitsPerSec is the rate of write transactions that succeeded in phase
// i: its successful write ops per second when each op is its own
// transaction (batch 1), its commits per second otherwise (read-only
// transactions of a mixed batch included). ok is false for a phase with
// neither.
func (r *Result) CommitsPerSec(i int) (rate float64, ok bool) {
	if i >= len(r.Phases) || i >= len(r.Plan.Phases) {
		return 0, false
	}
	ph := r.Phases[i]
	if r.Plan.Phases[i].Batch > 1 {
		o, ok := ph.Op(workload.OpCommit.String())
		return o.OpsPerSec, ok
	}
	for _, o := range ph.Ops {
		if op, err := workload.ParseOp(o.Kind); err == nil && op.IsWrite() {
			rate += o.OpsPerSec
			ok = true
		}
	}
	return rate, ok
}

// StoreFact returns the value of the named store fact, or "".
func (e Environment) StoreFact(name string) string {
	for _, f := range e.Store {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// Phase is the measurement of one phase.
type Phase struct {
	Name string `json:"name"`
	// StartedAt is the wall-clock instant of the phase's START, from which
	// its timeline and every sample offset count (zero in results of
	// older versions).
	StartedAt time.Time `json:"started_at,omitzero"`
	// WallSeconds is from START to the last op's completion, over all
	// workers: the denominator of every throughput.
	WallSeconds float64 `json:"wall_seconds"`
	// StartSkewMicros is how long the coordinator took to send START to
	// every worker process (0 for goroutines). LastFirstOpMicros is the
	// latest any worker began its first op: how long the run took to get
	// every worker going.
	StartSkewMicros   float64 `json:"start_skew_us"`
	LastFirstOpMicros float64 `json:"last_first_op_us"`
	// Total sums the data ops (not transaction markers).
	Total OpStats   `json:"total"`
	Ops   []OpStats `json:"ops"`
	// Workers holds per-worker totals, by worker id.
	Workers []Worker `json:"workers"`
	// WorkerSpread is the spread of per-worker throughput.
	WorkerSpread Spread `json:"worker_spread"`
	// Roles holds each role's figures, in the plan's order, for a plan
	// with roles (workload.Plan.Roles); they are of the whole phase, a
	// warm-up cut by --warmup auto included.
	Roles []Role `json:"roles,omitempty"`
	// Timeline holds one entry per second of the phase, by op completion.
	Timeline []Second `json:"timeline"`
	// ClampedSamples counts latencies above the histogram's ceiling
	// (HistogramMax), recorded at the ceiling.
	ClampedSamples int64 `json:"clamped_samples"`
	// Size is the database's size on disk when the phase ended; nil for
	// an engine that keeps nothing on disk.
	Size *DiskSize `json:"size,omitempty"`
	// PageCache says, for a plan with ColdCache, whether the store's files
	// were dropped from the OS page cache before the phase ("dropped") or
	// why not; for a plan with Settle, whether they were written back to
	// the disk ("written back") or why not; empty when not asked.
	PageCache string `json:"page_cache,omitempty"`
	// WAL is the write-ahead log over the phase, for engines that keep one
	// (SQLite in WAL mode); nil otherwise.
	WAL *WALTimeline `json:"wal,omitempty"`
	// Steady is the warm-up cut --warmup auto chose (nil without it): Ops,
	// Total and the figures read from them are of the part after it;
	// WallSeconds, Workers, Timeline, CPU and IO are of the whole phase.
	Steady *SteadyCut `json:"steady,omitempty"`
	// CPU is the processor time the run's processes spent on the phase;
	// nil where it was not measured (results of older versions, systems
	// without getrusage).
	CPU *CPU `json:"cpu,omitempty"`
	// IO is the file I/O of the phase, per acknowledged commit too; nil
	// where the engine does not trace its I/O.
	IO *PhaseIO `json:"io,omitempty"`
}

// CPU scopes: whose processor time a CPU holds.
const (
	// CPUWorkers is the worker processes' time, summed, each from the
	// phase's START until all its workers finished it: gobench's own
	// per-op work in a worker (the op loop, recording and streaming
	// samples) is in it, the coordinator's is not.
	CPUWorkers = "worker processes"
	// CPUProcess is the one process that ran the workers as goroutines,
	// the coordinator's merging of samples included.
	CPUProcess = "one process (goroutine workers and the coordinator)"
)

// CPU is the processor time (getrusage: user and system) spent on a phase,
// and per op: the figure that stays meaningful on a loaded or shared
// machine, where throughput does not.
type CPU struct {
	Scope         string  `json:"scope"`
	Processes     int     `json:"processes"`
	UserSeconds   float64 `json:"user_seconds"`
	SystemSeconds float64 `json:"system_seconds"`
	// MicrosPerOp is user and system time over the phase's data ops
	// (Total.Count, failed ones included), in microseconds.
	MicrosPerOp float64 `json:"us_per_op"`
	// Coordinator is, where the workers are processes (Scope
	// CPUWorkers), the coordinator process's own time from the phase's
	// START until the last of its workers finished: reading, checking and
	// merging their samples, the progress line, the WAL sampler. Workers
	// and coordinator together are what the phase cost gobench and the
	// engine. Nil in goroutine mode (CPUProcess holds it already), where
	// a worker never finished, and in results of older versions.
	Coordinator *CPUTime `json:"coordinator,omitempty"`
}

// CPUTime is one process's user and system time over a phase, and per
// data op in microseconds.
type CPUTime struct {
	UserSeconds   float64 `json:"user_seconds"`
	SystemSeconds float64 `json:"system_seconds"`
	MicrosPerOp   float64 `json:"us_per_op"`
}

// add adds other processes' time, of the same scope.
func (c *CPU) add(o CPU) {
	c.Processes += o.Processes
	c.UserSeconds += o.UserSeconds
	c.SystemSeconds += o.SystemSeconds
}

// per returns c with MicrosPerOp set for ops data ops (0 for none), its
// coordinator's too.
func (c CPU) per(ops int64) *CPU {
	c.MicrosPerOp = perOp(c.UserSeconds+c.SystemSeconds, ops)
	if c.Coordinator != nil {
		co := *c.Coordinator
		co.MicrosPerOp = perOp(co.UserSeconds+co.SystemSeconds, ops)
		c.Coordinator = &co
	}
	return &c
}

// perOp is seconds over ops in microseconds, 0 for no ops.
func perOp(seconds float64, ops int64) float64 {
	if ops <= 0 {
		return 0
	}
	return seconds * 1e6 / float64(ops)
}

// WALTimeline is a write-ahead log's size over a phase, sampled five times
// a second by the coordinator, and its resets: each time writers started
// the log over after a checkpoint had copied all of it into the database
// (read from the log's header, so counted whichever connection
// checkpointed). A checkpoint that could not finish, because readers
// still needed the log, resets nothing and is not counted.
type WALTimeline struct {
	MaxBytes int64 `json:"max_bytes"`
	Resets   int64 `json:"resets"`
	// Seconds holds, per second of the phase, the largest size seen and
	// the resets so far.
	Seconds []WALSecond `json:"seconds"`
}

// WALSecond is one second of a LogTimeline.
type WALSecond struct {
	Second int64 `json:"second"`
	Bytes  int64 `json:"bytes"`
	Resets int64 `json:"resets"`
}

// DiskSize is how much a database takes on disk.
type DiskSize struct {
	// ApparentBytes sums the lengths of the database's files.
	ApparentBytes int64 `json:"apparent_bytes"`
	// AllocatedBytes is the space the file system allocated for them
	// (blocks, as du counts).
	AllocatedBytes int64 `json:"allocated_bytes"`
}

// OpStats is the measurement of one op kind (or the total).
type OpStats struct {
	Kind string `json:"kind"`
	// Latency holds Count, every op attempted, successful or not, and the
	// latency percentiles over every attempt (failed attempts included: a
	// busy timeout is latency a caller waits), with the full histogram.
	// Its fields are the op kind's own in JSON.
	Latency
	// NotFound counts ops that found no such key (not errors).
	NotFound int64 `json:"not_found"`
	// Errors counts failed ops by class.
	Errors Errors `json:"errors"`
	// OpsPerSec is the throughput of ops that did not fail:
	// (Count - Errors.Total) / WallSeconds.
	OpsPerSec float64 `json:"ops_per_sec"`

	// In an open-loop run (Plan.Rate) the latency above counts from each
	// op's due time, stalls included for every op they delayed. Service
	// counts from the actual start (what a closed-loop tool would report);
	// Lag is how late ops began. Late counts ops that began more than the
	// latency limit behind; Skipped those of them not run (Plan.SkipLate),
	// which are not in Count. Nil and zero in closed loop.
	Service *Latency `json:"service,omitempty"`
	Lag     *Latency `json:"schedule_lag,omitempty"`
	Late    int64    `json:"late,omitempty"`
	Skipped int64    `json:"skipped,omitempty"`
	// LockWaits is what the retry busy policy met; nil under the timeout
	// policy, whose waits hide inside the latency.
	LockWaits *LockWaits `json:"lock_waits,omitempty"`
	// BusyBegins and BusyCommits count the ops whose BEGIN or COMMIT found
	// the database busy or locked at least once, as the engine counted it
	// (store.BusyStepCounter): waited for, retried or failed. A busy
	// COMMIT is the rollback journal's writer waiting for readers to
	// leave. Where SQLite's own busy handler waits out of sight (mattn and
	// modernc under the timeout policy) only failed steps are counted.
	BusyBegins  int64 `json:"busy_begins,omitempty"`
	BusyCommits int64 `json:"busy_commits,omitempty"`
	// A replayed trace's statements (the plan's Replay): Diverged counts those
	// that did something else than when captured (other rows as far as
	// the application read, other changes, another outcome); NewErrors
	// those that failed where the capture's did not, LostErrors those
	// that succeeded where the capture's failed; Commits those that
	// committed a transaction, as they did when captured.
	Diverged   int64 `json:"diverged,omitempty"`
	NewErrors  int64 `json:"new_errors,omitempty"`
	LostErrors int64 `json:"lost_errors,omitempty"`
	Commits    int64 `json:"commits,omitempty"`
	// Uncompared counts the replayed statements whose rows were not
	// compared: the capture could not tell which state they saw.
	Uncompared int64 `json:"uncompared,omitempty"`
}

// Errors counts failed ops by class.
type Errors struct {
	Total      int64 `json:"total"`
	Busy       int64 `json:"busy"`
	Locked     int64 `json:"locked"`
	Constraint int64 `json:"constraint"`
	IO         int64 `json:"io"`
	Full       int64 `json:"full"`
	Other      int64 `json:"other"`
	// OpenTx counts ops after which the engine was still inside a
	// transaction outside any batch (store.OpenTx): rolled back, never
	// acknowledged. Any count here is a defect of the engine or its
	// driver, not contention.
	OpenTx int64 `json:"open_tx"`
	// Script counts runs of a user's script that failed in gobench before
	// any SQL ran (store.Script: a \set that cannot be evaluated).
	Script int64 `json:"script,omitempty"`
}

// ErrorClasses lists the classes Errors counts, in its field order.
func ErrorClasses() []store.Class {
	return []store.Class{store.Busy, store.Locked, store.Constraint, store.IO, store.Full, store.Other, store.OpenTx, store.Script}
}

// counter returns the field counting class c; Other for a class it does
// not name.
func (e *Errors) counter(c store.Class) *int64 {
	switch c {
	case store.Busy:
		return &e.Busy
	case store.Locked:
		return &e.Locked
	case store.Constraint:
		return &e.Constraint
	case store.IO:
		return &e.IO
	case store.Full:
		return &e.Full
	case store.OpenTx:
		return &e.OpenTx
	case store.Script:
		return &e.Script
	}
	return &e.Other
}

// Of returns the count of class c (0 for classes that are not errors).
func (e Errors) Of(c store.Class) int64 {
	if !c.IsError() {
		return 0
	}
	return *e.counter(c)
}

// Add adds the counts of o.
func (e *Errors) Add(o Errors) {
	e.Total += o.Total
	for _, c := range ErrorClasses() {
		*e.counter(c) += o.Of(c)
	}
}

func (e *Errors) add(c store.Class, n int64) {
	if !c.IsError() || n == 0 {
		return
	}
	e.Total += n
	*e.counter(c) += n
}

// Worker is one worker's totals in a phase.
type Worker struct {
	ID int `json:"id"`
	// PID is the process the worker ran in.
	PID int `json:"pid"`
	// Ops counts the worker's data ops; Errors those that failed.
	Ops    int64 `json:"ops"`
	Errors int64 `json:"errors"`
	// FirstOpMicros is when, after START, the worker began its first op:
	// process wake-up and scheduling delay, made visible.
	FirstOpMicros float64 `json:"first_op_us"`
	// Seconds is from START to the worker's last completion.
	Seconds   float64 `json:"seconds"`
	OpsPerSec float64 `json:"ops_per_sec"`
	// Finished is false for a worker that never reported the end of
	// its phase.
	Finished bool `json:"finished"`
	// AckedWrites counts the worker's write ops that succeeded.
	AckedWrites int64 `json:"acked_writes,omitempty"`
	// P99Micros and MaxMicros are the latency of the worker's own data
	// ops (the p99 at two significant digits, the max exact); MaxGapMicros
	// the longest the worker completed nothing: from START to its first
	// completion, between two of them, or, in a phase of a duration, from
	// its last to the phase's end; SlowestStartMicros when its slowest op
	// began (it ended
	// MaxMicros later). Zero in results written before they were kept.
	P99Micros          float64 `json:"p99_us,omitempty"`
	MaxMicros          float64 `json:"max_us,omitempty"`
	MaxGapMicros       float64 `json:"max_gap_us,omitempty"`
	SlowestStartMicros float64 `json:"slowest_start_us,omitempty"`
}

// Spread summarises per-worker throughput.
type Spread struct {
	MinOpsPerSec    float64 `json:"min_ops_per_sec"`
	MedianOpsPerSec float64 `json:"median_ops_per_sec"`
	MaxOpsPerSec    float64 `json:"max_ops_per_sec"`
}

// Second is one second of a phase's timeline.
type Second struct {
	// Second counts from the phase's START: entry 0 holds the ops that
	// completed in its first second.
	Second int64 `json:"second"`
	// Length is set on the phase's last second when the phase ended
	// inside it: how much of that second, in seconds, the phase lasted
	// (its wall time's fraction). Rates for it divide by Length (Span).
	Length float64     `json:"length,omitempty"`
	Ops    []SecondOps `json:"ops"`
}

// Span returns how long the second lasted: Length for the phase's last,
// partial second, one for every other.
func (s Second) Span() float64 {
	if s.Length > 0 && s.Length < 1 {
		return s.Length
	}
	return 1
}

// Partial reports whether the second is the phase's last and the phase
// ended inside it.
func (s Second) Partial() bool { return s.Span() < 1 }

// partialLength returns the Length of second sec of a phase that lasted
// wall: the fraction of it the phase covered when sec is the phase's
// last second, 0 otherwise.
func partialLength(sec int64, wall time.Duration) float64 {
	if wall <= 0 || sec != int64(wall/time.Second) {
		return 0
	}
	return (wall - time.Duration(sec)*time.Second).Seconds()
}

// SecondOps is one op kind's activity in one second.
type SecondOps struct {
	Kind   string `json:"kind"`
	Count  int64  `json:"count"`
	Errors int64  `json:"errors"`
	// Retries counts the busy retries of the ops completed in this second
	// (see Sample.Retries): the lock contention over time.
	Retries int64 `json:"retries,omitempty"`
	// Latency percentiles of the ops completed in this second, in
	// microseconds, at two significant digits.
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	MaxMicros float64 `json:"max_us"`
}

// Op returns the stats of the op kind named kind, or of a role's kind
// named "ROLE KIND" (see RoleOp), or false.
func (p *Phase) Op(kind string) (OpStats, bool) {
	for _, o := range p.Ops {
		if o.Kind == kind {
			return o, true
		}
	}
	if strings.Contains(kind, " ") {
		return p.RoleOp(kind)
	}
	return OpStats{}, false
}

// DecodeHistogram decodes an OpStats histogram.
func (o *OpStats) DecodeHistogram() (*hdr.Histogram, error) {
	if err := checkGeometry(o.Histogram); err != nil {
		return nil, fmt.Errorf("decoding %s histogram: %w", o.Kind, err)
	}
	h, err := hdr.Decode([]byte(o.Histogram))
	if err != nil {
		return nil, fmt.Errorf("decoding %s histogram: %w", o.Kind, err)
	}
	return h, nil
}

// Write encodes r as indented JSON.
func (r *Result) Write(w io.Writer) error { return writeIndented(w, r) }

// writeIndented writes v as indented JSON, its expressions (">=") as they
// are: every result file's encoding.
func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // expressions such as ">=" stay readable
	return enc.Encode(v)
}

// Read decodes and checks a JSON result, such as a file a user hands to
// gobench. It refuses input that is not a JSON object or is larger than
// MaxFileBytes (ErrNotResult), other schema versions, and results whose
// histograms do not decode or disagree with their counts.
func Read(rd io.Reader) (*Result, error) {
	data, err := readFile(rd)
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decoding result: %w", err)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	r.fillPartialSeconds()
	return &r, nil
}

// fillPartialSeconds marks the last second of each phase partial where a
// result of an older version did not: it follows from the wall time.
func (r *Result) fillPartialSeconds() {
	for i := range r.Phases {
		ph := &r.Phases[i]
		if n := len(ph.Timeline); n > 0 && ph.Timeline[n-1].Length == 0 {
			last := &ph.Timeline[n-1]
			last.Length = partialLength(last.Second, time.Duration(ph.WallSeconds*float64(time.Second)))
		}
	}
}

// check verifies a decoded result: a valid plan, one entry per phase, and
// histograms that decode and agree with their counts.
func (r *Result) check() error {
	if r.SchemaVersion != SchemaVersion {
		return fmt.Errorf("result schema version %d is not supported (this gobench reads version %d)", r.SchemaVersion, SchemaVersion)
	}
	if err := r.Plan.Validate(); err != nil {
		return fmt.Errorf("result's plan is invalid: %w", err)
	}
	if len(r.Phases) != len(r.Plan.Phases) {
		return fmt.Errorf("result has %d phases but its plan has %d", len(r.Phases), len(r.Plan.Phases))
	}
	for _, ph := range r.Phases {
		for _, o := range append([]OpStats{ph.Total}, ph.Ops...) {
			h, err := o.DecodeHistogram()
			if err != nil {
				return fmt.Errorf("phase %s: %w", ph.Name, err)
			}
			if h.TotalCount() != o.Count {
				return fmt.Errorf("phase %s, %s: histogram holds %d samples but count is %d", ph.Name, o.Kind, h.TotalCount(), o.Count)
			}
			if _, err := aggOf(o); err != nil { // the open-loop and lock-wait histograms
				return fmt.Errorf("phase %s: %w", ph.Name, err)
			}
		}
		if err := ph.checkFigures(); err != nil {
			return fmt.Errorf("phase %s: %w", ph.Name, err)
		}
	}
	return nil
}

// maxWallSeconds bounds a phase's wall time as a result file may give
// it: a year.
const maxWallSeconds = 366 * 24 * 3600

// checkFigures refuses what no run measures: a negative count, a wall
// time that is negative or beyond a year, two workers of one id (in a
// file someone crafted, or shards that claim the same workers).
func (ph *Phase) checkFigures() error {
	negative := func(what string, vs ...int64) error {
		for _, v := range vs {
			if v < 0 {
				return fmt.Errorf("%s: a negative count, %d", what, v)
			}
		}
		return nil
	}
	if !(ph.WallSeconds >= 0 && ph.WallSeconds <= maxWallSeconds) {
		return fmt.Errorf("wall time %g s is no run's (want 0 to a year)", ph.WallSeconds)
	}
	if err := negative("clamped samples", ph.ClampedSamples); err != nil {
		return err
	}
	for _, o := range append([]OpStats{ph.Total}, ph.Ops...) {
		e := o.Errors
		if err := negative(o.Kind, o.Count, o.NotFound, o.Late, o.Skipped, o.BusyBegins, o.BusyCommits,
			e.Total, e.Busy, e.Locked, e.Constraint, e.IO, e.Full, e.Other, e.OpenTx, e.Script); err != nil {
			return err
		}
	}
	ids := map[int]bool{}
	for _, w := range ph.Workers {
		if ids[w.ID] {
			return fmt.Errorf("worker %d is there twice", w.ID)
		}
		ids[w.ID] = true
		if err := negative(fmt.Sprintf("worker %d", w.ID), w.Ops, w.Errors); err != nil {
			return err
		}
		if !(w.Seconds >= 0 && w.Seconds <= maxWallSeconds) {
			return fmt.Errorf("worker %d: %g s is no run's (want 0 to a year)", w.ID, w.Seconds)
		}
	}
	for _, s := range ph.Timeline {
		for _, o := range s.Ops {
			if err := negative(fmt.Sprintf("second %d, %s", s.Second, o.Kind), o.Count, o.Errors, o.Retries); err != nil {
				return err
			}
		}
	}
	return nil
}
