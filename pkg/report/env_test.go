package report

import (
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

func TestMachineText(t *testing.T) {
	if got := machineText(envRun(nil).Environment); got != "Linux 6.1.0 amd64, AMD EPYC 7B13, 8 CPUs, governor performance, 32 GiB" {
		t.Errorf("MachineText = %q", got)
	}
	// Only the mount options that bear on durability or on what a read
	// writes back are shown; the JSON keeps them all.
	for _, tt := range []struct{ options, want string }{
		{"rw,relatime", "ext4"},
		{"", "ext4"},
		{"rw,noatime,resuid=65534,errors=remount-ro,data=ordered,barrier=1", "ext4 (noatime,data=ordered,barrier=1)"},
		{"rw,sync,dirsync,commit=60", "ext4 (sync,dirsync,commit=60)"},
		{"rw,nobarrier,lazytime", "ext4 (nobarrier,lazytime)"},
	} {
		env := envRun(nil).Environment
		env.MountOptions = tt.options
		if got := filesystemText(env); got != tt.want {
			t.Errorf("filesystemText(%q) = %q, want %q", tt.options, got, tt.want)
		}
	}
}
