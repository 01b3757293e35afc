package coord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workerbuild"
	"github.com/gobench/gobench/pkg/workload"
)

// workerBuild builds (or finds in the cache) the worker executable the
// plan's options ask for (store.WorkerBuilder), and has the run's worker
// processes start from it. Goroutine mode, whose workers are this
// process, cannot run another build and refuses it.
func (s *session) workerBuild(ctx context.Context) error {
	wb, ok := s.drv.(store.WorkerBuilder)
	if !ok {
		return nil
	}
	b, err := wb.WorkerBuild(s.cfg.Plan.Store)
	if err != nil || b == nil {
		return err
	}
	if s.cfg.Plan.Mode == workload.ModeGoroutine {
		return fmt.Errorf("%w: %s runs in worker processes of its own: it needs process mode (--mode process)", store.ErrInvalid, b.Name)
	}
	exe, err := workerbuild.Build(ctx, *b, workerbuild.Options{Notes: s.cfg.Notes})
	if err != nil {
		return err
	}
	s.build, s.buildExe = b, exe
	local := *s.cfg.Plan
	local.Store = wb.Local(local.Store)
	s.local = &local
	s.cfg.Command = func() (*exec.Cmd, error) { return exec.Command(exe, "worker"), nil }
	return nil
}

// localPlan is the plan as this process opens its store: without the
// options only the workers' build applies (store.WorkerBuilder.Local).
func (s *session) localPlan() *workload.Plan {
	if s.local != nil {
		return s.local
	}
	return s.cfg.Plan
}

// describeBuild replaces the store's facts, which this process's engine
// read, with those the build's worker reads (gobench worker --describe):
// its version and compile options are the build's, and the fact
// store.FactWorkerBuild names it.
func (s *session) describeBuild(ctx context.Context) error {
	if s.build == nil {
		return nil
	}
	plan, err := json.Marshal(s.cfg.Plan)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, s.buildExe, "worker", "--describe")
	var out, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(plan), &out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: the worker of %s describing the store: %w: %s", ErrWorker, s.build.Name, err, workerbuild.LastLines(stderr.String(), 3))
	}
	var facts []store.Fact
	if err := json.Unmarshal(out.Bytes(), &facts); err != nil {
		return fmt.Errorf("%w: the worker of %s described the store in no JSON: %w", ErrWorker, s.build.Name, err)
	}
	s.facts = append(facts, store.Fact{Name: store.FactWorkerBuild, Value: s.build.Name})
	return nil
}

// DescribeWorker is the body of `gobench worker --describe`: it reads a
// plan as JSON from in, opens its store (set up already) and writes the
// facts the store describes (store.Describer) to out as JSON: what a
// coordinator asks of a worker build it cannot read in its own process.
func DescribeWorker(ctx context.Context, in io.Reader, out io.Writer, reg *store.Registry) error {
	var p workload.Plan
	if err := json.NewDecoder(in).Decode(&p); err != nil {
		return fmt.Errorf("reading the plan: %w", err)
	}
	drv, err := reg.Lookup(p.Driver)
	if err != nil {
		return err
	}
	st, err := drv.Open(ctx, p.Store)
	if err != nil {
		return fmt.Errorf("opening the store: %w", err)
	}
	defer st.Close()
	var facts []store.Fact
	if d, ok := st.(store.Describer); ok {
		if facts, err = d.Describe(ctx); err != nil {
			return err
		}
	}
	return json.NewEncoder(out).Encode(facts)
}
