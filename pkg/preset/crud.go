package preset

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// CRUDSpec is the classic embedded-database benchmark per engine and row
// count: insert every row, query and update every row Rounds times, scan
// them in key order, delete them.
type CRUDSpec struct {
	// Plan is the template of every cell: seed, value size, error policy.
	Plan workload.Plan
	// Rows are the row counts, a row of the table per engine each.
	Rows []uint64
	// Rounds of the query phase and of the update phase (1 to 100).
	Rounds int
	// Order is the key order of every phase: workload.OrderRandom or
	// OrderSequential.
	Order string
	// Memory keeps every database in the memory of one process.
	Memory bool
	// Baseline is the driver every row's factors compare against ("" for
	// the first driver).
	Baseline string
}

// DefaultCRUDSpec returns 10,000 rows, 3 rounds, random order.
func DefaultCRUDSpec() CRUDSpec {
	p := workload.DefaultPlan()
	p.Preload = 0
	return CRUDSpec{Plan: p, Rows: []uint64{10_000}, Rounds: 3, Order: workload.OrderRandom}
}

// Shape is a scaling table.
func (CRUDSpec) Shape() result.Shape { return result.ShapeScaling }

// Validate checks the spec's own settings.
func (s CRUDSpec) Validate() error {
	if s.Rounds < 1 || s.Rounds > 100 {
		return fmt.Errorf("--rounds %d: want 1 to 100", s.Rounds)
	}
	if s.Order != workload.OrderRandom && s.Order != workload.OrderSequential {
		return fmt.Errorf("--order %q: want random or sequential", s.Order)
	}
	if len(s.Rows) == 0 {
		return errors.New("--rows: want at least one row count")
	}
	return nil
}

// Plans returns one plan per row count and cell of m; drivers whose
// connections have no transactions write one op at a time.
func (s CRUDSpec) Plans(m Matrix) ([]*workload.Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Baseline != "" && !slices.Contains(m.Drivers, s.Baseline) {
		return nil, fmt.Errorf("--baseline %s is not one of the --driver values (%s)", s.Baseline, m.Drivers.String())
	}
	m.Memory = m.Memory || s.Memory
	var cells []*workload.Plan
	for _, n := range s.Rows {
		tmpl := s.Plan
		tmpl.Store.Path = temporary
		tmpl.Keys.Count = n
		tmpl.Phases = workload.CRUD(s.Rounds, s.Order, 1, true)
		c, err := m.plans(&tmpl, workload.SetWriteBatch)
		if err != nil {
			return nil, err
		}
		cells = append(cells, c...)
	}
	return cells, workload.FitWriteBatches(cells, m.Registry)
}

// Reference is the baseline driver.
func (s CRUDSpec) Reference() string { return s.Baseline }
