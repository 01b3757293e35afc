package preset

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/files"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// Blob targets.
const (
	TargetDB   = "db"       // one SQLite database
	TargetFlat = files.Flat // one file per blob in one directory
	TargetTree = files.Tree // one file per blob in a two-level tree
)

// BlobSpec is the blob benchmark as a command line asks for it.
type BlobSpec struct {
	// Count blobs of Size ± Variance bytes (a seeded size per blob); a
	// negative Variance is the default, a fifth of Size.
	Count    uint64
	Size     int64
	Variance int64
	// Sample, when above zero and below Count, reads (and updates) only
	// this many random distinct blobs per pass.
	Sample uint64
	// Replace draws the blobs of a pass at random with replacement
	// (kvtest's --random): Sample draws, or Count without a sample.
	Replace bool
	// Update adds a pass that overwrites every blob visited in place.
	Update bool
	// Targets are what to compare: TargetDB, TargetFlat, TargetTree.
	Targets []string
	// Driver, API and Journal are the db target's SQLite driver, its way
	// to the values (sqlite.APISQL or APIBlob) and its journal mode; Sync
	// makes it sync its commits (synchronous=FULL, else OFF).
	Driver, API, Journal string
	Sync                 bool
	// Fsync makes the flat and tree targets fsync every file written.
	Fsync bool
	// MultiTrans gives every blob of the db target its own transaction
	// (else one transaction per pass).
	MultiTrans bool
	// Cold drops the targets' files from the page cache before each pass.
	Cold bool
	// Settle writes the targets' files back to the disk before each pass
	// (see workload.Plan.Settle).
	Settle bool
	// Mode and Procs are the workers; each takes an equal share.
	Mode  string
	Procs int
	Seed  uint64
}

// DefaultBlobSpec returns the classic comparison: 20,000 blobs of 10 KiB
// ± 2 KiB, every target, one goroutine worker, nothing synced.
func DefaultBlobSpec(driver string) BlobSpec {
	return BlobSpec{Count: 20_000, Size: 10 << 10, Variance: -1, Targets: []string{TargetDB, TargetFlat, TargetTree},
		Driver: driver, API: sqlite.APISQL, Journal: "rollback", Mode: workload.ModeGoroutine, Procs: 1, Seed: 1, Settle: true}
}

// Shape is targets compared side by side.
func (BlobSpec) Shape() result.Shape { return result.ShapeTargets }

// Plans returns one plan per target, each validated; the db target's
// driver, looked up in m's registry, checks its own options (journal,
// API) as a run would, touching no file. The blob benchmark spans no
// matrix: its targets are its cells.
func (spec BlobSpec) Plans(m Matrix) ([]*workload.Plan, error) {
	return Blob(spec, m.Registry)
}

// Blob returns one plan per target (see BlobSpec.Plans).
func Blob(spec BlobSpec, reg *store.Registry) ([]*workload.Plan, error) {
	tmpl, limit, perWorker, err := blobTemplate(spec)
	if err != nil {
		return nil, err
	}
	var plans []*workload.Plan
	for _, t := range spec.Targets {
		p := tmpl
		switch t {
		case TargetDB:
			if err := blobDB(&p, spec, reg, limit, perWorker); err != nil {
				return nil, err
			}
		case TargetFlat, TargetTree:
			p.Driver = "files"
			sync := store.SyncOff
			if spec.Fsync {
				sync = store.SyncNormal // every file fsynced, as kvtest's --fsync
			}
			p.Store.Options = files.Options{Layout: t, Sync: sync}.Encode()
			p.Phases = workload.Blob(limit, spec.Update, 1, spec.Replace) // no transactions: one file each
		default:
			return nil, fmt.Errorf("--targets: unknown target %q (want db, flat or tree)", t)
		}
		p.Target = t
		if err := p.Validate(); err != nil {
			return nil, err
		}
		plans = append(plans, &p)
	}
	return plans, nil
}

// blobTemplate is the plan every target shares, the sample limit per
// worker (0: every blob) and the blobs each worker visits per pass.
func blobTemplate(spec BlobSpec) (p workload.Plan, limit int64, perWorker uint64, err error) {
	n, workers := spec.Count, uint64(spec.Procs)
	if spec.Procs < 1 || workers > n {
		return p, 0, 0, fmt.Errorf("--procs %d: want 1 to the %d blobs", spec.Procs, n)
	}
	perWorker = (n + workers - 1) / workers
	if spec.Sample > n && !spec.Replace {
		return p, 0, 0, fmt.Errorf("--sample %d: more than the %d blobs", spec.Sample, n)
	}
	if spec.Sample > 0 && spec.Sample < n {
		perWorker = (spec.Sample + workers - 1) / workers
		limit = int64(perWorker)
	}
	if spec.Replace {
		draws := n
		if spec.Sample > 0 {
			draws = spec.Sample
		}
		perWorker = (draws + workers - 1) / workers
		limit = int64(perWorker)
	}
	variance := spec.Variance
	if variance < 0 {
		variance = spec.Size / 5
	}
	p = workload.DefaultPlan()
	p.Seed = spec.Seed
	p.Keys.Count, p.Preload = n, n
	p.ValueSize, p.ValueVariance, p.RandomValues = int(spec.Size), int(variance), true
	p.Mode, p.Procs, p.Goroutines = spec.Mode, spec.Procs, 1
	p.ColdCache, p.Settle = spec.Cold, spec.Settle
	p.Store.Path = "(temporary)"
	return p, limit, perWorker, nil
}

// blobDB makes p the db target's plan.
func blobDB(p *workload.Plan, spec BlobSpec, reg *store.Registry, limit int64, perWorker uint64) error {
	if !slices.Contains(SQLiteDrivers(reg), spec.Driver) {
		return fmt.Errorf("--driver %q: the db target needs a SQLite driver (%s)", spec.Driver, strings.Join(SQLiteDrivers(reg), ", "))
	}
	opts := sqlite.DefaultOptions()
	opts.Journal, opts.Sync = spec.Journal, "off"
	if spec.Sync {
		opts.Sync = "full"
	}
	if spec.API != sqlite.APISQL {
		opts.API = spec.API // "" is SQL, and keeps the settings as they were
	}
	batch := 1
	if !spec.MultiTrans {
		batch = int(min(perWorker, workload.MaxBatch))
	}
	p.Driver, p.Store.Options = spec.Driver, opts.Encode()
	p.Phases = workload.Blob(limit, spec.Update, batch, spec.Replace)
	drv, err := reg.Lookup(spec.Driver)
	if err != nil {
		return err
	}
	_, err = drv.Open(context.Background(), p.Store)
	return err
}

// SQLiteDrivers lists the registry's SQLite drivers.
func SQLiteDrivers(reg *store.Registry) []string {
	var out []string
	for _, n := range reg.Names() {
		if d, err := reg.Lookup(n); err == nil {
			if _, ok := d.(*sqlite.Driver); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// Reference is the database: each directory target is set against it.
func (BlobSpec) Reference() string { return TargetDB }
