package cli

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// matrixFlags bind a run's matrix (workload.Matrix) and the settings of
// every engine, which own their flags.
type matrixFlags struct {
	m              workload.Matrix
	reg            *store.Registry
	es             *store.EngineSettings
	cpus           string
	coordinatorCPU int
}

func newMatrixFlags(reg *store.Registry, driver, mode, procs, batch string) *matrixFlags {
	return &matrixFlags{
		m: workload.Matrix{
			Drivers: store.List{driver}, Modes: store.List{mode}, Procs: store.List{procs},
			Goroutines: store.List{"1"}, Batches: store.List{batch}, Busy: workload.BusyTimeout,
		},
		reg: reg,
		es:  reg.Settings(),
	}
}

// AddFlags binds the flags; batchHelp says what --batch groups.
func (f *matrixFlags) AddFlags(fs *pflag.FlagSet, batchHelp string) {
	list := " (a comma list spans a matrix)"
	inGroup(fs, groupEngine, func() {
		fs.Var(&f.m.Drivers, "driver", "store driver: "+driverNames(f.reg)+list)
		fs.StringVar(&f.m.Busy, "busy", f.m.Busy, "who waits for locks: timeout (SQLite's busy handler sleeps inside the op, up to --busy-timeout: waits hide in its latency) or retry (busy_timeout 0; gobench retries busy ops with backoff for up to --busy-timeout and counts every retry and the time waited)")
		fs.Var(&f.m.Batches, "batch", batchHelp+list)
		f.es.AddFlags(fs)
	})
	inGroup(fs, groupWorkers, func() {
		fs.Var(&f.m.Modes, "mode", "worker mode: process (a real OS process per --procs) or goroutine (all workers in this process)"+list)
		fs.Var(&f.m.Procs, "procs", "worker processes, each with its own database connection(s)"+list)
		fs.Var(&f.m.Goroutines, "goroutines", "workers per process, each with its own connection"+list)
		fs.StringVar(&f.cpus, "cpus", "", "pin worker processes to these CPUs, round-robin, such as 0-3 or 0,2,4 (Linux; recorded in the plan)")
		f.coordinatorCPU = -1
		fs.IntVar(&f.coordinatorCPU, "coordinator-cpu", -1, "pin the coordinating process (and goroutine workers, which run in it) to this CPU (Linux)")
	})
}

// matrix returns the preset matrix the flags give.
func (f *matrixFlags) matrix(fs *pflag.FlagSet) (preset.Matrix, error) {
	if slices.Contains(f.m.Modes, workload.ModeGoroutine) && fs.Changed("ready-timeout") {
		return preset.Matrix{}, errors.New("--ready-timeout applies to worker processes, not to --mode goroutine")
	}
	m := f.m
	m.AutoMode = !fs.Changed("mode")
	var err error
	if m.Pin, err = f.pin(fs); err != nil {
		return preset.Matrix{}, err
	}
	return preset.Matrix{Matrix: m, Registry: f.reg, Engines: f.es, Given: fs.Changed, Default: flagDefault(fs)}, nil
}

// flagDefault returns the default value of fs's flags, by name: false
// for a flag fs does not have.
func flagDefault(fs *pflag.FlagSet) func(string) (string, bool) {
	return func(name string) (string, bool) {
		f := fs.Lookup(name)
		if f == nil {
			return "", false
		}
		return f.DefValue, true
	}
}

// pin reads --cpus and --coordinator-cpu: nil when neither is given.
func (f *matrixFlags) pin(fs *pflag.FlagSet) (*workload.Pin, error) {
	if !fs.Changed("cpus") && !fs.Changed("coordinator-cpu") {
		return nil, nil
	}
	if !sysinfo.CanPin() {
		return nil, fmt.Errorf("--cpus and --coordinator-cpu: %w", sysinfo.ErrPinUnsupported)
	}
	p := &workload.Pin{}
	if fs.Changed("cpus") {
		var err error
		if p.Workers, err = sysinfo.ParseCPUList(f.cpus); err != nil {
			return nil, fmt.Errorf("--cpus: %w", err)
		}
	}
	if fs.Changed("coordinator-cpu") {
		c := f.coordinatorCPU
		p.Coordinator = &c
	}
	for _, c := range append(slices.Clone(p.Workers), f.coordinatorCPU) {
		if c >= runtime.NumCPU() {
			return nil, fmt.Errorf("CPU %d: this machine lets gobench use %d CPUs (0 to %d)", c, runtime.NumCPU(), runtime.NumCPU()-1)
		}
	}
	return p, nil
}

// driverNames lists reg's drivers for help.
func driverNames(reg *store.Registry) string { return strings.Join(reg.Names(), ", ") }
