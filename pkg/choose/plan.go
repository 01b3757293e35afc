package choose

import (
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
	// Workload is the mix every candidate runs (its plan's mix, keys,
	// values, seed); its loop's duration and crash are Build's.
	Workload preset.MixSpec
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
}

// Plan is what Build made of a Spec: the candidates, and for each its
// speed run's plan and, where it promises to keep acknowledged writes at
// a power cut, its power-cut run's (nil elsewhere).
type Plan struct {
	Spec       Spec
	Candidates []Candidate
	Speed      []*workload.Plan
	Crash      []*workload.Plan
	// Baseline is the null driver's plan in the speed runs' shape, run
	// with them: its worker process's peak memory is what a worker costs
	// with no engine, subtracted from each row's (nil where the registry
	// has no null driver).
	Baseline *workload.Plan
	Size     Sizing
	// NotMeasured says, a line each, what the answer leaves out.
	NotMeasured []string
}

// Build makes the plans of every candidate able to keep spec's promise,
// sized to its budget. Drivers of reg only.
func Build(spec Spec, reg *store.Registry) (*Plan, error) {
	if spec.Workers < 1 {
		return nil, fmt.Errorf("--workers %d: want at least 1", spec.Workers)
	}
	cands, missing, err := Candidates(spec.Keep, reg, spec.Drivers)
	if err != nil {
		return nil, err
	}
	cut := 0
	if spec.Keep == KeepAcked {
		cut = len(cands)
	}
	_, noBaseline := reg.Lookup(BaselineDriver)
	size, err := Size(spec.Budget, len(cands), cut, noBaseline == nil)
	if err != nil {
		return nil, err
	}
	p := &Plan{Spec: spec, Candidates: cands, Size: size, NotMeasured: notMeasured(spec, missing)}
	for _, c := range cands {
		speed, err := cellPlan(spec, reg, c, workload.ModeProcess, preset.Loop{Duration: size.Run})
		if err != nil {
			return nil, err
		}
		var crash *workload.Plan
		if cut > 0 {
			loop := preset.Loop{Duration: size.CrashRun, Crash: &workload.Crash{States: size.Cuts, Model: store.CrashLose, RecordLimit: workload.DefaultRecordLimit}}
			if crash, err = cellPlan(spec, reg, c, workload.ModeGoroutine, loop); err != nil {
				return nil, err
			}
		}
		p.Speed, p.Crash = append(p.Speed, speed), append(p.Crash, crash)
	}
	if noBaseline == nil {
		if p.Baseline, err = cellPlan(spec, reg, Candidate{Driver: BaselineDriver}, workload.ModeProcess, preset.Loop{Duration: BaselineRun}); err != nil {
			return nil, fmt.Errorf("the memory baseline: %w", err)
		}
	}
	return p, nil
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
	ws := spec.Workload
	ws.Loop = loop
	plans, err := ws.Plans(m)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", c.Driver, c.Settings(), err)
	}
	if len(plans) != 1 {
		return nil, fmt.Errorf("%s %s: %d cells, want 1", c.Driver, c.Settings(), len(plans))
	}
	return plans[0], nil
}

// notMeasured says what the answer leaves out, and why.
func notMeasured(spec Spec, missing []string) []string {
	out := append([]string(nil), missing...)
	switch spec.Keep {
	case KeepProcessCrash:
		out = append(out, "power cuts: the promise asked for (process-crash) is not about power cuts, and no process crash is simulated: at each candidate's setting (sync off; pebble's normal, which writes its log unsynced) every acknowledged write is in the operating system's hands, which keep it when the process dies")
	case KeepNone:
		out = append(out, "crashes: the promise asked for (none) asks nothing of a crash, and none is simulated")
	}
	out = append(out,
		"tuned profiles: pebble and badger are measured at both profiles (profile=tool is the tuning their own benchmark tools open them with: pebble's 64 MiB memtables, badger's defaults; docs/engines.md), bbolt's tool profile is its group commit (bbolt-batch=true); the SQLite drivers and LMDB have no tool profile and run at their library's defaults",
		"files (a file per key): not among the candidates",
		"SQLite's journal modes truncate and persist (the rollback journal, ended differently): not measured")
	if spec.Keep == KeepAcked {
		out = append(out, "SQLite's rollback journal at synchronous=full: SQLite promises only that a power cut loses at most the last transaction (the journal's deletion waits for a directory sync, which extra makes), so it is no candidate")
	}
	return out
}
