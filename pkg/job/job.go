// Package job is a saved run: the command, its cells (one workload plan
// each), the repeats, the baseline and the gates, as a run command's
// --dry-run writes it and `gobench run` reads it back. A result file holds
// the same things, so a result can be run again too (FromSuite).
package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Kind is the "kind" of a plan file, as "suite" is a suite's.
const Kind = "plan"

// SchemaVersion is the version of the plan file's format; it follows the
// result format's rule (new fields keep the version).
const SchemaVersion = 1

// ErrInvalid marks a plan file that does not decode or validate.
var ErrInvalid = errors.New("invalid plan file")

// Job is everything a run command resolved from its flags, apart from
// where its output goes.
type Job struct {
	Kind          string      `json:"kind"` // always Kind
	SchemaVersion int         `json:"schema_version"`
	Tool          result.Tool `json:"tool"` // the gobench that wrote it
	// Command is the command the cells belong to, as results name it.
	Command string `json:"command"`
	// Shape is how the cells read against each other, as the preset that
	// built them declared it; it decides how the report reads them. A plan
	// file written before shapes were recorded has the shape its command's
	// suites had.
	Shape result.Shape `json:"shape,omitempty"`
	// Args is the command line the job was resolved from, without the
	// program name; empty for a job made by hand.
	Args []string `json:"args,omitempty"`
	// Repeat runs every cell this many times, interleaved; with
	// Precision, at most this many.
	Repeat int `json:"repeat"`
	// Precision, when set, stops the repeats early, after the first whole
	// round at which every gated figure (or total ops/s, without gates)
	// of every cell is as precise as it asks (--precision).
	Precision *Precision `json:"precision,omitempty"`
	// Baseline selects, in a matrix, the cell factors are computed
	// against, by values or name=value ("" for the first cell).
	Baseline string `json:"baseline,omitempty"`
	// Reference is what a shape that names its reference by value
	// compares against (result.Suite.Reference): a scaling table's driver
	// ("" for the first), the reference target.
	Reference string `json:"reference,omitempty"`
	// Expect holds the gates, as --expect reads them.
	Expect []string `json:"expect,omitempty"`
	// Ceiling measures the disk's fsync rate before the runs.
	Ceiling bool `json:"ceiling,omitempty"`
	// Search, when set, runs each cell's capacity search instead of the
	// cells themselves; Expect then holds capacity gates ("sustainable
	// rate: wal >= 3x rollback").
	Search *capacity.Spec `json:"search,omitempty"`
	// DB is the database every run uses (Reuse: one gobench did not
	// create); "" gives each run a new temporary directory, under Dir
	// when set.
	DB    string `json:"db,omitempty"`
	Reuse bool   `json:"reuse,omitempty"`
	Dir   string `json:"dir,omitempty"`
	// Shard, when set, runs only one shard's part of the job's runs
	// (--shard I/N): every Count-th run of the cells × Repeat runs in
	// their interleaved order, from the Index-th (counting from 0; see
	// result.ShardSlots). The shard's suite says so (result.Suite.Shard)
	// and judges no gate: gobench merge joins the shards and judges them.
	// A cell's own Plan.Shard splits its worker processes instead.
	Shard *workload.Shard `json:"shard,omitempty"`
	// Cells are the plans, one per cell, in the order they run. Their
	// store paths are set per run, and are empty here.
	Cells []*workload.Plan `json:"cells"`
}

// Precision is a job's stop rule for repeats: the target relative
// half-width of the 90% interval of each figure's median (0.05: ±5%),
// and how long the repeats may take in all (0: no limit); Job.Repeat
// bounds their number.
type Precision struct {
	Target  float64           `json:"target"`
	MaxTime workload.Duration `json:"max_time,omitempty"`
}

// Rule returns the stop rule over the job's gated figures, or total ops/s
// when it has no gates.
func (j *Job) Rule(gates []judge.Expectation) judge.Precision {
	var ms []judge.Metric
	for _, g := range gates {
		if !slices.Contains(ms, g.Metric) {
			ms = append(ms, g.Metric)
		}
	}
	if len(ms) == 0 {
		ms = []judge.Metric{{Kind: "total", Stat: "ops/s"}}
	}
	return judge.Precision{Target: j.Precision.Target, Metrics: ms}
}

// New returns a job of command over cells of the given shape, stamped
// with this gobench; the cells are copied, their store paths cleared.
func New(command string, shape result.Shape, args []string, cells []*workload.Plan, repeat int) *Job {
	j := &Job{Kind: Kind, SchemaVersion: SchemaVersion, Tool: result.ToolInfo(), Command: command, Shape: shape, Args: slices.Clone(args), Repeat: repeat}
	for _, c := range cells {
		p := *c
		p.Store.Path, p.Store.Reuse = "", false
		j.Cells = append(j.Cells, &p)
	}
	return j
}

