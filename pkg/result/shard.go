package result

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/workload"
)

// Shard says that a suite is one shard of a job whose runs were split
// over several CI jobs or machines (--shard I/N, by cells): which shard,
// of how many, the size of the whole job, and what only the whole can
// judge. Each of its runs says its place in the job (Result.Slot).
type Shard struct {
	// Index counts from 1, as --shard reads it; Count is N.
	Index int `json:"index"`
	Count int `json:"count"`
	// Cells are the whole job's cells, in order, each named by the
	// settings that vary between them (CellNames), and Repeat its
	// repeats: len(Cells) × Repeat runs over all the shards.
	Cells  []string `json:"cells"`
	Repeat int      `json:"repeat"`
	// Expect holds the job's gates and Baseline its baseline cell
	// selector: they compare cells that other shards ran, so merge
	// judges them on the merged suite; a shard judges none.
	Expect   []string `json:"expect,omitempty"`
	Baseline string   `json:"baseline,omitempty"`
}

// Slot is a run's place in its job: cell Cell (of the job's cells, in
// their order) and repeat Repeat, both counting from 1.
type Slot struct {
	Cell   int `json:"cell"`
	Repeat int `json:"repeat"`
}

// ShardSlots returns the runs that shard index (from 1) of count runs of
// a job of cells cells, each run repeat times: every count-th run in the
// order the job runs them (every cell once, then every cell again), from
// the index-th on. Shards 1 to count run every run of the job exactly
// once; when count divides the number of cells, each shard runs whole
// cells, every repeat of them.
func ShardSlots(index, count, cells, repeat int) []Slot {
	var out []Slot
	for n := index - 1; n >= 0 && count > 0 && n < cells*repeat; n += count {
		out = append(out, Slot{Cell: n%cells + 1, Repeat: n/cells + 1})
	}
	return out
}

// CheckShard checks shard index of count against a job of cells cells
// and repeat repeats: every shard must have a run to run.
func CheckShard(index, count, cells, repeat int) error {
	runs := cells * repeat
	switch {
	case count < 1 || index < 1 || index > count:
		return fmt.Errorf("shard %d/%d is out of range (want I/N with 1 <= I <= N)", index, count)
	case runs == 1:
		return fmt.Errorf("shard %d/%d: the job is one run (one cell, --repeat 1), which runs whole on one machine: give a list to a setting (such as --journal rollback,wal) or --repeat %d to split cells and repeats over %d shards, or --shard-by workers to split this run's worker processes", index, count, count, count)
	case count > runs:
		return fmt.Errorf("shard %d/%d: the job has %d runs (%d %s × --repeat %d), fewer than the %d shards, so some would run nothing: give at most %d shards, more repeats, or --shard-by workers",
			index, count, runs, cells, plural(cells, "cell", "cells"), repeat, count, runs)
	}
	return nil
}

// String says which shard it is: "shard 1 of 4".
func (s Shard) String() string { return fmt.Sprintf("shard %d of %d", s.Index, s.Count) }

