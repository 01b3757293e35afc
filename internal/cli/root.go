// Package cli is the gobench command line: one file per command, each a
// newXCommand(env) building the cobra command, an options struct with
// AddFlags, and a runX(ctx, opts, env) doing the work. Commands reach the
// operating system only through Env, and map errors to exit codes in one
// table (exit.go).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// runsWorkers annotates a command that runs workers: an interrupt stops
// them after their current op and keeps the partial result.
const runsWorkers = "gobench/runs-workers"

// runsProgram annotates a command that runs a program of the user's
// (capture): an interrupt is passed on to it (signalCause.sig), a second
// kills it (Env.Abort).
const runsProgram = "gobench/runs-program"

// examplesParsed annotates a command whose examples are measurements of
// this machine that take minutes and write no plan (scenario run): the
// test of every command's examples parses them only.
const examplesParsed = "gobench/examples-parsed"

// writesPlans annotates a command whose --dry-run writes a plan file that
// gobench run runs; its value names the op source every phase of its
// cells deals from (workload.Source's Name). A plan's command must be one
// of them, and its cells must deal as that command's do.
const writesPlans = "gobench/writes-plans"

// planCommands maps each command that writes plan files to the op
// source its cells deal from.
func planCommands(root *cobra.Command) map[string]string {
	commands := map[string]string{}
	for _, c := range root.Commands() {
		if source := c.Annotations[writesPlans]; source != "" {
			commands[c.Name()] = source
		}
	}
	return commands
}

// signalCause is a signal as the cause of a stopped command: what it
// means, and the exit code that says so (128 + the signal's number, as a
// shell reports a process the signal killed). It matches context.Canceled.
type signalCause struct {
	what string
	code int
	sig  os.Signal // the signal, as a program gobench runs is sent it
}

func (s *signalCause) Error() string { return s.what }
func (s *signalCause) Unwrap() error { return context.Canceled }

// The signals that stop gobench, as the causes of a cancelled command.
// Each stops it the same way: workers finish their current op, the
// partial result is written, temporary files are removed.
var (
	errHangup      = &signalCause{"hung up (SIGHUP)", ExitHangup, syscall.SIGHUP}
	errInterrupted = &signalCause{"interrupted (SIGINT)", ExitInterrupted, syscall.SIGINT}
	errQuit        = &signalCause{"quit (SIGQUIT)", ExitQuit, syscall.SIGQUIT}
	errBrokenPipe  = &signalCause{"output closed (SIGPIPE: the reader of stdout or stderr is gone)", ExitBrokenPipe, syscall.SIGTERM}
	errTerminated  = &signalCause{"terminated (SIGTERM)", ExitTerminated, syscall.SIGTERM}
)

// causeOf returns the cause a signal stops gobench with; nil for SIGPIPE,
// which any pipe raises (a dead worker's too): only a write to stdout or
// stderr that met a closed pipe stops gobench (Env.BrokenPipe).
func causeOf(sig os.Signal) *signalCause {
	switch sig {
	case syscall.SIGHUP:
		return errHangup
	case syscall.SIGQUIT:
		return errQuit
	case syscall.SIGTERM:
		return errTerminated
	case syscall.SIGPIPE:
		return nil
	}
	return errInterrupted
}

// Main runs gobench with args (without the program name) and returns the
// process's exit code.
func Main(args []string, env *Env) int {
	env.Args = args
	if env.progress == nil {
		line := &stderrLine{w: env.Stderr}
		env.progress = progressWriter{line} // the progress line redraws itself with its own control sequences
		env.Stderr = messages{line}         // each message on a line of its own
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if env.FS != nil {
		defer env.FS.Release() // outputs held open for a run that did not write them
		// An interrupt ends a read waiting on a FIFO's silent writer.
		defer context.AfterFunc(ctx, env.FS.CancelReads)()
	}
	var workers, program atomic.Bool // the command runs workers, or a program (set once it starts)
	said := relaySignals(env, cancel, &workers, &program)
	root := newRootCommand(env)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		workers.Store(cmd.Annotations[runsWorkers] != "" && !printsOnly(cmd))
		program.Store(cmd.Annotations[runsProgram] != "")
		return finiteFloats(cmd)
	}
	root.SetArgs(boolLists(root, args))
	err := unknownFirstWord(root, args)
	if err == nil {
		err = repeatedFlag(root, args)
	}
	if err == nil {
		err = root.ExecuteContext(ctx)
	}
	if isClosed(env.BrokenPipe) {
		cancel(errBrokenPipe) // a no-op when a signal came first
	}
	cause := context.Cause(ctx) // which signal, if any
	if cause == nil {
		cause = err
	}
	if said != nil && cause != errBrokenPipe && errors.As(cause, new(*signalCause)) {
		// The relay's line saying the command stops comes before the
		// error that ends it (it is written just after the cancel).
		select {
		case <-said:
		case <-time.After(time.Second):
		}
	}
	printError(env, err, cause, workers.Load())
	if err != nil && errors.As(cause, new(*signalCause)) {
		err = errors.Join(err, cause) // the exit code is the signal's
	}
	return exitCode(err)
}

