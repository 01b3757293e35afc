// Package bench is gobench's one-call library entry point: Run runs a
// workload plan in this process against a store driver, every worker a
// goroutine, and returns the result the gobench command would record (its
// worker processes, matrices and reports stay in the command).
package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Run runs plan against drv and returns its result. An empty plan.Driver
// is filled with drv's name; another name is refused (store.ErrInvalid),
// since the result would carry it. The store is set up as the command sets
// it up (workload.OpenStore: init, then the preload) and closed after.
// On an error during the run the partial result is returned with it.
func Run(ctx context.Context, plan workload.Plan, drv store.Driver) (*result.Result, error) {
	if plan.Driver == "" {
		plan.Driver = drv.Name()
	}
	st, err := workload.OpenStore(ctx, &plan, drv, workload.Setup{})
	if err != nil {
		return nil, err
	}
	env := environment(ctx, st)
	b := result.NewBuilder(&plan)
	started := time.Now().UTC()
	runErr := (&workload.Host{Plan: &plan, Store: st, Workers: plan.WorkerIDs(), Collector: b}).Run(ctx)
	if cerr := st.Close(); cerr != nil && runErr == nil {
		runErr = fmt.Errorf("closing the store: %w", cerr)
	}
	r := b.Result()
	r.Command, r.StartedAt, r.Environment, r.Tool = "library", started, env, result.ToolInfo()
	return r, runErr
}

// environment is what a library run can say about where it ran: the
// platform and the engine's own facts.
func environment(ctx context.Context, st store.Store) result.Environment {
	env := result.Environment{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Filesystem: "unknown"}
	env.Host, _ = os.Hostname()
	if d, ok := st.(store.Describer); ok {
		if facts, err := d.Describe(ctx); err == nil {
			env.Store = facts
		}
	}
	return env
}
