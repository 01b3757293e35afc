package choose

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Workload is what every candidate runs: a mix or roles (Mix), YCSB's
// core workload (YCSB), SQL scripts (SQL) or a captured trace (Replay).
// Each is a preset's spec, which makes its plans as its own command does;
// choose gives it one driver at one setting and one layout of workers.
type Workload interface {
	// Plan returns the workload's one cell over m (one driver, its
	// engine's settings, choose's workers in one process) for loop: its
	// run's length and, for a power-cut run, its crash.
	Plan(m preset.Matrix, loop preset.Loop) (*workload.Plan, error)
	// Name names the workload for the answer's header, from one of its
	// plans: "YCSB A, 1,000 records · …".
	Name(p *workload.Plan) string
	// Drivers are the only drivers that can run it, and why no other can
	// (nil: any driver may; its plans' checks refuse those that cannot).
	Drivers() (only []string, why string)
	// Timed reports whether the loop's duration sets a run's length (a
	// replay plays its whole trace each run).
	Timed() bool
}

// Mix is gobench mix's workload: a mix of key-value ops over preloaded
// keys, or roles with mixes of their own.
type Mix struct{ Spec preset.MixSpec }

// Plan returns the mix's one cell; roles set its workers.
func (w Mix) Plan(m preset.Matrix, loop preset.Loop) (*workload.Plan, error) {
	s := w.Spec
	s.Loop = loop
	if len(s.Roles) > 0 {
		// The roles' workers are goroutines of the one process cellPlan
		// gives every candidate: bbolt, pebble and badger allow one.
		m.Goroutines = store.List{strconv.Itoa(s.Roles.Workers())}
	}
	return oneCell(s.Plans(m))
}

// Name is the roles, as "writer 3 × append=100, reader 1 × read=100",
// then the plan's keys, values and run; or the plan's mix. Where a mix
// scans, the keys a scan reads end it (" · scans of 100 keys").
func (w Mix) Name(p *workload.Plan) string {
	if len(w.Spec.Roles) == 0 {
		return p.Describe(false) + scanLength(p)
	}
	roles := make([]string, len(w.Spec.Roles))
	for i, r := range w.Spec.Roles {
		roles[i] = fmt.Sprintf("%s %d × %s", r.Name, r.Workers, r.Mix)
		if r.Rate > 0 {
			roles[i] += "@" + strconv.FormatFloat(r.Rate, 'f', -1, 64)
		}
	}
	p0 := *p
	p0.Roles = nil
	desc, _, _ := strings.Cut(p0.Describe(false), " · mix ")
	return "roles " + strings.Join(roles, ", ") + " · " + desc + scanLength(p)
}

// scanLength names the keys a scan reads (" · scans of 100 keys") where
// p's mix or a role's scans; "" where none does.
func scanLength(p *workload.Plan) string {
	for _, ph := range p.Phases {
		if ph.Mix.Share(workload.OpScan) > 0 {
			return fmt.Sprintf(" · scans of %d keys", p.ScanLen())
		}
	}
	for _, r := range p.Roles {
		if r.Mix.Share(workload.OpScan) > 0 {
			return fmt.Sprintf(" · scans of %d keys", p.ScanLen())
		}
	}
	return ""
}

// Drivers is any: every engine runs key-value ops.
func (Mix) Drivers() ([]string, string) { return nil, "" }

// Timed is true: each worker runs for the loop's duration.
func (Mix) Timed() bool { return true }

// YCSB is gobench ycsb run's workload: YCSB's core workload as its
// properties say (threadcount its workers), the records loaded first.
// Label names it: a canonical workload's letter ("A") or a property
// file's name.
type YCSB struct {
	Spec  preset.YCSBSpec
	Label string
}

// Plan returns the workload's one cell: threadcount goroutines of one
// process.
func (w YCSB) Plan(m preset.Matrix, loop preset.Loop) (*workload.Plan, error) {
	s := w.Spec
	s.Loop = loop
	given := m.Given
	m.Given = func(flag string) bool { return flag == "procs" || given != nil && given(flag) }
	return oneCell(s.Plans(m))
}

// Name is "YCSB A, 1,000 records zipfian" and the plan's values, run and
// mix.
func (w YCSB) Name(p *workload.Plan) string {
	n := uint64(0)
	if p.Records != nil {
		n = p.Records.RecordCount
	}
	// The plan's description begins with its keys: the records, said.
	_, rest, _ := strings.Cut(p.Describe(false), " · ")
	return fmt.Sprintf("YCSB %s, %s records %s · %s", w.Label, thousands(n), p.Keys.Distribution, rest)
}

