package coord

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/workload"
)

// A record workload whose run inserts needs one insert counter for all
// its worker processes (generator.Counter): the coordinator creates it as
// a small file in the database's directory, written with the counter's
// initial state, and names it in the plan the workers get; every worker
// process maps it (shared, per-OS files) and operates on it with atomics
// only. The file is removed when the run ends.

// counterFile creates the counter file of plan p, when it needs one, and
// returns the plan to send the worker processes (naming the file) and a
// function that removes the file.
func counterFile(p *workload.Plan) (workerPlan []byte, remove func(), err error) {
	remove = func() {}
	if !p.InsertsDuringRun() {
		b, err := json.Marshal(p)
		return b, remove, err
	}
	dir := filepath.Dir(p.Store.Path)
	if p.Store.Path == "" {
		dir = ""
	}
	f, err := os.CreateTemp(dir, ".gobench-counter-*")
	if err != nil {
		return nil, remove, fmt.Errorf("creating the run's insert counter: %w", err)
	}
	remove = func() { os.Remove(f.Name()) }
	mem := make([]byte, generator.CounterSize)
	err = generator.InitCounter(mem, p.Records.RecordCount)
	if err == nil {
		_, err = f.Write(mem)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		return nil, func() {}, fmt.Errorf("writing the run's insert counter %s: %w", f.Name(), err)
	}
	wp := *p
	r := *p.Records
	r.Counter = f.Name()
	wp.Records = &r
	b, err := json.Marshal(&wp)
	return b, remove, err
}

// openCounter maps the counter file a worker process's plan names, or
// returns nil when it names none. unmap releases the mapping.
func openCounter(p *workload.Plan) (c *generator.Counter, unmap func(), err error) {
	unmap = func() {}
	if p.Records == nil || p.Records.Counter == "" {
		return nil, unmap, nil
	}
	mem, unmap, err := mapShared(p.Records.Counter, generator.CounterSize)
	if err != nil {
		return nil, func() {}, fmt.Errorf("mapping the run's insert counter: %w", err)
	}
	if c, err = generator.OpenCounter(mem); err != nil {
		unmap()
		return nil, func() {}, fmt.Errorf("the run's insert counter %s: %w", p.Records.Counter, err)
	}
	return c, unmap, nil
}