// ShardLine says, for a suite that is one shard of a job, which shard it
// is and what it ran: "shard 1 of 2: cells journal=rollback,
// journal=truncate × repeats 1–2 (4 of the job's 8 runs; gobench merge
// joins the shards)". It is "" for a suite that is no shard.
func (s *Suite) ShardLine() string {
	sh := s.Shard
	if sh == nil {
		return ""
	}
	runs := 0
	var cells []string
	var reps [][]int
	for _, c := range s.Cells {
		name := c.Settings.String()
		if sl := c.Runs[0].Slot; sl != nil && sl.Cell >= 1 && sl.Cell <= len(sh.Cells) {
			name = sh.Cells[sl.Cell-1]
		}
		var rs []int
		for _, r := range c.Runs {
			runs++
			if r.Slot != nil {
				rs = append(rs, r.Slot.Repeat)
			}
		}
		cells, reps = append(cells, name), append(reps, rs)
	}
	var what string
	same := true
	for _, rs := range reps[1:] {
		same = same && slices.Equal(rs, reps[0])
	}
	if same {
		what = fmt.Sprintf("%s %s", plural(len(cells), "cell", "cells"), strings.Join(cells, ", "))
		if sh.Repeat > 1 {
			what += " × " + repeatsText(reps[0])
		}
	} else {
		parts := make([]string, len(cells))
		for i, c := range cells {
			parts[i] = c + " (" + repeatsText(reps[i]) + ")"
		}
		what = "cells " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%s: %s (%d of the job's %d runs; gobench merge joins the shards into its suite)", sh, what, runs, len(sh.Cells)*sh.Repeat)
}

// repeatsText names repeats: "repeat 2", "repeats 1–3", "repeats 1, 3".
func repeatsText(rs []int) string {
	if len(rs) == 1 {
		return "repeat " + strconv.Itoa(rs[0])
	}
	if len(rs) > 1 && rs[len(rs)-1]-rs[0] == len(rs)-1 {
		return fmt.Sprintf("repeats %d–%d", rs[0], rs[len(rs)-1])
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r)
	}
	return "repeats " + strings.Join(parts, ", ")
}

// WorkerShardLine says, for a run that is one shard of a run's worker
// processes (--shard I/N --shard-by workers), which shard it is and which
// workers ran: "shard 1 of 2: worker processes 0, 2 of 4 (2 procs ran;
// gobench merge joins the shards into the run)". It is "" for any other
// run.
func (r *Result) WorkerShardLine() string {
	sh := r.Plan.Shard
	if sh == nil {
		return ""
	}
	idx := r.Plan.ProcIndexes()
	ids := make([]string, len(idx))
	for i, p := range idx {
		ids[i] = strconv.Itoa(p)
	}
	return fmt.Sprintf("shard %d of %d: worker processes %s of %d (%d %s ran; gobench merge joins the shards into the run)",
		sh.Index+1, sh.Count, strings.Join(ids, ", "), r.Plan.Procs, len(idx), plural(len(idx), "proc", "procs"))
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CellNames names each plan by the settings that differ between them
// ("journal=wal"), or all its settings when there is one plan, so that a
// note about a run fits a line.
func CellNames(plans []*workload.Plan) []string {
	all := make([]Settings, len(plans))
	for i, p := range plans {
		all[i] = PlanSettings(p)
	}
	names := make([]string, len(plans))
	for i, s := range all {
		var kept Settings
		for _, st := range s {
			for _, other := range all {
				if v, _ := other.Get(st.Name); v != st.Value {
					kept = append(kept, st)
					break
				}
			}
		}
		if len(kept) == 0 {
			kept = s
		}
		names[i] = kept.String()
	}
	return names
}

// maxShardedRuns bounds the runs of a job whose shards merge: more than
// any job --max-runs lets run, and few enough that a crafted file's
// claim costs little to check.
const maxShardedRuns = 1 << 20

// mergeJob joins the shards of one job split by its runs (Suite.Shard)
// into the job's suite: cells in the job's order, each with its repeats
// in theirs. The shards must be of one job (one shard count, cells,
// repeats, baseline and gates; one workload, which NewSuite checks), each
// given once, no run in two. Runs of the job that no shard brought (a
// shard not given, or one that stopped early) are listed in the suite's
// Missing.
func mergeJob(suites []*Suite) (*Suite, error) {
	var first *Shard
	for _, s := range suites {
		if first == nil {
			first = s.Shard
		}
	}
	given := map[int]bool{}
	have := map[Slot]bool{}
	var runs []*Result
	for k, s := range suites {
		sh := s.Shard
		switch {
		case sh == nil:
			return nil, fmt.Errorf("a shard of a job split by its runs (%s) and a result that is none: merge the shards of one job on their own", first)
		case sh.Count < 1 || sh.Index < 1 || sh.Index > sh.Count || sh.Repeat < 1 || len(sh.Cells) == 0 || len(sh.Cells)*sh.Repeat > maxShardedRuns:
			return nil, &InputError{k, fmt.Errorf("%s of %d cells × %d repeats is not a shard of a job gobench runs", sh, len(sh.Cells), sh.Repeat)}
		case sh.Count != first.Count || !slices.Equal(sh.Cells, first.Cells) || sh.Repeat != first.Repeat:
			return nil, fmt.Errorf("shards of different jobs: %s of cells %s × %d repeats, and %s of cells %s × %d repeats",
				first, strings.Join(first.Cells, "; "), first.Repeat, sh, strings.Join(sh.Cells, "; "), sh.Repeat)
		case !slices.Equal(sh.Expect, first.Expect) || sh.Baseline != first.Baseline:
			return nil, fmt.Errorf("shards of different jobs: %s and %s have different gates or baselines (--expect, --baseline)", first, sh)
		case given[sh.Index]:
			return nil, fmt.Errorf("%s given twice", sh)
		}
		given[sh.Index] = true
		mine := ShardSlots(sh.Index, sh.Count, len(sh.Cells), sh.Repeat)
		for _, c := range s.Cells {
			for _, r := range c.Runs {
				var err error
				switch {
				case r.Slot == nil:
					err = fmt.Errorf("%s: run of %s says not which of the job's runs it is", sh, c.Settings)
				case !slices.Contains(mine, *r.Slot):
					err = fmt.Errorf("%s holds cell %d repeat %d, which is not one of its runs", sh, r.Slot.Cell, r.Slot.Repeat)
				case have[*r.Slot]:
					err = fmt.Errorf("%s holds cell %d repeat %d twice", sh, r.Slot.Cell, r.Slot.Repeat)
				case !settingsName(PlanSettings(&r.Plan), sh.Cells[r.Slot.Cell-1]):
					err = fmt.Errorf("%s: the run of cell %d repeat %d ran %s, not its cell's %s", sh, r.Slot.Cell, r.Slot.Repeat, PlanSettings(&r.Plan), sh.Cells[r.Slot.Cell-1])
				}
				if err != nil {
					return nil, &InputError{k, err}
				}
				have[*r.Slot] = true
				runs = append(runs, r)
			}
		}
	}
	missing := missingRuns(first, given, have)
	for _, s := range suites {
		missing = append(missing, s.IncompleteShardRuns()...)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("the shards hold no run")
	}
	slices.SortStableFunc(runs, func(a, b *Result) int {
		if a.Slot.Cell != b.Slot.Cell {
			return a.Slot.Cell - b.Slot.Cell
		}
		return a.Slot.Repeat - b.Slot.Repeat
	})
	out, err := NewSuite(suites[0].Command, "merged", runs, first.Baseline)
	if err != nil {
		return nil, err
	}
	out.Shape, out.Reference, out.Missing = suites[0].Shape, suites[0].Reference, missing
	return out, nil
}

// missingRuns names the shards of first's job that were not given, or
// stopped before all their runs (have: the runs the given shards hold).
func missingRuns(first *Shard, given map[int]bool, have map[Slot]bool) []string {
	var missing []string
	for i := 1; i <= first.Count; i++ {
		var lost []Slot
		for _, sl := range ShardSlots(i, first.Count, len(first.Cells), first.Repeat) {
			if !have[sl] {
				lost = append(lost, sl)
			}
		}
		switch {
		case !given[i]:
			missing = append(missing, fmt.Sprintf("shard %d/%d is missing: %s", i, first.Count, slotsText(lost, first.Cells)))
		case len(lost) > 0:
			missing = append(missing, fmt.Sprintf("shard %d/%d stopped before %s", i, first.Count, slotsText(lost, first.Cells)))
		}
	}
	return missing
}

// IncompleteShardRuns names the runs of a shard (of a job, Suite.Shard,
// or of a run's workers, Plan.Shard) that did not complete: interrupted,
// a worker failed, or the file says so. Merge counts each as missing from
// the job, as it counts the runs of a shard that stopped early: a merged
// suite that judged it as a whole run would pass gates on part of one.
func (s *Suite) IncompleteShardRuns() []string {
	var out []string
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			switch {
			case r.Complete:
			case s.Shard != nil && r.Slot != nil:
				cell := c.Settings.String()
				if n := r.Slot.Cell; n >= 1 && n <= len(s.Shard.Cells) {
					cell = s.Shard.Cells[n-1] // the job's name of the cell: a shard of one cell varies nothing
				}
				out = append(out, fmt.Sprintf("%s: the run of %s (repeat %d) did not complete", s.Shard, cell, r.Slot.Repeat))
			case r.Plan.Shard != nil:
				out = append(out, fmt.Sprintf("shard %s of the workers: the run of %s did not complete", r.Plan.Shard, c.Settings))
			}
		}
	}
	return out
}

