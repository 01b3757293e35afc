package cli

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/capture/preload"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/mask"
)

// captureOptions are the flags of gobench capture.
type captureOptions struct {
	out      string
	force    bool
	mask     string
	maskSeed string
}

// AddFlags binds the options to flags.
func (o *captureOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.out, "out", "o", "", "write the trace to this file (required)")
	fs.BoolVar(&o.force, "force", false, "let --out replace a file gobench did not write")
	fs.StringVar(&o.mask, "mask", "", "replace these columns' values (TABLE.COLUMN,...) in the trace with keyed substitutes, equal values alike")
	fs.StringVar(&o.maskSeed, "mask-seed", "", "the key of --mask's substitutes (default: random, one per capture)")
}

func newCaptureCommand(env *Env) *cobra.Command {
	o := &captureOptions{}
	cmd := &cobra.Command{
		Use:   "capture --out TRACE -- COMMAND [ARGS...]",
		Short: "Run a program and record every SQLite statement it runs, for gobench replay",
		Long: `capture runs COMMAND with gobench's capture library preloaded
(LD_PRELOAD), so that every process of it that uses the system's SQLite
library (Python's sqlite3, PHP, Ruby, the sqlite3 shell; child processes
too) records each statement it runs: the SQL, its parameters with their
types, when it ran and for how long, the rows it returned or changed, its
result code, its connection and transaction, and where it stood in the
database's order of commits. Before the first statement runs on a
database, a copy of it is taken (SQLite's backup API), so that a replay
starts from the same content. The trace (--out) holds it all; gobench
replay --info TRACE summarises it, gobench replay TRACE runs it again.

The program runs as it would without capture: its arguments, input,
output, errors and exit status pass through (gobench capture exits with
the program's status). The trace never replaces a file the program
created, changed or opened as a database (or its -wal, -journal or -shm
file) during the capture: it goes beside it, as FILE.trace or
FILE.N.trace, and capture exits 2 saying where.

A signal that stops gobench (SIGTERM, SIGINT, SIGHUP) is passed on to the
program's process group (its own, unless gobench runs in a terminal's
foreground, whose Ctrl-C reaches both); the trace of what ran is written
and gobench exits with the signal's status (143, 130, 129). A second
signal kills the program, and so does gobench's own death (Linux). A Go program captures itself through package
capture's driver wrapper, which writes into the same trace when run under
gobench capture.

The library is built from gobench's own C source with cc (or $CC) the
first time, into $GOBENCH_CACHE_DIR or the user's cache directory. It
needs Linux. A program with SQLite compiled into itself, rather than
linked to the system's library, cannot be captured this way.

--mask users.email,users.name replaces those columns' values in the
trace: in each database's snapshot, in the parameters bound to them and in
the literals of the statements that put them there or compare them, and
any text or blob parameter or literal equal to one of their values. Each
value becomes a substitute of the same type (a text as many letters and
digits, at least 12), the same for equal values (an HMAC-SHA256 under a
random key, or --mask-seed's), so lookups and joins on them still find
their rows; a replay's rows that read them differ from the capture's.`,
		Example: `  # A Python program (docs/replay.md's shop), its processes and threads
  gobench capture --out shop.trace -- python3 examples/replay/shop.py --db shop.db --ops 5 --journal wal
  gobench replay --info shop.trace

  # Statements run in the sqlite3 shell
  gobench capture -o shell.trace -- sqlite3 shell.db 'CREATE TABLE t (x); INSERT INTO t VALUES (1)'

  # No user's e-mail address or name in the trace
  gobench capture --mask users.email,users.name --out shop.trace -- python3 examples/replay/shop.py --db shop.db`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usage(errors.New("capture needs the command to run, after --"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCapture(cmd.Context(), o, args, env)
		},
		Annotations: map[string]string{runsProgram: "yes"},
	}
	cmd.Flags().SetInterspersed(false) // what follows the command is its own
	o.AddFlags(cmd.Flags())
	return cmd
}

func runCapture(ctx context.Context, o *captureOptions, args []string, env *Env) error {
	if o.out == "" {
		return usage(errors.New("--out is required: the file to write the trace to"))
	}
	m, err := o.masking()
	if err != nil {
		return err
	}
	c := newPathCheck(env, o.force)
	if err := c.output("--out", o.out); err != nil {
		return err
	}
	if err := c.hold(); err != nil { // a device or FIFO: opened, and checked, before the program runs
		return err
	}
	cache, err := preload.CacheDir(env.Getenv)
	if err != nil {
		return err
	}
	lib, err := preload.Library(ctx, cache, env.Getenv("CC"))
	if err != nil {
		return err
	}
	abs, err := env.FS.Abs(o.out)
	if err != nil {
		return usage(fmt.Errorf("--out %s: %w", o.out, err))
	}
	t, err := env.FS.OutputTarget(abs)
	if err != nil {
		return usage(fmt.Errorf("--out %s: %w", o.out, err))
	}
	if err := context.Cause(ctx); err != nil {
		return err // a signal came before the program started
	}
	signals, stop := passSignals(ctx)
	run, err := preload.Run(ctx, preload.Options{
		Command: args[0], Args: args[1:], Library: lib, TempDir: filepath.Dir(abs),
		Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr,
		Guard: []string{t.Path}, Signals: signals, Kill: env.Abort, WatchdogArg: captureWatchdogArg,
	})
	stop()
	if err != nil {
		return usage(err)
	}
	defer run.Close()
	if err := writeCapture(env, o.out, t.Path, run, m); err != nil {
		return err
	}
	if err := context.Cause(ctx); err != nil {
		return err // the exit status is the signal's, whatever the program did with it
	}
	if run.ExitCode != 0 {
		return exitStatus{run.ExitCode}
	}
	return nil
}

// passSignals returns the channel on which the signal that stops gobench
// (the cause of ctx) goes on to the program, which stops as it would: the
// trace keeps what it ran. stop ends the watch.
func passSignals(ctx context.Context) (<-chan os.Signal, func()) {
	signals := make(chan os.Signal, 1)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			var sc *signalCause
			if errors.As(context.Cause(ctx), &sc) {
				signals <- sc.sig
			}
		case <-done:
		}
	}()
	return signals, func() { close(done) }
}

