package result

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// The shards of a job run every one of its runs exactly once, whatever
// the cells, repeats and shards; when the shards divide the cells, each
// runs whole cells, every repeat of them.
func TestShardSlotsCoverEveryRunOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ cells, repeat, count int }{
		{4, 2, 2}, {4, 2, 4}, {3, 2, 2}, {1, 5, 5}, {4, 1, 3}, {2, 3, 6}, {5, 3, 4},
	} {
		seen := map[Slot]int{}
		for i := 1; i <= tt.count; i++ {
			slots := ShardSlots(i, tt.count, tt.cells, tt.repeat)
			if len(slots) == 0 {
				t.Errorf("%+v: shard %d runs nothing", tt, i)
			}
			for _, sl := range slots {
				seen[sl]++
			}
			if tt.cells%tt.count == 0 {
				for _, sl := range slots {
					if (sl.Cell-1)%tt.count != i-1 {
						t.Errorf("%+v: shard %d runs cell %d, another shard's", tt, i, sl.Cell)
					}
				}
				if len(slots) != tt.cells/tt.count*tt.repeat {
					t.Errorf("%+v: shard %d runs %d runs, want whole cells: %d", tt, i, len(slots), tt.cells/tt.count*tt.repeat)
				}
			}
		}
		for c := 1; c <= tt.cells; c++ {
			for r := 1; r <= tt.repeat; r++ {
				if n := seen[Slot{c, r}]; n != 1 {
					t.Errorf("%+v: cell %d repeat %d runs %d times, want once", tt, c, r, n)
				}
			}
		}
		if len(seen) != tt.cells*tt.repeat {
			t.Errorf("%+v: %d runs, want %d", tt, len(seen), tt.cells*tt.repeat)
		}
	}
	want := []Slot{{1, 1}, {3, 1}, {1, 2}, {3, 2}}
	if got := ShardSlots(1, 2, 4, 2); !slices.Equal(got, want) {
		t.Errorf("shard 1/2 of 4 cells × 2: %v, want %v", got, want)
	}
}

func TestCheckShard(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		index, count, cells, repeat int
		err                         string
	}{
		{1, 2, 4, 2, ""},
		{2, 2, 1, 2, ""},
		{1, 2, 1, 1, "the job is one run"},
		{3, 3, 2, 1, "the job has 2 runs (2 cells × --repeat 1), fewer than the 3 shards"},
		{0, 2, 4, 1, "out of range"},
		{3, 2, 4, 1, "out of range"},
	} {
		err := CheckShard(tt.index, tt.count, tt.cells, tt.repeat)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%+v: %v, want %q", tt, err, tt.err)
		}
	}
}

// jobShards runs (fakes) a job of the given journal modes × repeat split
// over count shards, as each shard's suite: its runs those ShardSlots
// gives it, each marked with its slot.
func jobShards(t *testing.T, journals []string, repeat, count int, expect []string) []*Suite {
	t.Helper()
	var out []*Suite
	for i := 1; i <= count; i++ {
		var runs []*Result
		for _, sl := range ShardSlots(i, count, len(journals), repeat) {
			r := fakeRun(t, journals[sl.Cell-1], "full", 1, 10, time.Duration(sl.Cell)*time.Millisecond)
			r.Slot = &sl
			runs = append(runs, r)
		}
		s, err := NewSuite("mix", "interleaved", runs, "")
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(journals))
		for k, j := range journals {
			names[k] = "journal=" + j
		}
		s.Shard = &Shard{Index: i, Count: count, Cells: names, Repeat: repeat, Expect: expect}
		out = append(out, s)
	}
	return out
}

// The shards of a job merge into its suite: every cell in the job's
// order with its repeats in theirs, whatever order the shards come in;
// a missing shard is named with its runs.
func TestMergeJobShards(t *testing.T) {
	t.Parallel()
	journals := []string{"rollback", "wal", "truncate", "persist"}
	shards := jobShards(t, journals, 2, 2, []string{"errors == 0"})
	if line := shards[0].ShardLine(); line != "shard 1 of 2: cells journal=rollback, journal=truncate × repeats 1–2 (4 of the job's 8 runs; gobench merge joins the shards into its suite)" {
		t.Errorf("shard line: %s", line)
	}
	m, err := Merge([]*Suite{shards[1], shards[0]})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cells) != 4 || m.Shard != nil || len(m.Missing) != 0 {
		t.Fatalf("merged: %d cells, shard %v, missing %v", len(m.Cells), m.Shard, m.Missing)
	}
	for i, c := range m.Cells {
		if got := c.Settings.String(); got != "journal="+journals[i] {
			t.Errorf("cell %d is %s, want journal=%s", i+1, got, journals[i])
		}
		if len(c.Runs) != 2 || c.Runs[0].Slot.Repeat != 1 || c.Runs[1].Slot.Repeat != 2 || c.Runs[0].Slot.Cell != i+1 {
			t.Errorf("cell %d: %d runs, slots %v", i+1, len(c.Runs), c.Runs[0].Slot)
		}
	}
	if m.Baseline.String() != "journal=rollback" {
		t.Errorf("baseline %s, want the job's first cell", m.Baseline)
	}

	m, err = Merge(shards[1:])
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"shard 1/2 is missing: journal=rollback (repeats 1–2), journal=truncate (repeats 1–2)"}; !slices.Equal(m.Missing, want) || len(m.Cells) != 2 {
		t.Errorf("a lone shard 2/2: %d cells, missing %q; want %q", len(m.Cells), m.Missing, want)
	}
	// A shard that stopped early: its runs not there are named.
	short := *shards[0]
	short.Cells = short.Cells[:1]
	short.Cells[0].Runs = short.Cells[0].Runs[:1]
	m, err = Merge([]*Suite{&short, shards[1]})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"shard 1/2 stopped before journal=truncate (repeats 1–2), journal=rollback (repeat 2)"}; !slices.Equal(m.Missing, want) {
		t.Errorf("a shard that stopped: missing %q, want %q", m.Missing, want)
	}
	// A shard whose run did not complete (interrupted, or its file
	// edited to say so): the run is named as missing, as a shard that
	// stopped before it would be.
	cut := jobShards(t, journals, 2, 2, nil)
	cut[1].Cells[1].Runs[0].Complete = false
	m, err = Merge(cut)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"shard 2 of 2: the run of journal=persist (repeat 1) did not complete"}; !slices.Equal(m.Missing, want) {
		t.Errorf("a shard with an incomplete run: missing %q, want %q", m.Missing, want)
	}
}

