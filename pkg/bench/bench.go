// Package bench is gobench's one-call library entry point: Run runs a
// workload plan in this process against a store driver, every worker a
// goroutine, and returns the result the gobench command would record (its
// worker processes, matrices and reports stay in the command).
package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Run runs plan against drv and returns its result. An empty plan.Driver
// is filled with drv's name; another name is refused (store.ErrInvalid),
// since the result would carry it. The store is set up as the command sets
// it up (runner.OpenStore: init, then the preload) and closed after;
// the plan is validated first and its options named as the engine names
// them (store.Declarer), so the result reads as the command's do. This is
// the library's one entry point; runner.Host is the building block
// under it and under the command's worker processes.
// On an error during the run the partial result is returned with it.
func Run(ctx context.Context, plan workload.Plan, drv store.Driver) (_ *result.Result, err error) {
	if plan.Driver == "" {
		plan.Driver = drv.Name()
	}
	if err := plan.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	if n, ok := drv.(store.Declarer); ok && len(plan.Store.Settings) == 0 && len(plan.Store.Options) > 0 {
		if plan.Store.Settings, err = n.Options().Name(plan.Store.Options); err != nil {
			return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
		}
	}
	var src workload.Source // nil but for a source with work around a run (a replayed trace's)
	var check func(context.Context, store.Store) error
	if a := plan.Around(); a != nil {
		var release func()
		if src, release, err = a.Host(&plan, plan.Workers(), nil); err != nil {
			return nil, err
		}
		defer release()
		check = a.SetupCheck(&plan)
	}
	st, err := runner.OpenStore(ctx, &plan, drv, runner.Setup{Check: check})
	if err != nil {
		return nil, err
	}
	var facts []store.Fact
	if d, ok := st.(store.Describer); ok {
		facts, _ = d.Describe(ctx) // a run without the engine's facts still says where it ran
	}
	env := Environment(plan.Store.Path, drv, facts)
	b := result.NewBuilder(&plan)
	started := time.Now().UTC()
	runErr := (&runner.Host{Plan: &plan, Store: st, Workers: plan.WorkerIDs(), Collector: b, Source: src}).Run(ctx)
	if cerr := st.Close(); cerr != nil && runErr == nil {
		runErr = fmt.Errorf("closing the store: %w", cerr)
	}
	r := b.Result()
	r.Command, r.StartedAt, r.Environment, r.Tool = "library", started, env, result.ToolInfo()
	return r, runErr
}
