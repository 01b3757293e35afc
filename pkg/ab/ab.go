// Package ab runs one benchmark command with two gobench builds,
// alternately on one machine, and gathers each build's results: what
// "did this change make it slower?" needs. Two invocations a few minutes
// apart drift more than the repeats of one (another process starts, the
// disk's cache fills), and drift read as a change calls a regression that
// is not there or hides one that is. Run alternately, in ABBA order
// (old, new, new, old, round after round), the two builds meet the same
// drift: a linear trend falls on both sides alike within every round, and
// what remains is noise that the interval of the ratio accounts for
// (judge.Compare with CompareOptions.Interleaved).
//
// A build is a gobench binary, or a git revision of gobench's repository
// built into a temporary directory with go build. Each run is the build's
// own process, on the command line the caller gives ("mix --journal wal
// --procs 8"), one repeat at a time, writing its result as JSON.
package ab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/result"
)

// ErrRefused marks a command a build refused before running anything
// (its exit status 2: a flag it does not know, a bad value), or two
// builds that resolve the command to different workloads.
var ErrRefused = errors.New("refused")

// DefaultRounds is how many ABBA rounds Run makes when Spec.Rounds is 0:
// six runs of each build, enough for a 90% interval of the ratio with
// room to narrow it.
const DefaultRounds = 3

// Spec is an A/B run.
type Spec struct {
	// Old and New are the builds: the path of a gobench binary (any value
	// that names an existing file), or else a git revision of Repo.
	Old, New string
	// Repo is the git repository revisions are built from; "" for the
	// current directory.
	Repo string
	// Args is the command both builds run, without the program's name and
	// without output flags ("mix", "--journal", "wal"); Run adds
	// --repeat 1, --json and -q to each run.
	Args []string
	// Rounds is the number of ABBA rounds; each runs the old build twice
	// and the new one twice.
	Rounds int
	// Dir keeps the builds and every run's result; "" for a temporary
	// directory, removed once the results are read.
	Dir string
	// RunLimit is how long one run may take before it is stopped and the
	// A/B run fails (a build that hangs); 0: no limit.
	RunLimit time.Duration
	// Notes receives a line as each build is made and each run starts;
	// nil discards them.
	Notes io.Writer
}

// Result is what an A/B run gathered: each build's runs, as the suite
// its results make (cells by settings, runs in the order they ran), and
// the binaries that ran.
type Result struct {
	Old, New             *result.Suite
	OldBinary, NewBinary string
	// Order is the order the runs went in: "old", "new", "new", "old", ….
	Order []string
}

// refusedFlags are the flags a command given to ab may not carry: ab
// sets the output and the repeats of every run itself, and judges the
// runs itself.
var refusedFlags = []string{"--json", "--html", "--hlog", "--summary", "--format", "-f", "--repeat", "--dry-run",
	"--quiet", "-q", "--expect", "--find-rate", "--shard", "--keep", "--progress"}

// Refused says whether ab refuses flag (such as "--json" or "-f") in the
// command it runs: ab sets it itself.
func Refused(flag string) bool { return slices.Contains(refusedFlags, flag) }

// CheckArgs refuses a command ab cannot run for each build: none, or one
// that sets what ab sets (its output, its repeats, gates of its own).
func CheckArgs(args []string) error {
	if len(args) == 0 {
		return errors.New("no command to run: give it after --, such as -- mix --journal wal --procs 8")
	}
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		if slices.Contains(refusedFlags, name) {
			return fmt.Errorf("%s: ab sets every run's output and repeats itself and judges the runs itself; leave it out of the command (--rounds sets the repeats, --max-regression the verdict)", name)
		}
	}
	return nil
}

// Run makes the builds, checks that both resolve the command to the
// same workload, then runs it Rounds times in ABBA order and returns
// each build's results. It stops at the first run that fails, with an
// error naming the build and the run and quoting the build's last
// words; a build that refuses the command returns ErrRefused at once.
func Run(ctx context.Context, s Spec) (*Result, error) {
	if err := CheckArgs(s.Args); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	rounds := s.Rounds
	if rounds <= 0 {
		rounds = DefaultRounds
	}
	dir, cleanup, err := workDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	note := notef(s.Notes)
	res := &Result{}
	if res.OldBinary, err = resolve(ctx, s.Repo, s.Old, filepath.Join(dir, "old"), note); err != nil {
		return nil, fmt.Errorf("--old %s: %w", s.Old, err)
	}
	if res.NewBinary, err = resolve(ctx, s.Repo, s.New, filepath.Join(dir, "new"), note); err != nil {
		return nil, fmt.Errorf("--new %s: %w", s.New, err)
	}
	if err := sameWorkload(ctx, res.OldBinary, res.NewBinary, s.Args); err != nil {
		return nil, err
	}
	files := map[string][]string{}
	total := 4 * rounds
	for i, side := range abba(rounds) {
		bin := map[string]string{"old": res.OldBinary, "new": res.NewBinary}[side]
		out := filepath.Join(dir, fmt.Sprintf("%s-%d.json", side, len(files[side])+1))
		note("round %d of %d: run %d of %d, %s build", i/4+1, rounds, i+1, total, side)
		if err := runOnce(ctx, s.RunLimit, bin, s.Args, out); err != nil {
			return nil, fmt.Errorf("%s build (%s), run %d of %d: %w", side, bin, i+1, total, err)
		}
		files[side] = append(files[side], out)
		res.Order = append(res.Order, side)
	}
	if res.Old, err = gather(files["old"], filepath.Join(dir, "old.json")); err != nil {
		return nil, fmt.Errorf("the old build's results: %w", err)
	}
	if res.New, err = gather(files["new"], filepath.Join(dir, "new.json")); err != nil {
		return nil, fmt.Errorf("the new build's results: %w", err)
	}
	return res, nil
}

