package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/report"
)

// diskOptions are the flags of gobench disk.
type diskOptions struct {
	dir       string
	size      string
	bs        string
	sync      string
	direct    bool
	fsyncOps  int
	fsyncSize string
	si        bool
	format    string
	jsonOut   string
	quiet     bool
	force     bool

	cfg disk.Config
}

func defaultDiskOptions() *diskOptions {
	return &diskOptions{size: "256M", bs: "4k,100k,1m,10m", sync: string(disk.SyncFsyncEnd), fsyncOps: 1000, fsyncSize: "4k", format: "text"}
}

// AddFlags binds the options to flags.
func (o *diskOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.dir, "dir", "", "measure the disk of this directory (default: the OS's temporary directory)")
	fs.StringVar(&o.size, "size", o.size, "bytes written and read at each block size (k, M, G = KiB, MiB, GiB; kB, MB, GB = powers of 1000)")
	fs.StringVar(&o.bs, "bs", o.bs, "block sizes, a comma list (k = 1024 bytes, kB = 1000)")
	fs.StringVar(&o.sync, "sync", o.sync, "how writes are made durable: none (page cache only), dsync (O_DSYNC, each write), fdatasync (after each block), fsync-end (one fsync after the last block)")
	fs.BoolVar(&o.direct, "direct", false, "open with O_DIRECT and aligned buffers, bypassing the page cache (Linux; block sizes must be multiples of 4 KiB)")
	fs.Var(newCount(&o.fsyncOps), "fsync-ops", "writes of the fsync-latency probe, each followed by fdatasync (0: skip the probe)")
	fs.StringVar(&o.fsyncSize, "fsync-size", o.fsyncSize, "bytes per write of the fsync-latency probe")
	fs.BoolVar(&o.si, "si", false, "print sizes and rates in powers of 1000 (kB, MB/s) instead of powers of 2 (KiB, MiB/s)")
	fs.StringVarP(&o.format, "format", "f", o.format, formatUsage("report format on stdout", "disk"))
	fs.StringVar(&o.jsonOut, "json", "", "also write the report as JSON to this file")
	fs.BoolVar(&o.force, "force", false, "let --json replace a file gobench did not write (another program's data, a SQLite database)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print only the report (no progress on stderr)")
}

// checkPaths refuses, before anything is written, a --dir (or TMPDIR)
// that cannot be written or has less free space than the run needs, and
// a --json that cannot be written.
func (o *diskOptions) checkPaths(env *Env) error {
	if err := checkTempDir(env, "--dir", o.dir); err != nil {
		return err
	}
	dir := cmp.Or(o.dir, env.FS.TempDir())
	if free, ok := env.FS.FreeBytes(dir); ok && o.cfg.Need() > free {
		u := bytesize.Units{SI: o.si}
		return usage(fmt.Errorf("--size %s: the run needs %s on the file system of %s, which has %s free: give a smaller --size or another --dir",
			o.size, u.Round(o.cfg.Need()), dir, u.Round(free)))
	}
	c := newPathCheck(env, o.force)
	if o.jsonOut != "" {
		if err := c.output("--json", o.jsonOut); err != nil {
			return err
		}
	}
	return c.hold()
}

// resolve checks the flags and builds the measurement's configuration.
func (o *diskOptions) resolve() error {
	var err error
	if _, err = report.Render(o.format, (*disk.Report)(nil), report.Options{}); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	c := disk.Config{Direct: o.direct, FsyncOps: o.fsyncOps}
	if c.Size, err = bytesize.Parse(o.size); err != nil {
		return fmt.Errorf("--size: %w", err)
	}
	if strings.TrimSpace(o.bs) != "" { // --bs '': the fsync probe only
		if c.BlockSizes, err = bytesize.ParseList(o.bs); err != nil {
			return fmt.Errorf("--bs: %w", err)
		}
	}
	if c.Sync, err = disk.ParseSyncMode(o.sync); err != nil {
		return fmt.Errorf("--sync: %w", err)
	}
	if c.FsyncSize, err = bytesize.Parse(o.fsyncSize); err != nil {
		return fmt.Errorf("--fsync-size: %w", err)
	}
	if err := c.Validate(); err != nil {
		return err
	}
	o.cfg = c
	return nil
}

