package coord

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/gobench/gobench/internal/sysinfo"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// environment is the one place a result's environment is filled: the
// machine, the file system holding the database (or none, for an
// in-memory one), the engine's facts read back, and the fsync ceiling
// measured before the run.
func environment(cfg Config, facts []store.Fact) result.Environment {
	mach := sysinfo.ReadMachine()
	env := result.Environment{
		OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(),
		Kernel: mach.Kernel, CPUModel: mach.CPUModel, Governor: mach.Governor, MemoryBytes: mach.MemoryBytes,
		Filesystem: "none (in memory)",
		Store:      facts,
		Ceiling:    cfg.Ceiling,
	}
	env.Host, _ = os.Hostname()
	if path := cfg.Plan.Store.Path; path != "" {
		if _, err := os.Stat(path); err == nil {
			env.Filesystem = sysinfo.Filesystem(filepath.Dir(path))
			env.MountOptions = sysinfo.MountOptions(filepath.Dir(path))
		}
	}
	return env
}
