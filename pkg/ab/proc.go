package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Every process ab starts (a build's run or --dry-run, git, go build) runs
// in a process group of its own, so that a terminal's Ctrl-C reaches ab
// alone, which stops the group once: an interrupt to the whole group (the
// build's run and whatever it started), a kill stopGrace later if it is
// still there, and a kill of whatever the group left behind once its
// leader is gone. On Linux the kernel also stops the leader when ab dies,
// even of SIGKILL (a parent-death signal: SIGTERM, so a run stops as it
// does for an interrupt, its workers finishing their op and its
// temporary database removed): no run of a build outlives ab.

// Time limits of the steps that should be quick: a build plans the
// command (--dry-run) in well under a second, and go build of a revision
// takes a minute or two; git's own steps are quicker still. Variables
// for tests.
var (
	planLimit  = 2 * time.Minute
	buildLimit = 30 * time.Minute
)

// stopGrace is how long a run has to stop after an interrupt before it
// is killed: its workers finish their op and its temporary database goes.
var stopGrace = 15 * time.Second

// errTooLong marks a step stopped at its time limit.
var errTooLong = errors.New("took too long")

// command returns a command of bin in a process group of its own,
// stopped (see above) when ctx ends or after limit (0: none). finish,
// called with the error of its Run or Wait, kills what the group left,
// releases the limit and says so when the limit stopped it.
func command(ctx context.Context, limit time.Duration, bin string, args ...string) (cmd *exec.Cmd, finish func(error) error) {
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 {
		cctx, cancel = context.WithTimeout(ctx, limit)
	}
	cmd = exec.CommandContext(cctx, bin, args...)
	ownGroup(cmd)
	cmd.Cancel = func() error { return interruptGroup(cmd.Process) }
	cmd.WaitDelay = stopGrace
	return cmd, func(err error) error {
		if cmd.Process != nil {
			killGroup(cmd.Process)
		}
		timedOut := ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded)
		cancel()
		if err != nil && timedOut {
			return fmt.Errorf("%w: still running after %v, stopped (%w)", errTooLong, limit, err)
		}
		return err
	}
}

// run runs cmd (made by command) to its end, its output through
// unlinked temporary files rather than pipes, so that a process the
// build left behind holding them cannot keep ab waiting (finish kills
// it), and returns finish's error.
func run(cmd *exec.Cmd, finish func(error) error) error {
	var copies []func() error
	for _, w := range []*io.Writer{&cmd.Stdout, &cmd.Stderr} {
		switch (*w).(type) {
		case nil, *os.File:
			continue
		}
		if *w == io.Discard {
			*w = nil // the null device
			continue
		}
		f, err := os.CreateTemp("", "gobench-ab-")
		if err != nil {
			return finish(err)
		}
		_ = os.Remove(f.Name())
		dst := *w
		*w = f
		copies = append(copies, func() error {
			defer f.Close()
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return err
			}
			_, err := io.Copy(dst, f)
			return err
		})
	}
	err := finish(cmd.Run())
	for _, c := range copies {
		if cerr := c(); err == nil {
			err = cerr
		}
	}
	return err
}
