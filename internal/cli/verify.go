package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/conformance"
)

// verifyOptions are the flags of gobench verify.
type verifyOptions struct {
	drivers string
	reg     *store.Registry
}

// AddFlags binds the options to flags.
func (o *verifyOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.drivers, "driver", all.DefaultDriver(), "driver(s) to check, a comma list: "+driverNames(o.reg))
}

func newVerifyCommand(env *Env) *cobra.Command {
	o := &verifyOptions{reg: env.registry()}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that a driver behaves as gobench expects before trusting its numbers",
		Long: `verify runs gobench's conformance checks (the suite every engine's tests
run) against a driver with its default settings, on temporary databases:
writes are read back, missing keys are reported as missing, updates and
deletes do what they say, batches commit and roll back, several
connections work at once, a second Init starts afresh. It prints PASS,
FAIL or SKIP per check and exits 1 if any check failed. (The null
engine stores nothing, to measure gobench itself: it fails by design.)`,
		Example: `  gobench verify --driver modernc
  gobench verify --driver mattn,lmdb,files,map,btree`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runVerify(cmd.Context(), o, env, o.reg)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// errVerify marks a driver that failed a check.
var errVerify = fmt.Errorf("conformance checks failed")

func runVerify(ctx context.Context, o *verifyOptions, env *Env, reg *store.Registry) error {
	var names store.List
	if err := names.Set(o.drivers); err != nil {
		return usage(fmt.Errorf("--driver: %w", err))
	}
	var drivers []store.Driver
	for _, n := range names {
		d, err := reg.Lookup(n)
		if err != nil {
			return usage(fmt.Errorf("--driver: %w", err))
		}
		drivers = append(drivers, d)
	}
	// The checks make their databases in temporary directories: say once
	// if none can be made, rather than fail every check of every driver.
	probe, err := env.FS.MkdirTemp("", "gobench-verify-")
	if err != nil {
		return usage(fmt.Errorf("cannot make a temporary directory for the checks' databases (TMPDIR=%q): %w", env.Getenv("TMPDIR"), err))
	}
	if err := env.FS.RemoveAll(probe); err != nil {
		return fmt.Errorf("removing %s: %w", probe, err)
	}
	out := &checkedWriter{w: env.Stdout}
	failed := 0
	for _, d := range drivers {
		if ctx.Err() != nil {
			break
		}
		if !verifyDriver(ctx, d, out) {
			failed++
		}
	}
	if out.err != nil {
		return fmt.Errorf("writing the report: %w", out.err)
	}
	if err := ctx.Err(); err != nil {
		return err // the checks that ran are printed; the rest did not run
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d drivers", errVerify, failed, len(drivers))
	}
	return nil
}

// verifyDriver runs the checks against d and prints a line per check and
// a summary; it reports whether every check that ran passed or was
// skipped. Once ctx is done no further check starts, and the summary
// says how many did not run.
func verifyDriver(ctx context.Context, d store.Driver, out *checkedWriter) bool {
	results := conformance.Verify(ctx, d, func(t conformance.T) store.Config {
		return store.Config{Path: filepath.Join(t.TempDir(), "verify.db")}
	})
	pass, fail, skip := 0, 0, 0
	for _, r := range results {
		switch {
		case r.Skipped:
			skip++
			out.printf("SKIP  %-8s %s (the engine lacks the capability)\n", d.Name(), r.Name)
		case r.Passed():
			pass++
			out.printf("PASS  %-8s %s\n", d.Name(), r.Name)
		default:
			fail++
			out.printf("FAIL  %-8s %s: %s\n", d.Name(), r.Name, strings.Join(r.Failures, "; "))
		}
	}
	if n := len(conformance.Checks()); len(results) < n {
		out.printf("%s: interrupted: %d passed, %d failed, %d skipped; %d checks did not run\n", d.Name(), pass, fail, skip, n-len(results))
	} else {
		out.printf("%s: %d passed, %d failed, %d skipped\n", d.Name(), pass, fail, skip)
	}
	return fail == 0
}

// checkedWriter prints to w and keeps the first write error: a report
// that could not be written is a failure, not a success.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) printf(format string, args ...any) {
	if c.err == nil {
		_, c.err = fmt.Fprintf(c.w, format, args...)
	}
}