func newDiskCommand(env *Env) *cobra.Command {
	o := defaultDiskOptions()
	cmd := &cobra.Command{
		Use:         "disk",
		Annotations: map[string]string{rendersKind: "disk"},
		Short:       "Measure the disk itself: sequential MiB/s by block size and fsync latency",
		Long: `disk measures the ceiling under every durable commit: the disk of --dir
(the OS's temporary directory by default), with no database in the way.

For each --bs it writes --size bytes of random, incompressible data to a
new file, block by block, made durable as --sync says (the sync is inside
the write clock), then drops the file from the page cache
(posix_fadvise DONTNEED; the report says where that was impossible) and
reads it back. Then the fsync probe appends --fsync-ops small writes,
each followed by fdatasync, and times each: durable writes per second and
their p50/p99 latency, the most commits per second a database in
synchronous mode can make on this disk.

Units are explicit: input sizes read like dd's (k = KiB = 1024 bytes,
kB = 1000); rates print in MiB/s (2^20 bytes per second), or MB/s
(10^6) with --si, and the header says which. The test files are removed
afterwards, also when the run is interrupted.`,
		Example: `  # The defaults: 256 MiB at 4k, 100k, 1m and 10m blocks, one fsync at the end
  gobench disk

  # The disk under your database, every block durable (dd oflag=dsync)
  gobench disk --dir /var/lib/myapp --sync dsync --size 64M

  # Bypass the page cache both ways
  gobench disk --direct --bs 4k,1m

  # Only the fsync probe, as JSON
  gobench disk --bs '' --fsync-ops 5000 --format json`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			return usage(o.resolve())
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDisk(cmd.Context(), o, env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runDisk(ctx context.Context, o *diskOptions, env *Env) error {
	if err := o.checkPaths(env); err != nil {
		return err
	}
	tmp, err := env.FS.MkdirTemp(o.dir, "gobench-disk-")
	if err != nil {
		return fmt.Errorf("creating a temporary directory: %w", err)
	}
	defer env.FS.RemoveAll(tmp)
	if abs, err := env.FS.Abs(tmp); err == nil {
		tmp = abs
	}
	cfg := o.cfg
	cfg.Dir = tmp
	units := bytesize.Units{SI: o.si}
	if !o.quiet {
		cfg.Progress = func(s disk.Step) {
			what := fmt.Sprintf("write and read %s in blocks of %s", units.Size(s.Bytes), units.Size(s.BlockSize))
			if s.Fsync {
				what = fmt.Sprintf("fsync probe, %d writes of %s", cfg.FsyncOps, units.Size(cfg.FsyncSize))
			}
			fmt.Fprintf(env.Stderr, "gobench: %d of %d: %s\n", s.Index, s.Of, what)
		}
	}
	rep, runErr := disk.Run(ctx, cfg)
	if rep == nil {
		return runErr
	}
	rep.Dir = filepath.Dir(tmp)
	rep.Filesystem = env.FS.Filesystem(tmp)
	opts := report.Options{Units: units}
	if o.jsonOut != "" {
		asJSON, _ := report.Render("json", rep, opts)
		if err := env.FS.WriteOutput(o.jsonOut, asJSON); err != nil {
			return errors.Join(runErr, fmt.Errorf("writing --json %s: %w", o.jsonOut, err))
		}
	}
	opts.Width = env.stdoutWidth()
	render, _ := report.Render(o.format, rep, opts) // the format was checked
	if err := render(env.Stdout); err != nil {
		return errors.Join(runErr, fmt.Errorf("writing the report: %w", err))
	}
	return runErr
}
