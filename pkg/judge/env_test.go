package judge

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

func envRun(mutate func(*result.Result)) *result.Result {
	r := &result.Result{Tool: result.Tool{Name: "gobench", Version: "v1.0.0", GoVersion: "go1.26.8"}}
	r.Environment = result.Environment{OS: "linux", Arch: "amd64", CPUs: 8, Kernel: "Linux 6.1.0", CPUModel: "AMD EPYC 7B13",
		Governor: "performance", MemoryBytes: 32 << 30, Filesystem: "ext4", MountOptions: "rw,relatime",
		Store: []store.Fact{{Name: "driver", Value: "mattn"}, {Name: "sqlite_version", Value: "3.53.4"}, {Name: "compile_options", Value: "A B C"}}}
	if mutate != nil {
		mutate(r)
	}
	return r
}

// compare warns about every difference of machine, file system, engine
// build or tool, and says nothing about facts an older result lacks.
func TestEnvironmentDiffs(t *testing.T) {
	if d := environmentDiffs(envRun(nil), envRun(nil)); len(d) != 0 {
		t.Errorf("identical environments: %q", d)
	}
	for _, tt := range []struct {
		mutate func(*result.Result)
		want   string
	}{
		{func(r *result.Result) { r.Environment.Kernel = "Linux 6.5.0" }, "kernel differs: Linux 6.1.0 vs Linux 6.5.0"},
		{func(r *result.Result) { r.Environment.Governor = "powersave" }, "CPU governor differs: performance vs powersave"},
		{func(r *result.Result) { r.Environment.MemoryBytes = 16 << 30 }, "memory differs: 32 GiB vs 16 GiB"},
		{func(r *result.Result) { r.Environment.MountOptions = "rw,noatime" }, "mount options differ"},
		{func(r *result.Result) { r.Environment.Store[2].Value = "A C D" }, "SQLite compile options differ: only in the old: B; only in the new: D"},
		{func(r *result.Result) { r.Environment.Store[1].Value = "3.46.0" }, "sqlite version differs: 3.53.4 vs 3.46.0"},
		{func(r *result.Result) { r.Tool.Version = "v1.1.0" }, "gobench version differs"},
	} {
		d := environmentDiffs(envRun(nil), envRun(tt.mutate))
		if len(d) != 1 || !strings.Contains(d[0], tt.want) {
			t.Errorf("%q, want one warning with %q", d, tt.want)
		}
	}
	old := envRun(func(r *result.Result) {
		r.Environment.Kernel, r.Environment.CPUModel, r.Environment.Governor, r.Environment.MemoryBytes, r.Environment.MountOptions = "", "", "", 0, ""
		r.Environment.Store = r.Environment.Store[:2]
	})
	if d := environmentDiffs(old, envRun(nil)); len(d) != 0 {
		t.Errorf("a result without a fingerprint: %q", d)
	}
}

// Every engine's version fact is compared, not only SQLite's: two runs
// that differ only in the module version of a pure-Go engine say so.
func TestEnvironmentDiffsEngineVersions(t *testing.T) {
	for _, engine := range []string{"bbolt", "pebble", "badger", "lmdb", "sqlite"} {
		run := func(v string) *result.Result {
			return envRun(func(r *result.Result) {
				r.Environment.Store = []store.Fact{{Name: "driver", Value: engine}, {Name: store.VersionFact(engine), Value: v}}
			})
		}
		d := environmentDiffs(run(engine+" v1.0.0"), run(engine+" v1.0.1"))
		if want := engine + " version differs: " + engine + " v1.0.0 vs " + engine + " v1.0.1"; len(d) != 1 || d[0] != want {
			t.Errorf("%s: %q, want one warning %q", engine, d, want)
		}
		if d := environmentDiffs(run(engine+" v1.0.0"), run(engine+" v1.0.0")); len(d) != 0 {
			t.Errorf("%s: the same version: %q", engine, d)
		}
	}
}
