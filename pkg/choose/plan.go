package choose

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Spec is what choose is asked: a workload, a promise, a time budget.
type Spec struct {
	// Workload is what every candidate runs (a mix or roles, YCSB, SQL
	// scripts, a trace); its runs' length and crash are Build's.
	Workload Workload
	// Keep is the promise (KeepAcked, KeepProcessCrash, KeepNone).
	Keep string
	// Budget is the time the measuring may take, setup included.
	Budget time.Duration
	// Workers is the goroutines of the one process every candidate runs
	// in (bbolt, pebble and badger allow one process at a time): a worker
	// process of its own for the speed runs, gobench's for the traced
	// power-cut run.
	Workers int
	// Drivers, when set, are the only drivers considered.
	Drivers []string
	// RankBy, for a workload of roles, names the role whose ops/s ranks
	// the rows; "" chooses one (rankKey).
	RankBy string
}

// Plan is what Build made of a Spec: the candidates, and for each its
// speed run's plan and, where it promises to keep acknowledged writes at
// a power cut, its power-cut run's (nil elsewhere).
type Plan struct {
	Spec       Spec
	Candidates []Candidate
	Speed      []*workload.Plan
	Crash      []*workload.Plan
	Size       Sizing
	// Workload names the workload for the answer (Workload.Name).
	Workload string
	// Baseline is the null driver's plan in the speed runs' shape, run
	// with them: its worker process's peak memory is what a worker costs
	// with no engine, subtracted from each row's (nil where the registry
	// has no null driver).
	Baseline *workload.Plan
	// NotMeasured says, a line each, what the answer leaves out.
	NotMeasured []string
	// RankBy is the role whose ops/s ranks the rows ("": the total's),
	// RankWhy why it is that one.
	RankBy, RankWhy string
}

// Build makes the plans of every candidate able to keep spec's promise,
// sized to its budget. Drivers of reg only.
func Build(spec Spec, reg *store.Registry) (*Plan, error) {
	if spec.Workload == nil {
		return nil, errors.New("no workload")
	}
	if spec.Workers < 1 || spec.Workers > workload.MaxGoroutines {
		return nil, fmt.Errorf("--workers %d: want 1 to %d (the goroutines of one process)", spec.Workers, workload.MaxGoroutines)
	}
	cands, missing, err := Candidates(spec.Keep, reg, spec.Drivers)
	if err != nil {
		return nil, err
	}
	cands, refused, err := runnable(spec, reg, cands)
	if err != nil {
		return nil, err
	}
	missing = append(missing, refused...)
	cut := 0
	if spec.Keep == KeepAcked {
		cut = len(cands)
	}
	_, noBaseline := reg.Lookup(BaselineDriver)
	size, err := Size(spec.Budget, len(cands), cut, noBaseline == nil)
	if err != nil && spec.Budget > 0 && drivers(cands) > 1 {
		return nil, fmt.Errorf("%w, or fewer drivers", err)
	}
	if err != nil {
		return nil, err
	}
	p := &Plan{Spec: spec, Candidates: cands, Size: size}
	for _, c := range cands {
		speed, err := cellPlan(spec, reg, c, workload.ModeProcess, preset.Loop{Duration: size.Run})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name(), err)
		}
		var crash *workload.Plan
		if cut > 0 {
			if crash, err = cellPlan(spec, reg, c, workload.ModeGoroutine, crashLoop(size.CrashRun, size.Cuts)); err != nil {
				return nil, fmt.Errorf("%s: %w", c.Name(), err)
			}
		}
		p.Speed, p.Crash = append(p.Speed, speed), append(p.Crash, crash)
	}
	if cut > 0 && !planWrites(p.Speed[0]) {
		// Its power-cut runs would sync nothing, cut nothing, rank nothing.
		return nil, fmt.Errorf("--keep %s: the workload writes nothing, so a power cut has no acknowledged write to lose (give --keep none to rank by speed alone)", spec.Keep)
	}
	p.Workload = spec.Workload.Name(p.Speed[0])
	if p.RankBy, p.RankWhy, err = rankKey(p.Speed[0], spec.RankBy); err != nil {
		return nil, err
	}
	p.NotMeasured = notMeasured(spec, missing, p.Speed[0], cands)
	if noBaseline == nil {
		if p.Baseline, err = baselinePlan(spec, reg); err != nil {
			return nil, fmt.Errorf("the memory baseline: %w", err)
		}
	}
	return p, nil
}

// drivers counts the distinct drivers among cands.
func drivers(cands []Candidate) int {
	seen := map[string]bool{}
	for _, c := range cands {
		seen[c.Driver] = true
	}
	return len(seen)
}

// crashLoop is the loop of a power-cut run: run long, cut cuts times.
func crashLoop(run time.Duration, cuts int) preset.Loop {
	return preset.Loop{Duration: run, Crash: &workload.Crash{States: cuts, Model: store.CrashLose, RecordLimit: workload.DefaultRecordLimit}}
}