// FromSuite returns the job a result ran: its command, each cell's plan
// (as its first run recorded it), as many repeats as its largest cell,
// its baseline and its gates. A merged result's shards become one run of
// every worker.
func FromSuite(s *result.Suite) *Job {
	repeat := 0
	cells := make([]*workload.Plan, len(s.Cells))
	for i, c := range s.Cells {
		repeat = max(repeat, len(c.Runs))
		p := c.Runs[0].Plan
		if len(c.Runs[0].Shards) > 0 {
			p.Shard = nil // a merged run runs again as one
		}
		cells[i] = &p
	}
	first := s.Cells[0].Runs[0]
	j := New(s.Command, s.Shape, first.Args, cells, repeat)
	if len(s.Cells) > 1 && s.Shape.BaselineSelectsCell() {
		j.Baseline = s.Baseline.String()
	}
	j.Reference = s.Reference
	gates := s.Gates
	if len(gates) == 0 {
		gates = first.Gates
	}
	for _, g := range gates {
		j.Expect = append(j.Expect, g.Expression)
	}
	j.Ceiling = first.Environment.Ceiling != nil
	return j
}

// Read decodes a plan file, or a result file (a run or a suite) whose job
// it returns (FromSuite), its runs named by eng where they lack their
// settings' names (result.Suite.Named; nil leaves them). The file is
// bounded as result files are. A plan file must hold only known fields;
// it is not validated (see Validate).
func Read(rd io.Reader, eng result.Engines) (*Job, error) {
	data, err := result.ReadBounded(rd)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if probe.Kind != Kind {
		s, err := result.ReadSuite(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("neither a plan file nor a result: %w", err)
		}
		if eng != nil {
			if s, err = s.Named(eng); err != nil {
				return nil, err
			}
		}
		return FromSuite(s), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j Job
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if j.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%w: schema version %d is not supported (this gobench reads version %d)", ErrInvalid, j.SchemaVersion, SchemaVersion)
	}
	j.fillLegacy()
	return &j, nil
}

// Write encodes the job as indented JSON.
func (j *Job) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(j)
}

// fillLegacy gives a plan file written before shapes were recorded the
// shape its command had, and moves a scaling table's driver baseline to
// Reference, where it is now kept; the targets' reference was the
// database.
func (j *Job) fillLegacy() {
	if j.Shape != "" {
		return
	}
	j.Shape = result.LegacyShape(j.Command)
	switch j.Shape {
	case result.ShapeScaling:
		j.Reference, j.Baseline = j.Baseline, ""
	case result.ShapeTargets:
		j.Reference = "db"
	}
}

