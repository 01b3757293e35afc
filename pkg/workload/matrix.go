package workload

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Matrix is the settings a run varies, each a comma list: every
// combination of their values, with every option cell of each driver's
// engine (store.Settings), is one cell of the run, one Plan.
type Matrix struct {
	Drivers    store.List
	Modes      store.List
	Procs      store.List
	Goroutines store.List
	Batches    store.List
	// Busy is the lock policy of every cell (BusyTimeout or BusyRetry).
	Busy string
	// Memory keeps every database in memory (engines that cannot refuse).
	Memory bool
	// Pin, when set, pins every cell's processes to CPUs.
	Pin *Pin
	// AutoMode, set when the user named no worker mode, runs the workers
	// of drivers that allow one process (store.ShareProcess) as
	// goroutines of one process; a run of such drivers beside others is
	// then refused, as its cells would differ in worker mode unasked.
	AutoMode bool
}

// DefaultBusyBudget is how long the retry policy retries an op on an
// engine whose settings give no budget of their own.
const DefaultBusyBudget = 5 * time.Second

// MaxCells bounds a matrix: a typo in a list must not build millions of
// plans.
const MaxCells = 1_000_000

// Plans returns one plan per cell: a copy of template with the cell's
// settings, its store options from the engine settings es, and its batch
// applied by setBatch. Drivers are looked up in reg. Every plan is
// validated.
func (m *Matrix) Plans(template *Plan, reg *store.Registry, es *store.EngineSettings, setBatch func(*Plan, int)) ([]*Plan, error) {
	procs, gors, batches, err := m.numbers()
	if err != nil {
		return nil, err
	}
	if n := len(m.Drivers) * len(m.Modes) * len(procs) * len(gors) * len(batches); n > MaxCells {
		return nil, fmt.Errorf("the lists span more than %d cells: split the matrix", MaxCells)
	}
	if m.Busy != BusyTimeout && m.Busy != BusyRetry {
		return nil, fmt.Errorf("--busy %q: want timeout or retry", m.Busy)
	}
	want := m.Want()
	modes, err := m.modes(reg)
	if err != nil {
		return nil, err
	}
	var plans []*Plan
	for _, name := range m.Drivers {
		drv, err := reg.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--driver: %w", err)
		}
		cells, err := es.Cells(name, want)
		if err != nil {
			return nil, err
		}
		for _, mode := range modes {
			if err := m.checkMode(mode); err != nil {
				return nil, err
			}
			for _, base := range m.layouts(template, name, mode, procs, gors, batches, setBatch) {
				for _, c := range cells {
					p := *base
					p.Store.Options = c.Options
					if p.Store.Settings, err = reg.NameOptions(name, c.Options); err != nil {
						return nil, err
					}
					if want.BusyRetry {
						p.Busy, p.BusyBudget = BusyRetry, Duration(DefaultBusyBudget)
						if c.RetryBudget > 0 {
							p.BusyBudget = Duration(c.RetryBudget)
						}
					}
					if err := p.Validate(); err != nil {
						return nil, err
					}
					if err := CheckDriver(&p, drv); err != nil {
						return nil, err
					}
					plans = append(plans, &p)
				}
			}
		}
	}
	return plans, nil
}

// Want returns what the matrix's runs ask of every engine (its busy
// policy, its storage), whatever the engine's own flags say.
func (m *Matrix) Want() store.Want {
	return store.Want{BusyRetry: m.Busy == BusyRetry, Memory: m.Memory}
}

// checkMode refuses a worker mode the run cannot have: worker processes
// for databases in memory. What the driver allows is checked with each
// cell (CheckDriver).
func (m *Matrix) checkMode(mode string) error {
	if mode == ModeProcess && m.Memory {
		return errors.New("--storage memory keeps each database in one process's memory: use --mode goroutine")
	}
	return nil
}

// modes returns the worker modes of the run: m.Modes, or under AutoMode
// goroutines when every driver allows one process only.
func (m *Matrix) modes(reg *store.Registry) (store.List, error) {
	if !m.AutoMode || !slices.Contains(m.Modes, ModeProcess) {
		return m.Modes, nil
	}
	var one, many []string
	for _, name := range m.Drivers {
		drv, err := reg.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--driver: %w", err)
		}
		if store.ShareOf(drv).Sharing >= store.ShareProcess {
			one = append(one, name)
		} else {
			many = append(many, name)
		}
	}
	switch {
	case len(one) == 0:
		return m.Modes, nil
	case len(many) == 0:
		return store.List{ModeGoroutine}, nil
	}
	return nil, fmt.Errorf("--driver %s: %s allow%s one process only, so %s's workers would run as goroutines and %s's as processes: give --mode goroutine to compare them in one mode",
		m.Drivers.String(), strings.Join(one, ", "), plural(len(one) == 1, "s"), strings.Join(one, ", "), strings.Join(many, ", "))
}

// plural returns s when one.
func plural(one bool, s string) string {
	if one {
		return s
	}
	return ""
}

// layouts returns a copy of template per worker layout and batch size.
func (m *Matrix) layouts(template *Plan, driver, mode string, procs, gors, batches []int, setBatch func(*Plan, int)) []*Plan {
	var out []*Plan
	for _, np := range procs {
		for _, ng := range gors {
			for _, nb := range batches {
				p := *template
				p.Driver, p.Mode, p.Procs, p.Goroutines, p.Pin = driver, mode, np, ng, m.Pin
				p.Phases = append([]Phase(nil), template.Phases...)
				setBatch(&p, nb)
				out = append(out, &p)
			}
		}
	}
	return out
}

// numbers parses the lists of whole numbers.
func (m *Matrix) numbers() (procs, gors, batches []int, err error) {
	if procs, err = atoiList("procs", m.Procs); err != nil {
		return nil, nil, nil, err
	}
	if gors, err = atoiList("goroutines", m.Goroutines); err != nil {
		return nil, nil, nil, err
	}
	if batches, err = atoiList("batch", m.Batches); err != nil {
		return nil, nil, nil, err
	}
	return procs, gors, batches, nil
}

// atoiList parses a list of whole numbers given as flag.
func atoiList(flag string, vals store.List) ([]int, error) {
	out := make([]int, len(vals))
	for i, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("--%s: %q is not a whole number", flag, v)
		}
		out[i] = n
	}
	return out, nil
}