// baselinePlan is the memory baseline's plan: the null driver running
// the workload in the speed runs' shape, or, for a workload the null
// driver cannot run (SQL scripts, a trace, YCSB's record tables),
// choose's default mix in it: what a worker process costs with no engine
// either way.
func baselinePlan(spec Spec, reg *store.Registry) (*workload.Plan, error) {
	c, loop := Candidate{Driver: BaselineDriver}, preset.Loop{Duration: BaselineRun}
	drv, err := reg.Lookup(BaselineDriver)
	if err != nil {
		return nil, err
	}
	if only, _ := spec.Workload.Drivers(); only == nil || slices.Contains(only, BaselineDriver) {
		p, err := cellPlan(spec, reg, c, workload.ModeProcess, loop)
		if err == nil && workload.CheckDriver(p, drv) == nil {
			return p, nil
		}
		if err != nil && !errors.Is(err, store.ErrInvalid) {
			return nil, err
		}
	}
	spec.Workload = Mix{Spec: preset.DefaultMixSpec()}
	return cellPlan(spec, reg, c, workload.ModeProcess, loop)
}

// BaselineDriver is the driver of the memory baseline (Plan.Baseline):
// the engine that does nothing.
const BaselineDriver = "null"

// SpeedCells are the plans the speed runs run, interleaved: each
// candidate's, then the memory baseline's where there is one.
func (p *Plan) SpeedCells() []*workload.Plan {
	if p.Baseline == nil {
		return p.Speed
	}
	return append(slices.Clip(p.Speed), p.Baseline)
}

// cellPlan is the plan of candidate c under loop, its workers
// spec.Workers goroutines of one process of mode (a worker process of its
// own, or gobench's): the engine's own flags set to the candidate's
// values, as a command line would set them, and spanned by the one matrix
// every command spans.
func cellPlan(spec Spec, reg *store.Registry, c Candidate, mode string, loop preset.Loop) (*workload.Plan, error) {
	es := reg.Settings()
	fs := pflag.NewFlagSet("choose", pflag.ContinueOnError)
	es.AddFlags(fs)
	for _, f := range c.Flags {
		if err := fs.Set(f.Name, f.Value); err != nil {
			return nil, fmt.Errorf("%s --%s %s: %w", c.Driver, f.Name, f.Value, err)
		}
	}
	m := preset.Matrix{
		Matrix: workload.Matrix{Drivers: store.List{c.Driver}, Modes: store.List{mode}, Procs: store.List{"1"},
			Goroutines: store.List{strconv.Itoa(spec.Workers)}, Batches: store.List{"1"}, Busy: workload.BusyTimeout},
		Registry: reg, Engines: es, Given: fs.Changed,
	}
	return spec.Workload.Plan(m, loop)
}

// notMeasured says what the answer leaves out, and why.
func notMeasured(spec Spec, missing []string, speed *workload.Plan, cands []Candidate) []string {
	out := append([]string(nil), missing...)
	if !spec.Workload.Timed() {
		out = append(out, fmt.Sprintf("run length: each run replays the whole trace (up to %d statements a connection), whatever the budget, which sizes only the repeats and the power cuts: the runs' length above is what the budget planned, not what they took", speed.Phases[0].Ops))
	}
	switch spec.Keep {
	case KeepProcessCrash:
		out = append(out, "power cuts: the promise asked for (process-crash) is not about power cuts, and no process crash is simulated: at each candidate's setting (sync off; pebble's normal, which writes its log unsynced) every acknowledged write is in the operating system's hands, which keep it when the process dies")
	case KeepNone:
		out = append(out, "crashes: the promise asked for (none) asks nothing of a crash, and none is simulated")
	}
	out = append(out,
		"tuned profiles: pebble and badger are measured at both profiles (profile=tool is the tuning their own benchmark tools open them with: pebble's 64 MiB memtables, badger's defaults; docs/engines.md), bbolt's tool profile is its group commit (bbolt-batch=true); the SQLite drivers and LMDB have no tool profile and run at their library's defaults")
	// What --driver left out was not asked about: files, and SQLite's
	// settings where no SQLite driver is a candidate.
	if len(spec.Drivers) == 0 {
		out = append(out, "files (a file per key): not among the candidates")
	}
	if !slices.ContainsFunc(cands, func(c Candidate) bool { return c.has("journal") }) {
		return out
	}
	out = append(out, "SQLite's journal modes truncate and persist (the rollback journal, ended differently): not measured")
	if spec.Keep == KeepAcked {
		out = append(out, "SQLite's rollback journal at synchronous=full: SQLite promises only that a power cut loses at most the last transaction (the journal's deletion waits for a directory sync, which extra makes), so it is no candidate")
	}
	return out
}

// has reports whether c sets the flag name (journal: a SQLite driver).
func (c Candidate) has(name string) bool {
	return slices.ContainsFunc(c.Flags, func(f Flag) bool { return f.Name == name })
}

// planWrites reports whether any phase of p may write; a trace's plan is
// taken to (its source counts commits, and a statement in autocommit
// writes without one).
func planWrites(p *workload.Plan) bool {
	if p.Replay != nil {
		return true
	}
	for i := range p.Phases {
		if ph := &p.Phases[i]; p.Source(ph).Writes(p, ph) > 0 {
			return true
		}
	}
	return false
}
