package cli

import (
	"errors"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// matrixFlags bind a run's matrix (workload.Matrix) and the settings of
// every engine, which own their flags.
type matrixFlags struct {
	m   workload.Matrix
	reg *store.Registry
	es  *store.EngineSettings
}

func newMatrixFlags(driver, mode, procs, batch string) *matrixFlags {
	reg := all.Registry()
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
		fs.Var(&f.m.Drivers, "driver", "store driver: "+driverNames()+list)
		fs.StringVar(&f.m.Busy, "busy", f.m.Busy, "who waits for locks: timeout (SQLite's busy handler sleeps inside the op, up to --busy-timeout: waits hide in its latency) or retry (busy_timeout 0; gobench retries busy ops with backoff for up to --busy-timeout and counts every retry and the time waited)")
		fs.Var(&f.m.Batches, "batch", batchHelp+list)
		f.es.AddFlags(fs)
	})
	inGroup(fs, groupWorkers, func() {
		fs.Var(&f.m.Modes, "mode", "worker mode: process (a real OS process per --procs) or goroutine (all workers in this process)"+list)
		fs.Var(&f.m.Procs, "procs", "worker processes, each with its own database connection(s)"+list)
		fs.Var(&f.m.Goroutines, "goroutines", "workers per process, each with its own connection"+list)
	})
}

// matrix returns the preset matrix the flags give.
func (f *matrixFlags) matrix(fs *pflag.FlagSet) (preset.Matrix, error) {
	if slices.Contains(f.m.Modes, workload.ModeGoroutine) && fs.Changed("ready-timeout") {
		return preset.Matrix{}, errors.New("--ready-timeout applies to worker processes, not to --mode goroutine")
	}
	return preset.Matrix{Matrix: f.m, Registry: f.reg, Engines: f.es, Given: fs.Changed}, nil
}

func driverNames() string { return strings.Join(all.Registry().Names(), ", ") }
