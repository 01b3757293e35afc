package disk

import (
	"context"
	"errors"
	"os"
	"testing"
)

// Real writes, reads and fsyncs on the test's own file system.
func TestMeasureSequential(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, mode := range []SyncMode{SyncNone, SyncDsync, SyncFdatasync, SyncFsyncEnd} {
		r, err := MeasureSequential(context.Background(), dir, 1<<20, 64<<10, mode, false)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if r.Bytes != 1<<20 || r.WriteBytesPerSec <= 0 || r.ReadBytesPerSec <= 0 {
			t.Errorf("%s: %+v", mode, r)
		}
		if !r.CacheDropped && r.CacheNote == "" {
			t.Errorf("%s: cache neither dropped nor explained", mode)
		}
	}
	// A size below one block is refused, and nothing written: one block
	// would be far more than the size asked for (--size 4k --bs 1G wrote
	// a whole GiB).
	if r, err := MeasureSequential(context.Background(), dir, 100, 4096, SyncNone, false); err == nil || r.Bytes != 0 {
		t.Errorf("tiny size: %+v, %v", r, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left behind", len(entries))
	}
}

func TestDirect(t *testing.T) {
	t.Parallel()
	if _, err := MeasureSequential(context.Background(), t.TempDir(), 1<<20, 100000, SyncNone, true); !errors.Is(err, ErrDirect) {
		t.Errorf("unaligned block size with O_DIRECT: %v", err)
	}
	r, err := MeasureSequential(context.Background(), t.TempDir(), 1<<20, 64<<10, SyncNone, true)
	switch {
	case errors.Is(err, ErrDirect):
		t.Logf("this file system refuses O_DIRECT: %v", err)
	case err != nil:
		t.Fatal(err)
	case !r.CacheDropped:
		t.Errorf("O_DIRECT read reported as cached: %+v", r)
	}
	if _, err := os.Stat("/dev/shm"); err == nil {
		if _, err := MeasureSequential(context.Background(), "/dev/shm", 1<<20, 64<<10, SyncNone, true); err != nil && !errors.Is(err, ErrDirect) {
			t.Errorf("tmpfs and O_DIRECT: %v, want ErrDirect or success", err)
		}
	}
}

func TestMeasureFsync(t *testing.T) {
	t.Parallel()
	r, err := MeasureFsync(context.Background(), t.TempDir(), 20, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 20 || r.OpsPerSec <= 0 || r.P50Micros <= 0 || r.P99Micros < r.P50Micros || r.MaxMicros < r.P99Micros {
		t.Errorf("%+v", r)
	}
}

func TestParseSyncMode(t *testing.T) {
	t.Parallel()
	if _, err := ParseSyncMode("sometimes"); err == nil {
		t.Error("a bad sync mode was accepted")
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var steps []Step
	rep, err := Run(context.Background(), Config{Dir: dir, Size: 256 << 10, BlockSizes: []int64{4096, 100000}, Sync: SyncFsyncEnd,
		FsyncOps: 10, FsyncSize: 512, Progress: func(s Step) { steps = append(steps, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sequential) != 2 || rep.Sequential[1].BlockSize != 100000 || rep.Sequential[1].Bytes != 200000 || rep.Fsync == nil || rep.Fsync.Ops != 10 {
		t.Errorf("report: %+v", rep)
	}
	want := []Step{{Index: 1, Of: 3, BlockSize: 4096, Bytes: 256 << 10}, {Index: 2, Of: 3, BlockSize: 100000, Bytes: 200000}, {Index: 3, Of: 3, Fsync: true}}
	if len(steps) != len(want) {
		t.Fatalf("steps %+v", steps)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Errorf("step %d = %+v, want %+v", i, steps[i], want[i])
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left behind", len(entries))
	}
}

// A cancelled run returns what it measured and the context's error.
func TestRunCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	rep, err := Run(ctx, Config{Dir: dir, Size: 64 << 10, BlockSizes: []int64{4096, 8192}, Sync: SyncNone,
		Progress: func(s Step) {
			if s.Index == 2 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) || rep == nil || len(rep.Sequential) != 1 {
		t.Errorf("cancelled run: %+v, %v", rep, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left behind", len(entries))
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	ok := Config{Size: 1 << 20, BlockSizes: []int64{4096}, Sync: SyncNone}
	for _, tt := range []struct {
		name   string
		change func(*Config)
	}{
		{"zero size", func(c *Config) { c.Size = 0 }},
		{"nothing to measure", func(c *Config) { c.BlockSizes = nil }},
		{"zero block", func(c *Config) { c.BlockSizes = []int64{0} }},
		{"a block size twice", func(c *Config) { c.BlockSizes = []int64{4096, 4096} }},
		{"unaligned direct", func(c *Config) { c.Direct, c.BlockSizes = true, []int64{100000} }},
		{"bad sync", func(c *Config) { c.Sync = "often" }},
		{"negative probe", func(c *Config) { c.FsyncOps = -1 }},
		{"probe without size", func(c *Config) { c.FsyncOps = 10 }},
		{"a block larger than the size", func(c *Config) { c.Size, c.BlockSizes = 4096, []int64{1 << 30} }},
	} {
		c := ok
		tt.change(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

// Need is the largest file a run has on disk at once: a block size's
// whole blocks, or the fsync probe's writes.
func TestConfigNeed(t *testing.T) {
	for _, tt := range []struct {
		c    Config
		want int64
	}{
		{Config{Size: 1 << 20, BlockSizes: []int64{4096, 100000}}, 1 << 20},
		{Config{Size: 250000, BlockSizes: []int64{100000}}, 200000},
		{Config{Size: 1 << 20, FsyncOps: 1000, FsyncSize: 4096}, 4096000},
		{Config{Size: 1 << 20, BlockSizes: []int64{4096}, FsyncOps: 10, FsyncSize: 512}, 1 << 20},
	} {
		if got := tt.c.Need(); got != tt.want {
			t.Errorf("%+v: Need() = %d, want %d", tt.c, got, tt.want)
		}
	}
}