// printsOnly reports whether this invocation of a command that runs
// workers runs none and only prints: --dry-run (the plan) or --info (a
// trace's summary). It is then a filter: a reader that leaves ends it
// silently (printError).
func printsOnly(cmd *cobra.Command) bool {
	for _, name := range []string{"dry-run", "info"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Value.Type() == "bool" && f.Value.String() == "true" {
			return true
		}
	}
	return false
}

// messages is stderr as messages reach it: a control character in one
// (from a file name, a property, a crafted result, a worker's last
// output) is shown as %q would, so that no terminal acts on it; line
// breaks and tabs are kept (report.Message).
type messages struct{ w io.Writer }

func (m messages) Write(p []byte) (int, error) {
	s := report.Message(string(p))
	if len(s) == len(p) {
		return m.w.Write(p)
	}
	if _, err := io.WriteString(m.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printError prints the command's error on stderr, in one line: what
// stopped it, when a signal did (cause).
func printError(env *Env, err, cause error, workers bool) {
	switch {
	case err == nil, errors.As(err, new(exitStatus)):
	case cause == errBrokenPipe && !workers:
		// The reader of a report left (gobench report … | head): a filter
		// ends silently, with SIGPIPE's status, as Unix tools do.
	case errors.Is(err, coord.ErrSetupInterrupted):
		fmt.Fprintf(env.Stderr, "gobench: %v\n", err)
	case errors.Is(err, context.Canceled) && workers:
		fmt.Fprintf(env.Stderr, "gobench: %v: the result is partial (marked incomplete)\n", cause)
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(env.Stderr, "gobench: %v\n", cause)
	case errors.As(err, new(usageError)):
		// Bad input is one line: what was wrong (and, for a command line
		// that does not parse, which help to read).
		fmt.Fprintf(env.Stderr, "gobench: %s\n", shortenQuotes(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")))
	default:
		fmt.Fprintf(env.Stderr, "gobench: %s\n", shortenQuotes(err.Error()))
	}
}

// isClosed reports whether c is closed (nil never is).
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// relaySignals turns the first signal that stops gobench into a
// cancellation of the command (its cause says which signal; SIGQUIT
// prints every goroutine's stack first, as Go's own handler does), and a
// second one, for a command that runs workers or a program, into killing
// them (env.Abort). said is closed once the line saying the command
// stops is written (nil without signals to relay).
func relaySignals(env *Env, cancel context.CancelCauseFunc, workers, program *atomic.Bool) (said <-chan struct{}) {
	if env.Notify == nil {
		return nil
	}
	stopping := make(chan struct{})
	sigs := make(chan os.Signal, 4)
	abort := make(chan struct{})
	env.Abort = abort
	env.Notify(sigs)
	go func() {
		cause, ok := nextStop(sigs, env.BrokenPipe)
		if !ok {
			close(stopping)
			return
		}
		if cause == errQuit {
			fmt.Fprintf(env.Stderr, "SIGQUIT: quit\n\n%s\n", allStacks())
		}
		cancel(cause) // before saying so: who reads the line finds the command stopping
		switch {
		case workers.Load():
			fmt.Fprintf(env.Stderr, "gobench: %v: stopping workers after their current op (interrupt again to kill them)\n", cause)
		case program.Load():
			fmt.Fprintf(env.Stderr, "gobench: %v: passed on to the program (interrupt again to kill it)\n", cause)
		case cause != errBrokenPipe: // a report's reader left: nothing to say (printError)
			fmt.Fprintf(env.Stderr, "gobench: %v: stopping\n", cause)
		}
		close(stopping)
		if _, ok := nextStop(sigs, nil); ok && (workers.Load() || program.Load()) {
			what := "the workers"
			if program.Load() {
				what = "the program"
			}
			fmt.Fprintf(env.Stderr, "gobench: interrupted twice: killing %s\n", what)
			close(abort)
		}
	}()
	return stopping
}

// nextStop waits for the next signal that stops gobench, or for broken to
// close (a write to stdout or stderr met a closed pipe); false once sigs
// is closed.
func nextStop(sigs <-chan os.Signal, broken <-chan struct{}) (*signalCause, bool) {
	for {
		select {
		case sig, ok := <-sigs:
			if !ok {
				return nil, false
			}
			if c := causeOf(sig); c != nil {
				return c, true
			}
		case <-broken:
			return errBrokenPipe, true
		}
	}
}

// allStacks returns the stacks of every goroutine, as a Go program's
// SIGQUIT dump shows them.
func allStacks() []byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// longQuote matches a quoted value of more than 200 bytes in a message.
var longQuote = regexp.MustCompile(`"(?:[^"\\]|\\.){200,}"`)

// shortenQuotes cuts every long quoted value in msg (a 100 KB flag value
// echoed back) to its first 60 bytes and its length, so that the message
// around it stays readable.
func shortenQuotes(msg string) string {
	return longQuote.ReplaceAllStringFunc(msg, func(q string) string {
		head := []rune(q[1 : len(q)-1])
		if len(head) > 60 {
			head = head[:60]
		}
		return fmt.Sprintf("\"%s…\" (%d bytes)", string(head), len(q)-2)
	})
}

func newRootCommand(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "gobench",
		Short: "Load generator for embedded databases (SQLite first)",
		Long: `gobench measures embedded databases under realistic concurrency: real
worker processes (or goroutines) run a seeded operation mix against one
database file, stream every op's latency back to a coordinator, and get
throughput, latency percentiles and error counts by class.

The same seed deals every worker the same ops whatever the driver,
journal mode or worker mode, so comparisons are fair by construction.`,
		Example: `  # The classic SQLite test: 25 processes, 95% reads / 5% upserts, WAL
  gobench mix --procs 25 --queries 2000 --journal wal

  # The same against the rollback journal, result kept as JSON
  gobench mix --procs 25 --queries 2000 --journal rollback --json rollback.json`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetIn(env.Stdin)
	root.SetFlagErrorFunc(syntax)
	cobra.AddTemplateFunc("groupedFlags", groupedFlags)
	root.SetUsageTemplate(usageTemplate)
	root.Version = result.ToolInfo().Version // enables --version, which prints versionText
	cobra.AddTemplateFunc("gobenchVersion", versionText)
	root.SetVersionTemplate("{{gobenchVersion}}")
	root.AddCommand(newMixCommand(env), newSQLCommand(env), newCRUDCommand(env), newDiskCommand(env), newBlobCommand(env), newYCSBCommand(env), newRunCommand(env), newCompareCommand(env), newABCommand(env), newHistoryCommand(env), newMergeCommand(env), newReportCommand(env), newVerifyCommand(env), newCaptureCommand(env), newReplayCommand(env), newScenarioCommand(env), newChooseCommand(env), newWorkerCommand(env), newRecordFSCommand(env), newCrashCheckCommand(env), newCaptureWatchdogCommand(env), newVersionCommand(env))
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	registerCompletions(root, env)
	root.Args = noArgs
	argsAreSyntax(root)
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	return root
}

// repeatedFlag returns, as a usage error, the first flag that args give
// twice though it takes one value: pflag would keep the last silently, so
// '--journal wal --journal rollback' ran rollback alone. Repeatable flags
// (string arrays) may repeat.
func repeatedFlag(root *cobra.Command, args []string) error {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		return nil // cobra reports an unknown command itself
	}
	seen := map[string]bool{}
	for _, a := range args {
		if a == "--" {
			break
		}
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			f = cmd.Flags().Lookup(name)
		case strings.HasPrefix(a, "-") && len(a) == 2:
			f = cmd.Flags().ShorthandLookup(a[1:])
		}
		if f == nil || strings.HasSuffix(f.Value.Type(), "Array") || strings.HasSuffix(f.Value.Type(), "Slice") {
			continue
		}
		if _, repeatable := f.Value.(pflag.SliceValue); repeatable {
			continue
		}
		if seen[f.Name] {
			if strings.Contains(f.Usage, "comma list") {
				return usage(fmt.Errorf("--%s is given twice: for several values give one comma list, such as --%s a,b", f.Name, f.Name))
			}
			return usage(fmt.Errorf("--%s is given twice", f.Name))
		}
		seen[f.Name] = true
	}
	return nil
}

// boolLists joins the value given as its own word to an engine's boolean
// flag ("--bbolt-batch false,true"), as every other matrix flag takes it
// (store.JoinBoolLists).
func boolLists(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		return args
	}
	return store.JoinBoolLists(cmd.Flags(), args)
}

// unknownFirstWord refuses a first word that names no command before
// cobra parses the flags after it as the root command's: 'gobench mx
// --procs 4' is an unknown command mx (did you mean mix?), not an unknown
// flag --procs.
func unknownFirstWord(root *cobra.Command, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[0], "__") {
		return nil // flags, or cobra's hidden completion requests
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	if cmd, _, err := root.Find(args[:1]); err == nil && cmd == root {
		return syntax(root, unknownCommand(root, args[0]))
	}
	return nil
}

// noArgs refuses positional arguments: an unknown command, or a stray
// word after a command.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return unknownCommand(cmd, args[0])
	}
	return nil
}

// argsAreSyntax makes the argument errors of cmd and every command under
// it (cobra's own completion and help commands among them) usage errors
// that name the command's help: exit 2, as for a flag that does not
// parse.
func argsAreSyntax(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			err := check(c, args)
			var ue usageError
			if errors.As(err, &ue) {
				err = ue.err
			}
			return syntax(c, err)
		}
	}
	for _, sub := range cmd.Commands() {
		argsAreSyntax(sub)
	}
}
