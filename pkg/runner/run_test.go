package runner

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Run runs plan in this test process against a store opened with drv,
// every worker a goroutine, its samples to c: the tests' way to drive a
// Host whole (the library's entry point, bench.Run, builds a result
// from the same steps).
func Run(ctx context.Context, plan *workload.Plan, drv store.Driver, c workload.Collector) (err error) {
	if err := plan.Validate(); err != nil {
		return fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	st, err := OpenStore(ctx, plan, drv, Setup{})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the store: %w", cerr)
		}
	}()
	return (&Host{Plan: plan, Store: st, Workers: plan.WorkerIDs(), Collector: c}).Run(ctx)
}