// abba is the order of the runs: old, new, new, old, once per round.
func abba(rounds int) []string {
	var out []string
	for range rounds {
		out = append(out, "old", "new", "new", "old")
	}
	return out
}

// workDir returns dir, created if need be, or a new temporary directory
// that cleanup removes.
// A given directory must be new or empty: the runs write their results
// there, and would replace files that are not theirs.
func workDir(dir string) (string, func(), error) {
	if dir != "" {
		if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
			return "", nil, fmt.Errorf("%w: --dir %s is not empty: give a new or empty directory", ErrRefused, dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, fmt.Errorf("%w: --dir %s: %w", ErrRefused, dir, err)
		}
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "gobench-ab-")
	if err != nil {
		return "", nil, fmt.Errorf("creating a temporary directory: %w", err)
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}

func notef(w io.Writer) func(string, ...any) {
	return func(format string, args ...any) {
		if w != nil {
			fmt.Fprintf(w, format+"\n", args...)
		}
	}
}

// runOnce runs the command once with bin, its result written to out,
// for up to limit (0: no limit).
func runOnce(ctx context.Context, limit time.Duration, bin string, args []string, out string) error {
	full := append(slices.Clone(args), "--repeat", "1", "--json", out, "-q")
	var stderr bytes.Buffer
	cmd, finish := command(ctx, limit, bin, full...)
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	return exitErr(ctx, run(cmd, finish), &stderr)
}

// exitErr describes a build's failure: its exit status and its last
// words on stderr; exit status 2, bad input, is ErrRefused.
func exitErr(ctx context.Context, err error, stderr *bytes.Buffer) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	words := lastLines(stderr.String(), 3)
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		return fmt.Errorf("%w: %s", ErrRefused, words)
	}
	return fmt.Errorf("%w: %s", err, words)
}

// lastLines returns the last n lines of s, joined by "; ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "; ")
}

// sameWorkload asks each build for its plan of the command (--dry-run)
// and refuses builds whose plans are of different workloads: their
// results could not be compared, which is better known before the runs.
func sameWorkload(ctx context.Context, old, new string, args []string) error {
	var jobs []*job.Job
	for _, bin := range []string{old, new} {
		var stdout, stderr bytes.Buffer
		cmd, finish := command(ctx, planLimit, bin, append(slices.Clone(args), "--dry-run")...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := exitErr(ctx, run(cmd, finish), &stderr); errors.Is(err, errTooLong) {
			return fmt.Errorf("%s --dry-run (which only plans the command): %w", bin, err)
		} else if err != nil {
			return fmt.Errorf("%s refuses the command: %w", bin, err)
		}
		j, err := job.Read(&stdout, nil)
		if err != nil {
			return fmt.Errorf("%s --dry-run: %w", bin, err)
		}
		if len(j.Cells) == 0 || slices.Contains(j.Cells, nil) {
			return fmt.Errorf("%w: %s --dry-run: a plan without its cells (is it a gobench build?)", ErrRefused, bin)
		}
		jobs = append(jobs, j)
	}
	if len(jobs[0].Cells) != len(jobs[1].Cells) {
		return fmt.Errorf("%w: the builds resolve the command to %d and %d cells", ErrRefused, len(jobs[0].Cells), len(jobs[1].Cells))
	}
	a, b := &result.Result{Plan: *jobs[0].Cells[0]}, &result.Result{Plan: *jobs[1].Cells[0]}
	if err := result.SameWorkload(a, b); err != nil {
		return fmt.Errorf("%w: the builds resolve the command to %w", ErrRefused, err)
	}
	return nil
}

// gather reads one build's result files into its suite and writes the
// suite to out, for a later gobench compare or report.
func gather(files []string, out string) (*result.Suite, error) {
	var runs []*result.Result
	var first *result.Suite
	for _, f := range files {
		s, err := readSuite(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if first == nil {
			first = s
		}
		for _, c := range s.Cells {
			runs = append(runs, c.Runs...)
		}
	}
	if first == nil {
		return nil, errors.New("no runs")
	}
	s, err := result.NewSuite(first.Command, "interleaved", runs, "")
	if err != nil {
		return nil, err
	}
	s.Shape, s.Reference = first.Shape, first.Reference
	f, err := os.Create(out)
	if err != nil {
		return nil, err
	}
	if err := s.Write(f); err != nil {
		f.Close()
		return nil, err
	}
	return s, f.Close()
}

func readSuite(path string) (*result.Suite, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return result.ReadSuite(f)
}