// Shards that are not of one job, or that hold what is not theirs, are
// refused.
func TestMergeJobShardsRefuses(t *testing.T) {
	t.Parallel()
	journals := []string{"rollback", "wal", "truncate", "persist"}
	shards := jobShards(t, journals, 2, 2, nil)
	other := jobShards(t, journals, 2, 4, nil)
	gated := jobShards(t, journals, 2, 2, []string{"errors == 0"})
	plain, _ := NewSuite("mix", "interleaved", []*Result{fakeRun(t, "wal", "full", 1, 10, time.Millisecond)}, "")
	stray := jobShards(t, journals, 2, 2, nil)[0]
	stray.Cells[0].Runs[0].Slot = &Slot{Cell: 2, Repeat: 1}
	// A run edited to another cell's settings, its slot kept: it would
	// join the other cell's runs, or make one of no settings.
	edited := jobShards(t, journals, 2, 2, nil)[0]
	moved := fakeRun(t, "wal", "full", 1, 10, time.Millisecond)
	moved.Slot = edited.Cells[0].Runs[1].Slot
	edited.Cells[0].Runs[1] = moved
	huge := jobShards(t, journals, 2, 2, nil)[0]
	huge.Shard.Repeat = 1 << 40
	for _, tt := range []struct {
		name   string
		suites []*Suite
		err    string
	}{
		{"twice", []*Suite{shards[0], shards[0]}, "shard 1 of 2 given twice"},
		{"other counts", []*Suite{shards[0], other[1]}, "shards of different jobs"},
		{"other gates", []*Suite{shards[0], gated[1]}, "different gates or baselines"},
		{"with a plain result", []*Suite{plain, shards[0]}, "a result that is none"},
		{"a stray run", []*Suite{stray, shards[1]}, "holds cell 2 repeat 1, which is not one of its runs"},
		{"a crafted size", []*Suite{huge}, "is not a shard of a job gobench runs"},
		{"a run of another cell's settings", []*Suite{shards[1], edited}, "shard 1 of 2: the run of cell 1 repeat 2 ran "},
	} {
		if _, err := Merge(tt.suites); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
		}
	}
	// The error names which input it was, for the caller to name its file.
	var ie *InputError
	if _, err := Merge([]*Suite{shards[1], edited}); !errors.As(err, &ie) || ie.Input != 1 || !strings.Contains(err.Error(), "journal=wal") || !strings.Contains(err.Error(), "not its cell's journal=rollback") {
		t.Errorf("an edited run: %v, want an InputError of input 1 naming both settings", err)
	}
}

// Shards of a run's workers merge their file I/O: the phase's counts
// summed, read per commit of the merged phase, as one run of all the
// workers counts them; without I/O in every shard, none.
func TestMergeShardsKeepsIO(t *testing.T) {
	t.Parallel()
	var shards []*Result
	for i := range 2 {
		r := shardRun(t, &workload.Shard{Index: i, Count: 2})
		var io store.IOCounts
		io.Role(store.RoleDatabase).Syncs = int64(10 * (i + 1))
		io.Role(store.RoleDatabase).Bytes = int64(4096 * (i + 1))
		r.Phases[0].IO = &PhaseIO{Files: io, Processes: 2}
		r.IOOutside = &io
		shards = append(shards, r)
	}
	m, err := MergeShards(shards)
	if err != nil {
		t.Fatal(err)
	}
	pio := m.Phases[0].IO
	if pio == nil {
		t.Fatal("the merged phase lost its I/O")
	}
	if pio.Files.Syncs() != 30 || pio.Processes != 4 || pio.Files.Total().Bytes != 3*4096 {
		t.Errorf("merged I/O: %d syncs, %d bytes, %d processes; want 30, %d, 4", pio.Files.Syncs(), pio.Files.Total().Bytes, pio.Processes, 3*4096)
	}
	if pio.Commits == 0 || pio.SyncsPerCommit != 30/float64(pio.Commits) {
		t.Errorf("merged: %d commits, %v syncs/commit", pio.Commits, pio.SyncsPerCommit)
	}
	if m.IOOutside == nil || m.IOOutside.Syncs() != 30 {
		t.Errorf("I/O outside the phases: %+v, want 30 syncs", m.IOOutside)
	}
	shards[1].Phases[0].IO = nil
	if m, err = MergeShards(shards); err != nil || m.Phases[0].IO != nil {
		t.Errorf("a shard without I/O: merged %+v, %v; want none", m.Phases[0].IO, err)
	}
}