// settingsName reports whether name is what CellNames names a cell of
// settings s: the "name=value" of some of them, in their order, joined
// by commas (every one of them, in a job of one cell). A run whose
// settings are another cell's is not named by its own cell's name.
func settingsName(s Settings, name string) bool {
	if name == s.String() {
		return true
	}
	rest := name
	for _, st := range s {
		part := st.Name + "=" + st.Value
		if after, ok := strings.CutPrefix(rest, part); ok && (after == "" || after[0] == ',') {
			rest = strings.TrimPrefix(after, ",")
			if after == "" {
				return true
			}
		}
	}
	return false
}

// InputError is an error of one of the suites given to Merge: Input is
// its place among them, so that a caller names the file it read it from.
type InputError struct {
	Input int
	Err   error
}

// Error returns the input's error, as the input's own.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the error of the input.
func (e *InputError) Unwrap() error { return e.Err }

// slotsText names runs of a job by their cells' names, in the order the
// cells first appear: "journal=wal (repeats 1–2), journal=persist
// (repeat 1)".
func slotsText(slots []Slot, names []string) string {
	var order []int
	reps := map[int][]int{}
	for _, sl := range slots {
		if _, ok := reps[sl.Cell]; !ok {
			order = append(order, sl.Cell)
		}
		reps[sl.Cell] = append(reps[sl.Cell], sl.Repeat)
	}
	parts := make([]string, len(order))
	for i, c := range order {
		name := fmt.Sprintf("cell %d", c)
		if c <= len(names) {
			name = names[c-1]
		}
		slices.Sort(reps[c])
		parts[i] = name + " (" + repeatsText(reps[c]) + ")"
	}
	return strings.Join(parts, ", ")
}
