package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/result"
)

// ceilingOps and ceilingWriteSize shape the fsync probe of --ceiling: a
// thousand page-sized durable writes, about a second on a disk that
// flushes in a millisecond.
const (
	ceilingOps       = 1000
	ceilingWriteSize = 4096
)

// measureCeiling runs the fsync probe on the file system the databases
// will live on (beside --db, or in --dir or the OS's temporary directory)
// before any run, so the probe's I/O is outside every measured window.
func (o *runOptions) measureCeiling(ctx context.Context, env *Env) (*result.Ceiling, error) {
	parent := o.dir
	if o.db != "" {
		abs, err := env.FS.Abs(o.db)
		if err != nil {
			return nil, usage(fmt.Errorf("--db %s: %w", o.db, err))
		}
		parent = filepath.Dir(abs)
	}
	tmp, err := env.FS.MkdirTemp(parent, "gobench-ceiling-")
	if err != nil {
		return nil, fmt.Errorf("--ceiling: creating a temporary directory: %w", err)
	}
	defer env.FS.RemoveAll(tmp)
	o.notef(env, "ceiling: %d writes of %d bytes, each followed by fdatasync, on the database's file system", ceilingOps, ceilingWriteSize)
	f, err := disk.MeasureFsync(ctx, tmp, ceilingOps, ceilingWriteSize)
	if err != nil {
		return nil, fmt.Errorf("--ceiling: %w", err)
	}
	return &result.Ceiling{Filesystem: env.FS.Filesystem(tmp), Ops: f.Ops, WriteSize: f.WriteSize,
		FsyncPerSec: f.OpsPerSec, P50Micros: f.P50Micros, P99Micros: f.P99Micros}, nil
}