// writeCapture writes the trace to out (whose file is path), or, when the
// program made that file its own (sqlite3 same.db with --out same.db),
// beside it under a free name, and fails saying so: the trace never
// replaces what the program left.
func writeCapture(env *Env, out, path string, run *preload.Captured, m *captureMask) error {
	to, moved := out, ""
	if why, touched, err := run.Touched(path); err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	} else if touched {
		if to, err = run.FreeName(out); err != nil {
			return err
		}
		moved = why
	}
	var st sqltrace.MergeStats
	err := env.FS.WriteOutput(to, func(w io.Writer) error {
		var err error
		if m != nil {
			st, err = m.merge(run, w)
			return err
		}
		st, err = run.Merge(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("writing the trace %s: %w", to, err)
	}
	captureSummary(env, to, st)
	if moved != "" {
		return usage(fmt.Errorf("--out %s is %s during the capture: it is left as the program left it, and the trace is in %s instead", out, moved, to))
	}
	return nil
}

// captureSummary says on stderr what the trace holds.
func captureSummary(env *Env, out string, st sqltrace.MergeStats) {
	for _, n := range st.Notes {
		fmt.Fprintf(env.Stderr, "gobench: capture: %s\n", n)
	}
	if st.Cut.Statements > 0 {
		fmt.Fprintf(env.Stderr, "gobench: capture: %d statements were longer than %d MiB and are kept as their first MiB: a replay does not run them (%s)\n", st.Cut.Statements, sqltrace.MaxText>>20, st.Cut.Names())
	}
	if st.Omitted.Statements > 0 {
		fmt.Fprintf(env.Stderr, "gobench: capture: %d statements had a parameter longer than %d MiB, kept as its type and length only: a replay binds filler, and its database cannot end as the capture's (%s)\n", st.Omitted.Statements, sqltrace.MaxValue>>20, st.Omitted.Names())
	}
	if st.Streams == 0 {
		fmt.Fprintf(env.Stderr, "gobench: capture: no process called SQLite through the system's library: %s holds no statement (a program with SQLite compiled in cannot be captured this way; a Go program uses package capture's wrapper)\n", out)
		return
	}
	fmt.Fprintf(env.Stderr, "gobench: captured %d records of %d processes, %d database snapshots, into %s (gobench replay --info %s)\n",
		st.Records, st.Streams, st.Snapshots, out, out)
}

// captureMask is what --mask asks for.
type captureMask struct {
	cols []mask.Column
	key  mask.Key
}

// masking reads --mask and --mask-seed: nil without --mask.
func (o *captureOptions) masking() (*captureMask, error) {
	if o.mask == "" {
		if o.maskSeed != "" {
			return nil, usage(errors.New("--mask-seed needs --mask"))
		}
		return nil, nil
	}
	cols, err := mask.ParseColumns(o.mask)
	if err != nil {
		return nil, usage(fmt.Errorf("--mask: %w", err))
	}
	key := make(mask.Key, 32)
	if o.maskSeed != "" {
		sum := sha256.Sum256([]byte(o.maskSeed))
		key = sum[:]
	} else if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &captureMask{cols: cols, key: key}, nil
}

// merge writes the trace masked to w.
func (m *captureMask) merge(run *preload.Captured, w io.Writer) (sqltrace.MergeStats, error) {
	st, ms, err := mask.Merged(w, run.Dir(), run.Merge, m.cols, m.key)
	if err == nil {
		st.Notes = append(st.Notes, fmt.Sprintf("masked %s: %d snapshots, %d parameters, %d literals of statements' texts", m.names(), ms.Snapshots, ms.Params, ms.Literals))
	}
	return st, err
}

// names lists the masked columns.
func (m *captureMask) names() string {
	s := make([]string, len(m.cols))
	for i, c := range m.cols {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}
