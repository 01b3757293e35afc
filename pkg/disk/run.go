package disk

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Config is one disk measurement: sequential write and read at each block
// size, then the fsync-latency probe.
type Config struct {
	// Dir is where the test files are made (and removed).
	Dir string
	// Size is the bytes written and read at each block size.
	Size int64
	// BlockSizes are the block sizes, in order.
	BlockSizes []int64
	// Sync is how sequential writes are made durable.
	Sync SyncMode
	// Direct opens the files with O_DIRECT (Linux).
	Direct bool
	// FsyncOps is the number of durable small writes of the fsync probe
	// (0: no probe); FsyncSize their size.
	FsyncOps  int
	FsyncSize int64
	// Progress, if set, hears what starts next.
	Progress func(Step)
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	if c.Size <= 0 {
		return fmt.Errorf("size %d: want a positive byte count", c.Size)
	}
	if len(c.BlockSizes) == 0 && c.FsyncOps == 0 {
		return errors.New("nothing to measure: no block sizes and no fsync probe")
	}
	for i, bs := range c.BlockSizes {
		if bs <= 0 || bs > 1<<30 {
			return fmt.Errorf("block size %d: want 1 byte to 1 GiB", bs)
		}
		if bs > c.Size {
			// One whole block would be written: far more than Size.
			return fmt.Errorf("block size %d is larger than the size %d written at each block size: give a larger size or smaller blocks", bs, c.Size)
		}
		if slices.Contains(c.BlockSizes[:i], bs) {
			return fmt.Errorf("block size %d is listed twice", bs)
		}
		if c.Direct {
			if err := checkDirect(bs); err != nil {
				return err
			}
		}
	}
	if _, err := ParseSyncMode(string(c.Sync)); err != nil {
		return err
	}
	if c.FsyncOps < 0 {
		return fmt.Errorf("fsync ops %d: want 0 or more", c.FsyncOps)
	}
	if c.FsyncOps > 0 && (c.FsyncSize <= 0 || c.FsyncSize > 1<<30) {
		return fmt.Errorf("fsync write size %d: want 1 byte to 1 GiB", c.FsyncSize)
	}
	return nil
}

// Need returns the most bytes a valid configuration has on disk at once:
// one block size's file (the files are removed one by one) or the fsync
// probe's, whichever is larger. Run needs that much free space.
func (c *Config) Need() int64 {
	var need int64
	for _, bs := range c.BlockSizes {
		need = max(need, c.Size/bs*bs)
	}
	return max(need, int64(c.FsyncOps)*c.FsyncSize)
}

// Step is one measurement of a run: a block size's sequential write and
// read, or the fsync probe.
type Step struct {
	Index, Of int
	// BlockSize and Bytes of a sequential step; zero for the probe.
	BlockSize, Bytes int64
	// Fsync marks the fsync probe.
	Fsync bool
}

// ReportSchema is the version of Report's JSON form.
const ReportSchema = 1

// Report is what a disk measurement found. Its JSON form is the
// machine-readable output of gobench disk.
type Report struct {
	// Schema is the version of this format (ReportSchema).
	Schema int    `json:"schema"`
	Dir    string `json:"dir"`
	// Filesystem names the file system of Dir (set by the caller, who
	// knows how to ask the OS).
	Filesystem string       `json:"filesystem"`
	Size       int64        `json:"size"`
	Sync       SyncMode     `json:"sync"`
	Direct     bool         `json:"direct"`
	Sequential []Sequential `json:"sequential"`
	// Fsync is the fsync probe, nil when it did not run.
	Fsync *FsyncLatency `json:"fsync,omitempty"`
}

// Run measures each block size, then the fsync latency. On an error or a
// cancelled context it returns what it measured so far with the error.
func Run(ctx context.Context, c Config) (*Report, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rep := &Report{Schema: ReportSchema, Dir: c.Dir, Size: c.Size, Sync: c.Sync, Direct: c.Direct, Sequential: []Sequential{}}
	steps := len(c.BlockSizes)
	if c.FsyncOps > 0 {
		steps++
	}
	progress := c.Progress
	if progress == nil {
		progress = func(Step) {}
	}
	for i, bs := range c.BlockSizes {
		progress(Step{Index: i + 1, Of: steps, BlockSize: bs, Bytes: c.Size / bs * bs})
		s, err := MeasureSequential(ctx, c.Dir, c.Size, bs, c.Sync, c.Direct)
		if err != nil {
			return rep, fmt.Errorf("block size %d: %w", bs, err)
		}
		rep.Sequential = append(rep.Sequential, s)
	}
	if c.FsyncOps > 0 {
		progress(Step{Index: steps, Of: steps, Fsync: true})
		f, err := MeasureFsync(ctx, c.Dir, c.FsyncOps, c.FsyncSize)
		if err != nil {
			return rep, fmt.Errorf("fsync probe: %w", err)
		}
		rep.Fsync = &f
	}
	return rep, nil
}
