package bench

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
)

// Environment is the one place a run's environment is filled: the
// machine, the file system holding the database at dbPath (or none, for
// an in-memory one), and the engine's facts read back (store.Describer),
// with the summary drv gives of them (store.Summarizer). The caller adds
// what it measured itself (the fsync ceiling).
func Environment(dbPath string, drv store.Driver, facts []store.Fact) result.Environment {
	mach := sysinfo.ReadMachine()
	env := result.Environment{
		OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(),
		Kernel: mach.Kernel, CPUModel: mach.CPUModel, Governor: mach.Governor, MemoryBytes: mach.MemoryBytes,
		Filesystem: "none (in memory)",
		Store:      facts,
	}
	if drv != nil {
		env.Store = store.Summarize(drv, facts)
		env.Sharing = store.ShareOf(drv).Sharing.String()
		env.SyncPrimitive = store.FactValue(facts, store.FactSyncPrimitive)
	}
	env.Host, _ = os.Hostname()
	if dbPath != "" {
		if _, err := os.Stat(dbPath); err == nil {
			env.Filesystem = sysinfo.Filesystem(filepath.Dir(dbPath))
			env.MountOptions = sysinfo.MountOptions(filepath.Dir(dbPath))
		}
	}
	return env
}