// Validate checks the job as the command line checks its flags: a known
// shape, a repeat count, at least one cell, every cell's driver in reg,
// its worker mode one the driver can run in, its engine options as the
// engine reads them (the store is opened, which touches no file, and
// closed) and its plan, naming each cell's options as its engine names them
// (store.Declarer); then the baseline and the gates (Gates). Errors wrap
// ErrInvalid and name the cell.
func (j *Job) Validate(ctx context.Context, reg *store.Registry) error {
	if err := j.Shape.Check(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if j.Repeat < 1 {
		return fmt.Errorf("%w: repeat %d: want 1 or more", ErrInvalid, j.Repeat)
	}
	if pr := j.Precision; pr != nil {
		switch {
		case !(pr.Target > 0 && pr.Target < 1):
			return fmt.Errorf("%w: precision %v: want a fraction above 0 and below 1 (5%% is 0.05)", ErrInvalid, pr.Target)
		case pr.MaxTime < 0:
			return fmt.Errorf("%w: precision's max time %v: want 0 (none) or a positive duration", ErrInvalid, pr.MaxTime)
		case j.Repeat < judge.MinMedianRepeats:
			return fmt.Errorf("%w: precision needs up to at least %d repeats for an interval of the median: raise --max-repeats (it is %d)", ErrInvalid, judge.MinMedianRepeats, j.Repeat)
		case j.Search != nil:
			return fmt.Errorf("%w: precision applies to repeats of cells, not to a capacity search", ErrInvalid)
		}
	}
	if len(j.Cells) == 0 {
		return fmt.Errorf("%w: no cells", ErrInvalid)
	}
	if j.Reuse && j.DB == "" {
		return fmt.Errorf("%w: reuse applies to a db file", ErrInvalid)
	}
	if err := j.CheckCells(ctx, reg); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := j.CheckShard(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if _, err := j.Gates(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// CheckCells checks every cell as Validate does (its driver in reg, its
// worker mode, its store opened with its options, record table and
// schema's tables, its plan), naming the cell that fails.
func (j *Job) CheckCells(ctx context.Context, reg *store.Registry) error {
	for i, p := range j.Cells {
		if p == nil {
			return fmt.Errorf("cell %d is empty", i+1)
		}
		if err := checkCell(ctx, p, reg); err != nil {
			return fmt.Errorf("cell %d (%s): %w", i+1, result.PlanSettings(p), err)
		}
	}
	return nil
}

// DealsFrom refuses a job whose cells do not all deal their ops from the
// op source named source (workload.Source's Name), in every phase: the
// source of its command's cells. A plan file's command is a label the
// report shows; a mix whose file said ycsb ran as a mix labelled so.
func (j *Job) DealsFrom(source string) error {
	for i, p := range j.Cells {
		if p == nil {
			return fmt.Errorf("%w: cell %d is empty", ErrInvalid, i+1)
		}
		for k := range p.Phases {
			if got := p.Source(&p.Phases[k]).Name(); got != source {
				return fmt.Errorf("%w: cell %d, phase %s deals its ops from %s, and gobench %s's from %s: the plan's command is not the one that made its cells", ErrInvalid, i+1, p.Phases[k].Name, got, j.Command, source)
			}
		}
	}
	return nil
}

// checkCell checks one cell's driver, mode, engine options and plan.
func checkCell(ctx context.Context, p *workload.Plan, reg *store.Registry) error {
	drv, err := reg.Lookup(p.Driver)
	if err != nil {
		return err
	}
	if err := workload.CheckDriver(p, drv); err != nil {
		return err
	}
	st, err := drv.Open(ctx, store.Config{Path: "(checked, not opened)", Options: p.Store.Options, Table: p.Store.Table, Replaces: p.Store.Replaces})
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	if p.Store.Settings, err = reg.NameOptions(p.Driver, p.Store.Options); err != nil {
		return err
	}
	return p.Validate()
}

// CheckShard checks the job's shard (Shard) against its runs: every
// shard must have runs to run, and the job must be one whose runs stand
// on their own (no --precision, whose stop rule reads every cell, no
// capacity search). A job without a shard passes.
func (j *Job) CheckShard() error {
	sh := j.Shard
	if sh == nil {
		return nil
	}
	switch {
	case j.Precision != nil:
		return errors.New("--precision decides when to stop from every cell's repeats, which shards split: give --repeat with --shard")
	case j.Search != nil:
		return errors.New("--find-rate searches each cell's capacity in one go: it takes no --shard of the cells")
	}
	return result.CheckShard(sh.Index+1, sh.Count, len(j.Cells), j.Repeat)
}

// Slots returns the runs the job runs, as places in its cells ×
// repeats: its shard's (result.ShardSlots), or nil for all of them.
func (j *Job) Slots() []result.Slot {
	if j.Shard == nil {
		return nil
	}
	return result.ShardSlots(j.Shard.Index+1, j.Shard.Count, len(j.Cells), j.Repeat)
}

// NewSuite groups the job's runs into its suite (result.NewSuite), of
// the job's shape, with its baseline cell or its reference.
//
// A shard's suite (Shard) is part of the job: it says which shard it is,
// and keeps the job's baseline and gates (result.Shard) for the merge,
// its own baseline the first cell it ran.
func (j *Job) NewSuite(runs []*result.Result) (*result.Suite, error) {
	baseline := ""
	if j.Shape.BaselineSelectsCell() {
		baseline = j.Baseline
	}
	if j.Shard != nil {
		baseline = ""
	}
	s, err := result.NewSuite(j.Command, "interleaved", runs, baseline)
	if err != nil {
		return nil, err
	}
	s.Shape, s.Reference = j.Shape, j.Reference
	if sh := j.Shard; sh != nil {
		s.Shard = &result.Shard{Index: sh.Index + 1, Count: sh.Count, Cells: result.CellNames(j.Cells), Repeat: j.Repeat,
			Expect: j.Expect, Baseline: j.Baseline}
		if !j.Shape.BaselineSelectsCell() {
			s.Shard.Baseline = ""
		}
	}
	return s, nil
}

// Skeleton is a suite of the job's cells without results: enough to
// resolve the baseline and the gates' cell selectors, and to tell which
// figures the runs will have, before anything runs. With Ceiling its runs
// say so, as the runs' results will.
func (j *Job) Skeleton() (*result.Suite, error) {
	runs := make([]*result.Result, len(j.Cells))
	for i, p := range j.Cells {
		runs[i] = &result.Result{Plan: *p}
		if j.Ceiling {
			runs[i].Environment.Ceiling = &result.Ceiling{} // measured before the runs
		}
	}
	return j.NewSuite(runs)
}

// Gates parses the job's expectations (capacity gates for a search) and
// checks them, its baseline and its search, against its cells.
func (j *Job) Gates() ([]judge.Expectation, error) {
	parse := judge.ParseExpectation
	if j.Search != nil {
		if err := j.Search.Validate(); err != nil {
			return nil, err
		}
		if j.Repeat != 1 {
			return nil, errors.New("--find-rate runs each cell's search once: it takes no --repeat")
		}
		parse = judge.ParseCapacityGate
	}
	var gates []judge.Expectation
	for _, e := range j.Expect {
		g, err := parse(e)
		if err != nil {
			return nil, err
		}
		gates = append(gates, g)
	}
	if len(j.Cells) < 2 && j.Baseline != "" && j.Shape.BaselineSelectsCell() {
		return nil, errors.New("--baseline compares cells: give a list to at least one setting, such as --journal rollback,wal")
	}
	skel, err := j.Skeleton()
	if err != nil {
		return nil, err
	}
	for _, g := range gates {
		if err := g.Validate(skel); err != nil {
			return nil, err
		}
	}
	return gates, nil
}