// Drivers is any that keeps record tables (in key order, where the
// workload scans): the plans' checks refuse the others, saying why.
func (YCSB) Drivers() ([]string, string) { return nil, "" }

// Timed is true: each worker runs for the loop's duration.
func (YCSB) Timed() bool { return true }

// SQL is gobench sql's workload: the user's weighted scripts (or a
// built-in), its schema run first.
type SQL struct{ Spec preset.SQLSpec }

// Plan returns the scripts' one cell.
func (w SQL) Plan(m preset.Matrix, loop preset.Loop) (*workload.Plan, error) {
	s := w.Spec
	s.Loop = loop
	return oneCell(s.Plans(m))
}

// Name is "script x.sql" (or "scripts a.sql@1, b.sql@3", "builtin
// tpcb-like"), its schema, and the plan's scale and run.
func (w SQL) Name(p *workload.Plan) string {
	var files []string
	for _, f := range w.Spec.Scripts {
		name := filepath.Base(f.File)
		if len(w.Spec.Scripts) > 1 {
			name += "@" + strconv.Itoa(f.Weight)
		}
		files = append(files, name)
	}
	lead := "script " + strings.Join(files, ", ")
	switch {
	case w.Spec.Builtin != "":
		lead = "builtin " + w.Spec.Builtin
	case len(files) > 1:
		lead = "scripts " + strings.Join(files, ", ")
	}
	if w.Spec.Schema != nil {
		lead += " · schema " + filepath.Base(w.Spec.Schema.File)
	}
	// The plan's description names the scripts again: its scale and run.
	_, rest, _ := strings.Cut(p.Describe(false), " · ")
	return lead + " · " + rest
}

// Drivers are the SQLite drivers: no other engine runs SQL.
func (SQL) Drivers() ([]string, string) {
	return sqliteDrivers, "SQL scripts run on the SQLite drivers only"
}

// Timed is true: each worker runs for the loop's duration.
func (SQL) Timed() bool { return true }

// Replay is gobench replay's workload: a captured trace, its
// connections replayed on as many workers, back to back.
type Replay struct{ Spec preset.ReplaySpec }

// Plan returns the replay's cell at m's settings: each captured
// connection a goroutine of one process, the power cuts of loop's crash;
// the trace sets its length. Where m's settings differ from the
// application's own, Spec.Plans puts the cell as captured first: the
// cell returned is the last, at m's settings (those the candidate does
// not set taken from the application's, as replay does), marked given.
func (w Replay) Plan(m preset.Matrix, loop preset.Loop) (*workload.Plan, error) {
	s := w.Spec
	s.Plan.Crash = loop.Crash
	m.Procs, m.Goroutines = []string{"0"}, []string{"1"}
	cells, err := s.Plans(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Options.Trace, err)
	}
	// The candidate's cell, whether or not it is the application's: its
	// settings are the candidate's, given.
	p := *cells[len(cells)-1]
	r := *p.Replay
	r.AsCaptured = false
	p.Replay = &r
	return &p, nil
}

// Name is "trace app.trace, 503 statements" and the order they race or
// commit in.
func (w Replay) Name(p *workload.Plan) string {
	var n int64
	order := w.Spec.Options.Order
	if r := p.Replay; r != nil {
		n, order = r.Statements, r.Order
	}
	return fmt.Sprintf("trace %s, %s statements · %s order", filepath.Base(w.Spec.Options.Trace), thousands(uint64(max(n, 0))), order)
}

// Drivers are the SQLite drivers: a trace is SQLite's statements.
func (Replay) Drivers() ([]string, string) {
	return sqliteDrivers, "a trace replays SQLite's statements, on the SQLite drivers only"
}

// Timed is false: each run replays the whole trace.
func (Replay) Timed() bool { return false }

// oneCell returns the one plan of plans.
func oneCell(plans []*workload.Plan, err error) (*workload.Plan, error) {
	if err != nil {
		return nil, err
	}
	if len(plans) != 1 {
		return nil, fmt.Errorf("%d cells, want 1 (choose runs one cell per candidate: give no alternatives)", len(plans))
	}
	return plans[0], nil
}

// thousands writes n with a comma between each three digits: 1,000.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
