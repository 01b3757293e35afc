package coord

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/pkg/workload"
)

// handOver closes the store before the run's one worker process opens
// it, where the plan hands it over (workload.HandsOver: an engine one
// process may open at a time, in a worker process of its own); reopen
// opens it again once the worker closed it.
func (s *session) handOver() bool {
	if s.st == nil || !workload.HandsOver(s.cfg.Plan, s.drv) {
		return false
	}
	if err := s.st.Close(); err != nil {
		s.notef("closing the store for the worker process: %v", err)
	}
	s.st = nil
	s.notef("handing the store over to the worker process")
	return true
}

// reopen opens the store again after its worker process closed it (see
// handOver), for what is measured after the run.
func (s *session) reopen(ctx context.Context) error {
	st, err := s.drv.Open(ctx, s.localPlan().Store)
	if err != nil {
		return fmt.Errorf("opening the store again after its worker process: %w", err)
	}
	s.st = st
	return nil
}
