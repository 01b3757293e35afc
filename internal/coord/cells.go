package coord

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// Cells is a run of several plans, the cells of a matrix, each repeated:
// what every command that runs workers asks for.
type Cells struct {
	Plans []*workload.Plan
	// Repeat runs every cell this many times, interleaved (A B A B …, not
	// A A B B), so that slow drift of the machine spreads evenly.
	Repeat int
	// Until, if set, is asked after each whole round of the cells (every
	// cell run once more) whether the runs so far are enough: true stops
	// the repeats there. MaxTime, if positive, stops them after the round
	// that ends past it.
	Until   func(runs []*result.Result, rounds int) bool
	MaxTime time.Duration
	// Slots, when set, are the only runs to run (a shard's part of the
	// job, result.ShardSlots), in the same interleaved order; each result
	// records its slot.
	Slots []result.Slot
	// Command names the command in every result, and Args gives its
	// command line.
	Command string
	// Shape is the shape of the suite the runs make, recorded in each.
	Shape result.Shape
	Args  []string
	// DB, when set, is the database every run uses, set up anew each
	// time (Reuse lets it be a database gobench did not create).
	// Otherwise every run gets a new temporary directory under Dir (""
	// for the OS's), removed afterwards unless Keep.
	DB    string
	Reuse bool
	Dir   string
	Keep  bool
	// Ceiling first measures the disk's fsync rate on the databases' file
	// system (outside every run) and records it in every result.
	Ceiling bool
	// Base is every run's configuration; its Plan and Observe are set
	// per run.
	Base Config
	// Watch, if set, is called before each run with its number (from 1),
	// the number of runs and its plan. It returns the run's interval
	// observer and a function that receives the run's result once it is
	// over (nil if the run produced none) and whose error fails the run;
	// an error of its own stops the cells before that run.
	Watch func(n, total int, p *workload.Plan) (observe func(result.Interval), done func(*result.Result) error, err error)
	// Note, if set, receives notes: the run under way, databases kept.
	Note func(format string, args ...any)
}

// Ceiling's fsync probe: a thousand page-sized durable writes, about a
// second on a disk that flushes in a millisecond.
const (
	ceilingOps       = 1000
	ceilingWriteSize = 4096
)

// RunCells runs every cell Repeat times, interleaved, each on a fresh
// database, and returns the runs that produced a result, in order. It
// stops at the first failed run, returning its error with what ran.
func RunCells(ctx context.Context, c Cells) ([]*result.Result, error) {
	note := c.Note
	if note == nil {
		note = func(string, ...any) {}
	}
	if err := c.checkRoom(); err != nil {
		return nil, err
	}
	var ceiling *result.Ceiling
	if c.Ceiling {
		var err error
		if ceiling, err = c.measureCeiling(ctx, note); err != nil {
			return nil, err
		}
	}
	total := len(c.Plans) * c.Repeat
	if c.Slots != nil {
		total = len(c.Slots)
	}
	names := result.CellNames(c.Plans)
	var runs []*result.Result
	n := 0
	began := time.Now()
	for rep := range c.Repeat {
		if rep > 0 && (c.Until != nil && c.Until(runs, rep) || c.MaxTime > 0 && time.Since(began) >= c.MaxTime) {
			break
		}
		for i, p := range c.Plans {
			slot := result.Slot{Cell: i + 1, Repeat: rep + 1}
			if c.Slots != nil && !slices.Contains(c.Slots, slot) {
				continue
			}
			n++
			switch {
			case total == 1:
			case c.Repeat == 1:
				note("run %d of %d: %s", n, total, names[i])
			default:
				note("run %d of %d: %s, repeat %d of %d", n, total, names[i], rep+1, c.Repeat)
			}
			res, err := c.runOne(ctx, n, total, p, ceiling, note)
			if res != nil {
				if c.Slots != nil {
					res.Slot = &slot
				}
				runs = append(runs, res)
			}
			if err != nil {
				return runs, err
			}
		}
	}
	return runs, nil
}

// runOne runs cell number n of total on a fresh database: a new temporary
// directory, or the DB file set up anew.
func (c *Cells) runOne(ctx context.Context, n, total int, cell *workload.Plan, ceiling *result.Ceiling, note func(string, ...any)) (*result.Result, error) {
	p := *cell
	if c.DB != "" {
		p.Store.Path, p.Store.Reuse = c.DB, c.Reuse
	} else {
		dir, err := os.MkdirTemp(c.Dir, "gobench-")
		if err != nil {
			return nil, fmt.Errorf("creating a temporary directory: %w", err)
		}
		p.Store.Path = filepath.Join(dir, "gobench.db")
		defer func() {
			if c.Keep {
				note("kept the database: %s", p.Store.Path)
			} else if err := os.RemoveAll(dir); err != nil {
				note("could not remove the temporary directory %s: %v", dir, err)
			}
		}()
	}
	if a := p.Around(); a != nil {
		if err := install(&p, a, note); err != nil {
			return nil, err
		}
		p.Store.Reuse = true // the database installed is the source's (a replay's snapshot: the application's), not gobench's
	}
	if p.SQL != nil && p.SQL.From != "" {
		if c.DB != "" {
			return nil, fmt.Errorf("%w: a copy of --from %s goes into a temporary directory, not --db", store.ErrInvalid, p.SQL.From)
		}
		if err := precheckFrom(ctx, c.Base.Registry, &p); err != nil {
			return nil, err
		}
		n, took, err := copyFrom(&p, p.Store.Path)
		if err != nil {
			return nil, err
		}
		note("copied %s (%s) in %v; the run uses the copy", p.SQL.From, bytesize.Units{}.Round(n), took.Round(time.Millisecond))
		p.Store.Reuse = true // the copy is not gobench's own database
	}
	cfg := c.Base
	cfg.Plan, cfg.Ceiling = &p, ceiling
	var done func(*result.Result) error
	if c.Watch != nil {
		var err error
		if cfg.Observe, done, err = c.Watch(n, total, &p); err != nil {
			return nil, err
		}
	}
	res, err := Run(ctx, cfg)
	if res != nil {
		res.Command, res.Shape, res.Args = c.Command, c.Shape, c.Args
	}
	if done != nil {
		if derr := done(res); derr != nil && err == nil {
			err = derr
		}
	}
	return res, err
}

// measureCeiling runs the fsync probe on the file system the databases
// will live on (beside DB, or in Dir or the OS's temporary directory).
func (c *Cells) measureCeiling(ctx context.Context, note func(string, ...any)) (*result.Ceiling, error) {
	parent := c.Dir
	if c.DB != "" {
		parent = filepath.Dir(c.DB)
	}
	tmp, err := os.MkdirTemp(parent, "gobench-ceiling-")
	if err != nil {
		return nil, fmt.Errorf("--ceiling: creating a temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	note("ceiling: %d writes of %d bytes, each followed by fdatasync, on the database's file system", ceilingOps, ceilingWriteSize)
	f, err := disk.MeasureFsync(ctx, tmp, ceilingOps, ceilingWriteSize)
	if err != nil {
		return nil, fmt.Errorf("--ceiling: %w", err)
	}
	return &result.Ceiling{Filesystem: sysinfo.Filesystem(tmp), Ops: f.Ops, WriteSize: f.WriteSize,
		FsyncPerSec: f.OpsPerSec, P50Micros: f.P50Micros, P99Micros: f.P99Micros}, nil
}
