package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Validate checks the plan and returns an error that names the offending
// setting and what would be valid. The checks run in order: the store and
// key space, the values, the workers, the phases, open loop, the busy
// policy, the warm-up, the power-cut simulation, verification, the
// scripts of a sql workload.
func (p *Plan) Validate() error {
	for _, check := range []func() error{p.checkStore, p.checkValues, p.checkWorkers, p.checkPhases, p.checkRoles, p.checkAppend, p.checkScanLength, p.checkOpenLoop, p.checkBusy, p.checkConnPerOp, p.checkWarmup, p.checkCrash, p.checkVerify, p.checkSQL, p.checkPin, p.checkRecords, p.checkOwned, p.checkVariant} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// checkStore checks the driver, the key space and the preload.
func (p *Plan) checkStore() error {
	if p.Driver == "" {
		return errors.New("no driver named")
	}
	if err := p.Keys.Validate(); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	if d := p.Keys.Distribution; p.Records == nil && (d == Latest || d == Hotspot) {
		return fmt.Errorf("keys: the %s distribution applies to record workloads", d)
	}
	if p.Preload > p.Keys.Count {
		return fmt.Errorf("preload of %d rows exceeds the key space of %d keys", p.Preload, p.Keys.Count)
	}
	return nil
}

// checkValues checks the value sizes.
func (p *Plan) checkValues() error {
	if p.ValueSize < 1 || p.ValueSize > MaxValueSize {
		return fmt.Errorf("value size %d is out of range (want 1 to %d bytes)", p.ValueSize, MaxValueSize)
	}
	if p.ValueVariance < 0 || p.ValueVariance >= p.ValueSize || p.ValueSize+p.ValueVariance > MaxValueSize {
		return fmt.Errorf("value size variance %d is out of range (want 0 to %d, so that sizes stay between 1 and %d bytes)", p.ValueVariance, min(p.ValueSize-1, MaxValueSize-p.ValueSize), MaxValueSize)
	}
	return nil
}

// checkWorkers checks the worker layout, the error policy and the shard.
func (p *Plan) checkWorkers() error {
	if p.Mode != ModeProcess && p.Mode != ModeGoroutine {
		return fmt.Errorf("unknown worker mode %q (want %s or %s)", p.Mode, ModeProcess, ModeGoroutine)
	}
	if p.Procs < 1 || p.Procs > MaxProcs {
		return fmt.Errorf("procs %d is out of range (want 1 to %d)", p.Procs, MaxProcs)
	}
	if p.Goroutines < 1 || p.Goroutines > MaxGoroutines {
		return fmt.Errorf("goroutines %d is out of range (want 1 to %d)", p.Goroutines, MaxGoroutines)
	}
	if p.Workers() > MaxWorkers {
		return fmt.Errorf("%d workers (procs × goroutines) is more than %d", p.Workers(), MaxWorkers)
	}
	if p.Custom != nil && p.Mode != ModeGoroutine {
		return fmt.Errorf("the plan's own op source (%s) runs in this process: its workers must be goroutines (mode %s)", p.Custom.Name(), ModeGoroutine)
	}
	if p.OnError != OnErrorStop && p.OnError != OnErrorContinue {
		return fmt.Errorf("unknown error policy %q (want %s or %s)", p.OnError, OnErrorStop, OnErrorContinue)
	}
	if s := p.Shard; s != nil && (s.Count < 1 || s.Index < 0 || s.Index >= s.Count || s.Count > p.Procs) {
		return fmt.Errorf("shard %d of %d is out of range (want 1 to N of N, with N at most the %d procs)", s.Index+1, s.Count, p.Procs)
	}
	return nil
}

// checkPhases checks every phase.
func (p *Plan) checkPhases() error {
	if len(p.Phases) == 0 {
		return errors.New("plan has no phases")
	}
	owned := p.owned() != nil
	for i, ph := range p.Phases {
		// An owned source's phase deals its own kinds (a replay's, the
		// trace's statements): it needs no mix (a plan written before it
		// had none keeps its statements' own).
		if err := ph.validate(!owned || len(ph.Mix) > 0); err != nil {
			return fmt.Errorf("phase %d (%s): %w", i, ph.Name, err)
		}
		if p.Verify && slices.Contains(ph.Mix.Ops(), OpDelete) {
			return fmt.Errorf("%s cannot check deletes (a missing key would be either lost or deleted): drop delete from the mix", p.checker())
		}
	}
	return nil
}

// checkOpenLoop checks the rate, the arrival process and the latency
// limit, and that every phase can run on a schedule.
func (p *Plan) checkOpenLoop() error {
	if !(p.Rate >= 0 && p.Rate <= MaxRate) {
		return fmt.Errorf("rate %v is out of range (want 0 for closed loop, or up to %g ops/s)", p.Rate, MaxRate)
	}
	switch p.Arrival {
	case "", ArrivalConstant, ArrivalPoisson:
	default:
		return fmt.Errorf("unknown arrival process %q (want constant or poisson)", p.Arrival)
	}
	if p.Rate == 0 && (p.Arrival != "" || p.LatencyLimit != 0 || p.SkipLate) {
		return errors.New("an arrival process and a latency limit apply to open-loop runs: set a rate")
	}
	if p.LatencyLimit < 0 || (p.SkipLate && p.LatencyLimit == 0) {
		return errors.New("skipping late ops needs a positive latency limit")
	}
	if p.Rate == 0 {
		return nil
	}
	perWorker := p.Rate / float64(p.Workers())
	for _, ph := range p.RunPhases() {
		if ph.Access != AccessLottery {
			return fmt.Errorf("phase %s visits each key once: open-loop rates apply to lottery phases", ph.Name)
		}
		if ph.Batch != 1 {
			return fmt.Errorf("phase %s: an open-loop schedule times single ops, not batches of %d (want batch 1)", ph.Name, ph.Batch)
		}
		if secs := float64(ph.Ops) / perWorker; ph.Ops > 0 && secs > MaxPhaseLength.Seconds() {
			return fmt.Errorf("phase %s: %d ops per worker due at %g ops/s each take %.3g hours, longer than the maximum of %v (raise the rate, or give a duration)", ph.Name, ph.Ops, perWorker, secs/3600, MaxPhaseLength)
		}
	}
	return nil
}

// checkBusy checks the busy policy and its budget.
func (p *Plan) checkBusy() error {
	switch p.Busy {
	case "", BusyTimeout:
		if p.BusyBudget != 0 {
			return errors.New("a busy budget applies to the retry policy")
		}
	case BusyRetry:
		if p.BusyBudget <= 0 || time.Duration(p.BusyBudget) > time.Hour {
			return fmt.Errorf("busy budget %v is out of range (want a positive duration up to 1h)", time.Duration(p.BusyBudget))
		}
	default:
		return fmt.Errorf("unknown busy policy %q (want timeout or retry)", p.Busy)
	}
	return nil
}

// checkConnPerOp refuses a connection per op where an op is not its own
// transaction, or where what a worker keeps on its connection spans ops.
func (p *Plan) checkConnPerOp() error {
	if !p.ConnPerOp {
		return nil
	}
	phases := p.Phases
	if p.Warmup != nil {
		phases = append([]Phase{*p.Warmup}, phases...)
	}
	for _, ph := range phases {
		if ph.Batch > 1 {
			return fmt.Errorf("a connection per op: phase %s batches %d ops into a transaction (want 1)", ph.Name, ph.Batch)
		}
	}
	switch {
	case p.Crash != nil:
		return errors.New("a connection per op: power cuts (--crash) record one connection's writes")
	case p.Records != nil || p.owned() != nil:
		return errors.New("a connection per op runs key-value ops and SQL scripts only")
	}
	return nil
}

// checkWarmup checks the warm-up phase.
func (p *Plan) checkWarmup() error {
	w := p.Warmup
	if w == nil {
		return nil
	}
	if p.WarmupAuto {
		return errors.New("warm-up: either a fixed one or auto, not both")
	}
	if err := w.Validate(); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	if w.Access != AccessLottery {
		return errors.New("warm-up: it deals a lottery mix, not each key once")
	}
	if p.Verify || p.Crash != nil {
		return fmt.Errorf("%s checks the writes of the measured phases: drop the warm-up", p.checker())
	}
	return nil
}

// checkVerify checks that values can carry their verification tags.
func (p *Plan) checkVerify() error {
	if p.Verify && p.ValueSize-p.ValueVariance < MinVerifyValueSize {
		return fmt.Errorf("verify tags values with %d bytes: value size %d is too small", MinVerifyValueSize, p.ValueSize-p.ValueVariance)
	}
	return nil
}

// checkPin checks the CPUs a run is pinned to: not negative, and worker
// CPUs only for worker processes.
func (p *Plan) checkPin() error {
	if p.Pin == nil {
		return nil
	}
	if len(p.Pin.Workers) > 0 && p.Mode != ModeProcess {
		return fmt.Errorf("--cpus pins worker processes; %s workers run in the coordinator (pin it with --coordinator-cpu)", p.Mode)
	}
	for _, c := range p.Pin.Workers {
		if c < 0 {
			return fmt.Errorf("CPU %d is negative", c)
		}
	}
	if c := p.Pin.Coordinator; c != nil && *c < 0 {
		return fmt.Errorf("--coordinator-cpu %d is negative", *c)
	}
	return nil
}

// checkCrash checks a power-cut simulation: its states, model and
// record limit, a run without a warm-up, and values tagged with their
// writes where the workload writes key-value pairs.
func (p *Plan) checkCrash() error {
	if p.IOTrace != "" && p.IOTrace != IOTraceVFS && p.IOTrace != IOTraceFS {
		return fmt.Errorf("io trace %q (want %s or %s)", p.IOTrace, IOTraceFS, IOTraceVFS)
	}
	c := p.Crash
	if c == nil {
		return nil
	}
	switch {
	case c.Exhaustive && c.States != 0:
		return fmt.Errorf("crash: %d states and exhaustive (want one of them)", c.States)
	case !c.Exhaustive && (c.States < 1 || c.States > MaxCrashStates):
		return fmt.Errorf("crash: %d states (want 1 to %d)", c.States, MaxCrashStates)
	case c.From != "" && !slices.Contains(CrashFroms(), c.From):
		return fmt.Errorf("crash from %q (want %s)", c.From, strings.Join(CrashFroms(), ", "))
	case !slices.Contains(store.CrashModels(), c.Model):
		return fmt.Errorf("crash model %q (want %s)", c.Model, strings.Join(store.CrashModels(), ", "))
	case len(c.Models) > 0 && !slices.Contains(c.Models, c.Model):
		return fmt.Errorf("crash model %q is not among the run's models %s", c.Model, strings.Join(c.Models, ","))
	case c.RecordLimit < 1<<20:
		return fmt.Errorf("crash record limit of %d bytes (want at least 1 MiB)", c.RecordLimit)
	case p.Shard != nil:
		return errors.New("crash simulates power cuts of one database: it takes no shard")
	case p.Records != nil:
		if err := p.Records.checkCrash(p); err != nil {
			return err
		}
	case p.Replay != nil && (p.Replay.Scale > 1 || p.Replay.Window != nil || p.Replay.TimeFold != nil || p.Replay.Select != nil):
		return errors.New("crash judges a replay's states against the database after each prefix of its commits, rebuilt by running the capture's statements again: a scaled replay's copies, a folded one's slices or a window's, --read-only's or --filter's cut have no such prefixes (run --crash without --scale, --fold and --window, and without --read-only and --filter)")
	case p.SQL != nil || p.Replay != nil:
		// Transactions of SQL: their states are judged by their content.
	case !p.Verify:
		return errors.New("crash checks a key-value workload's values by the writes they name: the plan must tag its values (verify)")
	case p.ValueSize-p.ValueVariance < MinVerifyValueSize:
		return fmt.Errorf("crash tags every value with its write, in %d bytes: value size %d is too small", MinVerifyValueSize, p.ValueSize-p.ValueVariance)
	}
	if need, known := p.CrashRecordBytes(); known && need > c.RecordLimit {
		return fmt.Errorf("crash: the run's writes would need about %d MiB of crash record, more than its limit of %d MiB: raise --crash-record-limit, or run fewer --queries", need>>20+1, c.RecordLimit>>20)
	}
	return nil
}

// checker names what checks the plan's writes, for messages: crash or
// verify.
func (p *Plan) checker() string {
	if p.Crash != nil {
		return "crash"
	}
	return "verify"
}

// CheckDriver refuses, before any store opens, a plan the driver cannot
// run: workers its databases cannot host (store.CheckShare: worker
// processes on a store one process may open, but for the one worker
// process the coordinator hands it over to, HandsOver), a --crash run on a driver
// that cannot record it (by its VFS, store.PowerCutter, or by the file
// system, store.DiskFiler), a record workload on a
// driver that keeps no record tables, scans on one whose tables are
// unordered, or a build of its engine it cannot run
// (store.WorkerBuilder: a matrix's cell refused before any cell runs).
func CheckDriver(plan *Plan, drv store.Driver) error {
	procs := plan.Processes()
	if HandsOver(plan, drv) {
		procs = 1 // the coordinator closes the store before its worker opens it
	}
	if err := store.CheckShare(drv, procs, plan.Workers()); err != nil {
		return err
	}
	if wb, ok := drv.(store.WorkerBuilder); ok {
		if _, err := wb.WorkerBuild(plan.Store); err != nil {
			return err
		}
	}
	if err := checkPowerCut(drv, plan); err != nil {
		return err
	}
	return CheckTables(plan, drv)
}

// CheckTables refuses a record workload on a driver that keeps no record
// tables, or scans on one whose tables are unordered (see CheckDriver).
func CheckTables(plan *Plan, drv store.Driver) error {
	if plan.Records == nil && plan.Store.Table == nil {
		return nil
	}
	ts, ok := store.TablesOf(drv)
	if !ok {
		return fmt.Errorf("%w: driver %s keeps no record tables (the drivers that do: the SQLite drivers, lmdb, btree and map)", store.ErrInvalid, drv.Name())
	}
	if ts.Ordered || plan.Records == nil {
		return nil
	}
	for _, ph := range plan.RunPhases() {
		if slices.Contains(ph.Mix.Ops(), OpScan) {
			return fmt.Errorf("%w: driver %s keeps records in no key order, and the workload scans (%v%% of its ops): scans need a driver that keeps keys in order", store.ErrInvalid, drv.Name(), ph.Mix.Share(OpScan))
		}
	}
	return nil
}

// checkPowerCut refuses a plan whose driver cannot trace its I/O as it
// asks: a --crash plan of a driver that cannot record it, an --io-trace
// the driver has not (see IOTraceOf).
func checkPowerCut(drv store.Driver, p *Plan) error {
	if p.Crash == nil && p.IOTrace == "" {
		return nil
	}
	trace, err := IOTraceOf(p, drv)
	switch {
	case err == nil && trace == IOTraceFS && p.Crash != nil && p.Crash.Model == store.CrashRecovery:
		return fmt.Errorf("--crash-model %s records each state's reopen through SQLite's VFS; the %s driver's I/O is recorded through the FUSE file system, which does not record a reopen yet", store.CrashRecovery, drv.Name())
	case err != nil && p.Crash != nil:
		return fmt.Errorf("--crash: %w", err)
	case err != nil:
		return fmt.Errorf("--io-trace %s: %w", p.IOTrace, err)
	}
	return nil
}

// DecodePlan reads a JSON plan and validates it. Unknown fields are
// refused, so a worker never silently ignores a setting.
func DecodePlan(b []byte) (*Plan, error) {
	var p Plan
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("decoding plan: %w", err)
	}
	if dec.More() {
		return nil, errors.New("decoding plan: trailing data after the plan")
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid plan: %w", err)
	}
	return &p, nil
}

// checkVariant refuses a variant name that gates could not select a cell
// by.
func (p *Plan) checkVariant() error {
	if p.Variant == "" {
		return nil
	}
	if p.Scenario == "" {
		return fmt.Errorf("variant %q: a variant names a cell of a scenario, and the plan names none", p.Variant)
	}
	if strings.ContainsAny(p.Variant, ",=: \t\n") || len(p.Variant) > 64 {
		return fmt.Errorf("variant %q: want a name of up to 64 characters without spaces, ',', '=' or ':'", p.Variant)
	}
	return nil
}
