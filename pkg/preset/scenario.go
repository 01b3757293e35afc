package preset

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Scenario is one of SQLite's concurrency pitfalls as a ready experiment:
// cells (Cases) that contrast the pitfall with its fix, gates (Expect)
// that pass when the pitfall shows and the fix removes it, and a finding
// in plain words with the figures measured. It is data: the catalog
// (Scenarios) lists every one, and ScenarioSpec turns one into plans.
type Scenario struct {
	// Name names it on the command line: "deferred-begin".
	Name string
	// Title says in a line what it shows.
	Title string
	// Takes is about how long it runs with its defaults on a 2-core
	// machine, for the list.
	Takes time.Duration
	// Doc is the SQLite documentation page that explains the pitfall.
	Doc string
	// About explains the pitfall and its fix, for help and docs.
	About string
	// Plan is the template of every cell: seed, the measured phase's ops,
	// the workload the cases share (SQL, keys); each case may replace its
	// SQL.
	Plan workload.Plan
	// Procs is the default worker processes (--procs replaces it);
	// MinProcs the fewest with which the pitfall can show.
	Procs, MinProcs int
	// Named says the scenario runs only when named, not in "all": it
	// builds a SQLite of its own, which needs gobench's source and the go
	// command, and takes minutes.
	Named bool
	// MoreProcs are further worker process counts the scenario runs each
	// case at by default, after Procs (--procs replaces them all).
	MoreProcs []int
	// Settings are engine settings by flag name, defaults a command line
	// may change ("sync": "normal").
	Settings map[string]string
	// Cases are the cells, each the pitfall, the fix, or a point between.
	Cases []Case
	// Expect are the gates, as --expect reads them, that together say the
	// pitfall was reproduced: it shows where it should, and the fix
	// removes it.
	Expect []string
	// Finding is the finding's template: plain words with the figures
	// measured, each written {FIGURE@CELLS} (a figure as a gate names it,
	// and a cell selector), replaced by the median of the cell's runs.
	Finding string
}

// Case is one cell of a scenario.
type Case struct {
	// Name names the case as the variant setting (Plan.Variant), by which
	// gates select it: "deferred", "immediate".
	Name string
	// Fix says this case is the fix (the pitfall removed); Pitfall the
	// pitfall; neither, a point between.
	Fix, Pitfall bool
	// Settings are engine settings by flag name that make the case
	// ("journal": "wal"); a command line giving one of these flags is
	// refused.
	Settings map[string]string
	// Busy, when set, is the case's lock policy (workload.BusyTimeout or
	// BusyRetry); a command line's --busy is then refused.
	Busy string
	// SQL, when set, is the case's own workload instead of the
	// scenario's.
	SQL *workload.SQL
	// ConnPerOp opens a connection for every op (workload.Plan.ConnPerOp).
	ConnPerOp bool
}

// ScenarioSpec is a scenario as a command line runs it: the scenario's
// defaults with what the flags change.
type ScenarioSpec struct {
	Scenario *Scenario
	// Loop is the run length (Duration), warm-up and power cuts; Queries,
	// when positive, the ops per worker.
	Loop    Loop
	Queries int64
	// Seed, when not zero, replaces the scenario's seed.
	Seed uint64
	// Engine holds the engine flags the command line gave, by name, with
	// their values as the flags read them ("sync": "normal,full").
	Engine map[string]string
	// Swap runs the fix's workload and settings in the pitfall's cells,
	// under the pitfall's names: a check that the gates can fail, which
	// must then say "not reproduced".
	Swap bool
}

// Shape is a matrix: the cases, times what the matrix flags list.
func (ScenarioSpec) Shape() result.Shape { return result.ShapeMatrix }

// Reference is none: a matrix compares against a baseline cell.
func (ScenarioSpec) Reference() string { return "" }

// Plans returns the cells of the scenario: each case's over the matrix
// m (drivers, worker layouts; the engine settings the command line
// gave, with the case's own), in the order of the cases.
func (s ScenarioSpec) Plans(m Matrix) ([]*workload.Plan, error) {
	sc := s.Scenario
	given := m.Given
	if given == nil {
		given = func(string) bool { return false }
	}
	if given("procs") {
		for _, v := range m.Procs {
			if n, err := strconv.Atoi(v); err == nil && n < sc.MinProcs {
				return nil, fmt.Errorf("--procs %s: scenario %s needs %d worker processes or more for its pitfall to show", v, sc.Name, sc.MinProcs)
			}
		}
	} else {
		m.Procs = store.List{fmt.Sprint(sc.Procs)}
		for _, n := range sc.MoreProcs {
			m.Procs = append(m.Procs, fmt.Sprint(n))
		}
	}
	fix := sc.fixCase()
	var out []*workload.Plan
	for _, c := range sc.Cases {
		run := c
		if s.Swap && c.Pitfall {
			run = fix
			run.Name = c.Name
		}
		cells, err := s.caseCells(m, run)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		out = append(out, cells...)
	}
	return out, nil
}

