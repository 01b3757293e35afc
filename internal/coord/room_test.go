package coord

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// A database kept in memory (--storage memory's SQLite memdb, the map and
// btree engines) whose data exceeds the memory available is refused
// before anything runs, saying what it needs and what there is: the free
// room on the disk was checked instead, and `crud --rows 30m --value-size
// 1000 --storage memory` (28 GiB on a 23.5 GiB machine) climbed until it
// was killed. The size is twice what this machine says is available.
func TestCheckRoomMemory(t *testing.T) {
	avail, ok := sysinfo.AvailableMemory()
	if !ok {
		t.Skip("this OS does not say how much memory is available (MemAvailable in /proc/meminfo on Linux)")
	}
	const value = 1000
	rows := uint64(2*avail/value) + 1
	memOpts := sqlite.DefaultOptions()
	memOpts.Memory, memOpts.Journal = true, "memory"
	reg := all.Registry()
	for _, tt := range []struct {
		driver string
		opts   []byte
	}{{"map", nil}, {"btree", nil}, {"mattn", memOpts.Encode()}, {"modernc", memOpts.Encode()}} {
		drv, err := reg.Lookup(tt.driver)
		if err != nil {
			t.Fatal(err)
		}
		p := workload.DefaultPlan()
		p.Driver, p.Mode = tt.driver, workload.ModeGoroutine
		p.Store = store.Config{Path: filepath.Join(t.TempDir(), "kv.db"), Options: tt.opts}
		p.ValueSize, p.ValueVariance = value, 0
		p.Keys.Count, p.Preload = rows, rows
		if !store.InMemory(drv, p.Store) {
			t.Errorf("%s: not in memory", tt.driver)
		}
		for name, err := range map[string]error{
			"a run":  checkRoom(&p, drv),
			"a cell": (&Cells{Plans: []*workload.Plan{&p}, Base: Config{Registry: reg}, Dir: t.TempDir()}).checkRoom(),
		} {
			if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "kept in memory need at least") || !strings.Contains(err.Error(), "of memory available") {
				t.Errorf("%s, %s: %v; want ErrInvalid saying what memory it needs and what is available", tt.driver, name, err)
			}
		}
	}
	// On disk, the same store is checked against the disk as before.
	drv, _ := reg.Lookup("mattn")
	p := workload.DefaultPlan()
	p.Driver, p.Store = "mattn", store.Config{Path: filepath.Join(t.TempDir(), "kv.db")}
	if store.InMemory(drv, p.Store) {
		t.Error("a SQLite file on disk is taken as in memory")
	}
}
