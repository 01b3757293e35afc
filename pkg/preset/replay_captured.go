package preset

import (
	"bytes"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// asCaptured puts first the cell as the application ran: the first
// cell's driver and workers, with the settings the trace's PRAGMAs set
// (workload.ReplayCaptured.CellValues), and the default of each of those
// settings the application did not set, even where the flags gave one
// (the application ran on its own defaults, not on --journal wal). Every
// cell of the matrix takes the captured values too, for each setting
// whose flag was not given: the matrix varies from the application's
// settings, not from gobench's defaults. A cell of the matrix that is the
// cell as captured runs once, as it.
func asCaptured(m Matrix, cells []*workload.Plan) ([]*workload.Plan, error) {
	given := m.Given
	if given == nil {
		given = func(string) bool { return false }
	}
	values := cells[0].Replay.Captured.CellValues()
	own := map[string]string{}
	for _, flag := range workload.CapturedFlags {
		if _, set := values[flag]; !set && given(flag) && m.Default != nil {
			if d, ok := m.Default(flag); ok {
				own[flag] = d
			}
		}
	}
	for flag, v := range values {
		own[flag] = v
	}
	first, err := overrideCell(m, cells[0], own)
	if err != nil {
		return nil, err
	}
	r := *first.Replay
	r.AsCaptured = true
	first.Replay = &r
	rest := map[string]string{}
	for flag, v := range values {
		if !given(flag) {
			rest[flag] = v
		}
	}
	out := []*workload.Plan{first}
	for _, c := range cells {
		p, err := overrideCell(m, c, rest)
		if err != nil {
			return nil, err
		}
		if !sameCell(p, first) {
			out = append(out, p)
		}
	}
	return out, nil
}

// overrideCell returns a copy of p whose engine settings take values (by
// flag), where its engine can take them (store.Overrider: every engine
// whose options are declared).
func overrideCell(m Matrix, p *workload.Plan, values map[string]string) (*workload.Plan, error) {
	q := *p
	o, ok := m.Engines.Of(p.Driver).(store.Overrider)
	if len(values) == 0 || !ok {
		return &q, nil
	}
	c, err := o.Override(p.Store.Options, values, m.Want())
	if err != nil {
		return nil, fmt.Errorf("the application's settings, as captured: %w", err)
	}
	q.Store.Options = c.Options
	if c.RetryBudget > 0 {
		q.BusyBudget = workload.Duration(c.RetryBudget)
	}
	if q.Store.Settings, err = m.Registry.NameOptions(q.Driver, q.Store.Options); err != nil {
		return nil, err
	}
	return &q, q.Validate()
}

// sameCell reports whether two cells of a replay run alike: the same
// driver, workers and engine settings.
func sameCell(a, b *workload.Plan) bool {
	return a.Driver == b.Driver && a.Mode == b.Mode && a.Procs == b.Procs && a.Goroutines == b.Goroutines &&
		a.Replay.Procs == b.Replay.Procs && bytes.Equal(a.Store.Options, b.Store.Options)
}
