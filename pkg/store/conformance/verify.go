package conformance

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gobench/gobench/pkg/store"
)

// Result is the outcome of one check run by Verify.
type Result struct {
	Name    string
	Skipped bool
	// Failures lists what went wrong; empty when the check passed.
	Failures []string
}

// Passed reports whether the check ran and found nothing wrong.
func (r Result) Passed() bool { return !r.Skipped && len(r.Failures) == 0 }

// Verify runs every check against drv outside go test, each on a new
// store from cfg, and returns one Result per check. Temporary directories
// are made under os.TempDir and removed. Once ctx is done no further
// check starts: the results are those of the checks that ran.
func Verify(ctx context.Context, drv store.Driver, cfg NewConfig) []Result {
	var out []Result
	for _, c := range Checks() {
		if ctx.Err() != nil {
			break
		}
		out = append(out, runCheck(c, drv, cfg))
	}
	return out
}

// errStop ends a check at Fatalf or Skip.
var errStop = errors.New("check stopped")

type runner struct {
	res      Result
	cleanups []func()
}

func runCheck(c Check, drv store.Driver, cfg NewConfig) (res Result) {
	r := &runner{res: Result{Name: c.Name}}
	defer func() {
		if p := recover(); p != nil && p != errStop { // our own sentinel, never wrapped
			r.res.Failures = append(r.res.Failures, fmt.Sprintf("panic: %v", p))
		}
		for i := len(r.cleanups) - 1; i >= 0; i-- {
			func() {
				defer func() {
					if p := recover(); p != nil && p != errStop {
						r.res.Failures = append(r.res.Failures, fmt.Sprintf("panic in cleanup: %v", p))
					}
				}()
				r.cleanups[i]()
			}()
		}
		res = r.res
	}()
	c.Fn(r, drv, Open(r, drv, c.Config(cfg(r))))
	return
}

func (r *runner) Helper() {}
func (r *runner) Errorf(format string, args ...any) {
	r.res.Failures = append(r.res.Failures, fmt.Sprintf(format, args...))
}
func (r *runner) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(errStop)
}
func (r *runner) Skip(...any) {
	r.res.Skipped = true
	r.res.Failures = nil
	panic(errStop)
}
func (r *runner) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *runner) TempDir() string {
	dir, err := os.MkdirTemp("", "gobench-verify-")
	if err != nil {
		r.Fatalf("creating a temporary directory: %v", err)
	}
	r.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