// caseCells returns the cells of one case over m.
func (s ScenarioSpec) caseCells(m Matrix, c Case) ([]*workload.Plan, error) {
	sc := s.Scenario
	p := sc.Plan
	p.Scenario, p.Variant = sc.Name, c.Name
	p.Phases = slices.Clone(p.Phases)
	if c.SQL != nil {
		p.SQL = c.SQL
		p.Phases[0].Mix = c.SQL.Mix()
	}
	p.ConnPerOp = c.ConnPerOp
	if s.Seed != 0 {
		p.Seed = s.Seed
	}
	if s.Queries > 0 {
		p.Phases[0].Ops, p.Phases[0].Duration = s.Queries, 0
	}
	p.Store.Path = temporary
	if c.Busy != "" {
		if m.Given != nil && m.Given("busy") && m.Busy != c.Busy {
			return nil, fmt.Errorf("--busy: its cell %s runs the %s policy itself", c.label(), c.Busy)
		}
		m.Busy = c.Busy
	}
	es, err := s.engines(m.Registry, c)
	if err != nil {
		return nil, err
	}
	m.Engines = es
	loop := s.Loop
	if loop.Crash == nil && sc.Plan.Crash != nil {
		loop.Crash = sc.Plan.Crash
	}
	return loop.plans(p, m)
}

// engines returns engine settings bound to flags of their own, set to the
// scenario's defaults, then the command line's values, then the case's.
func (s ScenarioSpec) engines(reg *store.Registry, c Case) (*store.EngineSettings, error) {
	es := reg.Settings()
	fs := pflag.NewFlagSet("scenario", pflag.ContinueOnError)
	es.AddFlags(fs)
	set := func(name, value, from string) error {
		if err := fs.Set(name, value); err != nil {
			return fmt.Errorf("--%s %s (%s): %w", name, value, from, err)
		}
		return nil
	}
	for _, name := range sortedKeys(s.Scenario.Settings) {
		if _, given := s.Engine[name]; !given {
			if err := set(name, s.Scenario.Settings[name], "the scenario's default"); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range sortedKeys(s.Engine) {
		if v, fixed := c.Settings[name]; fixed {
			return nil, fmt.Errorf("--%s: its cell %s sets it to %s itself, as the contrast it shows", name, c.label(), v)
		}
		if err := set(name, s.Engine[name], "given"); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(c.Settings) {
		if err := set(name, c.Settings[name], "the cell's"); err != nil {
			return nil, err
		}
	}
	return es, nil
}

// label names a case in messages.
func (c Case) label() string { return c.Name }

// fixCase returns the scenario's fix.
func (sc *Scenario) fixCase() Case {
	for _, c := range sc.Cases {
		if c.Fix {
			return c
		}
	}
	return Case{}
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// EngineFlags names every flag the engines of reg bind: the flags a
// scenario's cells may set, and a command line may give.
func EngineFlags(reg *store.Registry) []string {
	fs := pflag.NewFlagSet("engines", pflag.ContinueOnError)
	reg.Settings().AddFlags(fs)
	var out []string
	fs.VisitAll(func(f *pflag.Flag) { out = append(out, f.Name) })
	return out
}

// ScenarioNamed returns the scenario of the catalog named name.
func ScenarioNamed(name string) (*Scenario, error) {
	for _, sc := range Scenarios() {
		if sc.Name == name {
			return sc, nil
		}
	}
	return nil, fmt.Errorf("unknown scenario %q (want one of %s, or all)", name, strings.Join(ScenarioNames(), ", "))
}

// ScenarioNames lists the catalog's scenarios by name.
func ScenarioNames() []string {
	var out []string
	for _, sc := range Scenarios() {
		out = append(out, sc.Name)
	}
	return out
}

// Check refuses a scenario the catalog must not hold: no pitfall or no
// fix, no gates, a finding without figures.
func (sc *Scenario) Check() error {
	var pitfall, fix int
	for _, c := range sc.Cases {
		if c.Pitfall {
			pitfall++
		}
		if c.Fix {
			fix++
		}
	}
	switch {
	case slices.ContainsFunc(sc.Cases, func(c Case) bool { return c.Name == "" }):
		return fmt.Errorf("scenario %s: a case has no name", sc.Name)
	case pitfall == 0 || fix != 1:
		return fmt.Errorf("scenario %s: want a pitfall and one fix among its cases", sc.Name)
	case len(sc.Expect) == 0:
		return fmt.Errorf("scenario %s: no gates", sc.Name)
	case !strings.Contains(sc.Finding, "{"):
		return fmt.Errorf("scenario %s: its finding names no figure", sc.Name)
	case sc.Procs < sc.MinProcs || sc.MinProcs < 1:
		return fmt.Errorf("scenario %s: %d procs by default, %d at least", sc.Name, sc.Procs, sc.MinProcs)
	}
	return nil
}
