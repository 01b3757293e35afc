package workload_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
	"github.com/spf13/pflag"
)

// span parses args as a command line binding the matrix and every
// engine's settings, and spans the default plan.
func span(t *testing.T, args ...string) ([]*workload.Plan, error) {
	t.Helper()
	reg := all.Registry()
	m := workload.Matrix{Drivers: store.List{"modernc"}, Modes: store.List{workload.ModeGoroutine}, Procs: store.List{"1"},
		Goroutines: store.List{"1"}, Batches: store.List{"1"}, Busy: workload.BusyTimeout}
	es := reg.Settings()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.Var(&m.Drivers, "driver", "")
	fs.Var(&m.Modes, "mode", "")
	fs.Var(&m.Procs, "procs", "")
	fs.StringVar(&m.Busy, "busy", m.Busy, "")
	fs.BoolVar(&m.Memory, "memory", false, "")
	es.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := es.Check(fs.Changed, m.Drivers); err != nil {
		return nil, err
	}
	tmpl := workload.DefaultPlan()
	tmpl.Store.Path = "x.db"
	return m.Plans(&tmpl, reg, es, func(p *workload.Plan, n int) { p.Phases[0].Batch = n })
}

func options(t *testing.T, p *workload.Plan) sqlite.Options {
	t.Helper()
	o, err := sqlite.DecodeOptions(p.Store.Options)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// Every combination is a cell, in order: drivers, then modes and layouts,
// then each engine's own lists; checkpoints apply to WAL cells only.
func TestMatrixCells(t *testing.T) {
	t.Parallel()
	plans, err := span(t, "--driver", "modernc,null", "--procs", "1,2", "--journal", "rollback,wal", "--checkpoint", "auto,off")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range plans {
		s := p.Driver + "/" + string(rune('0'+p.Procs))
		if p.Driver == "modernc" {
			o := options(t, p)
			s += "/" + o.Journal + "/" + string(o.Checkpoint)
		}
		got = append(got, s)
	}
	want := "modernc/1/rollback/ modernc/1/wal/auto modernc/1/wal/off modernc/2/rollback/ modernc/2/wal/auto modernc/2/wal/off null/1 null/2"
	if strings.Join(got, " ") != want {
		t.Errorf("cells\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

// Under the retry policy SQLite fails at once and its busy timeout is how
// long the worker retries; an engine without one retries for the default.
func TestMatrixRetry(t *testing.T) {
	t.Parallel()
	plans, err := span(t, "--driver", "modernc,null", "--busy", "retry", "--busy-timeout", "2s")
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 2 {
		t.Fatalf("%d plans", len(plans))
	}
	if o := options(t, plans[0]); o.BusyTimeoutMS != 0 || plans[0].Busy != workload.BusyRetry || time.Duration(plans[0].BusyBudget) != 2*time.Second {
		t.Errorf("SQLite cell: busy_timeout %d, policy %s, budget %v", o.BusyTimeoutMS, plans[0].Busy, plans[0].BusyBudget)
	}
	if time.Duration(plans[1].BusyBudget) != workload.DefaultBusyBudget {
		t.Errorf("null cell: budget %v", plans[1].BusyBudget)
	}
}

// What a matrix cannot run is refused, naming why.
func TestMatrixRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--driver", "null", "--journal", "wal"}, "--journal applies to the SQLite drivers, not to null"},
		{[]string{"--driver", "map", "--mode", "process"}, "driver map allows one process at a time (its data lives in one process's memory)"},
		{[]string{"--memory", "--mode", "process"}, "--storage memory keeps each database in one process's memory"},
		{[]string{"--driver", "files", "--memory"}, "the files engine has no in-memory mode"},
		{[]string{"--busy", "sometimes"}, `--busy "sometimes"`},
		{[]string{"--busy", "retry", "--busy-timeout", "0s"}, "give it a positive duration"},
		{[]string{"--journal", "rollback", "--checkpoint", "off"}, "--checkpoint applies to --journal wal"},
		{[]string{"--procs", "two"}, `"two" is not a whole number`},
		{[]string{"--driver", "oracle"}, `unknown driver "oracle"`},
	} {
		if _, err := span(t, tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.want)
		}
	}
}

// --sqlite-version on a driver carrying its own SQLite spans its cell
// at that version, as it is (beside the cgo drivers built at it), and
// refuses another before any cell runs.
func TestMatrixSQLiteVersion(t *testing.T) {
	t.Parallel()
	v, err := sqlite.Modernc().EngineVersion()
	if err != nil {
		t.Fatal(err)
	}
	own := strings.TrimPrefix(v, "SQLite ")
	other := ""
	for _, o := range sqlite.SQLiteVersions() {
		if o != own {
			other = o
		}
	}
	for _, tt := range []struct {
		version, err string
	}{
		{own, ""},
		{other, "modernc carries SQLite " + own + " and runs no other"},
	} {
		plans, err := span(t, "--driver", "modernc,null", "--sqlite-version", tt.version)
		switch {
		case tt.err == "" && (err != nil || len(plans) != 2):
			t.Errorf("--sqlite-version %s: %d cells, %v; want 2", tt.version, len(plans), err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("--sqlite-version %s: %d cells, %v; want an error containing %q", tt.version, len(plans), err, tt.err)
		}
	}
}

// A comma list refuses empty items and repeats.
func TestList(t *testing.T) {
	t.Parallel()
	var l store.List
	if err := l.Set("wal, rollback"); err != nil || l.String() != "wal,rollback" {
		t.Errorf("%v %v", l, err)
	}
	for _, bad := range []string{"wal,,rollback", "wal,wal", ""} {
		if err := l.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A run that names no worker mode runs the workers of drivers that allow
// one process as goroutines; beside drivers shared by processes it is
// refused, as its cells would differ in mode unasked.
func TestMatrixAutoMode(t *testing.T) {
	t.Parallel()
	plans := func(drivers ...string) ([]*workload.Plan, error) {
		m := workload.Matrix{Drivers: drivers, Modes: store.List{workload.ModeProcess}, Procs: store.List{"4"},
			Goroutines: store.List{"1"}, Batches: store.List{"1"}, Busy: workload.BusyTimeout, AutoMode: true}
		reg := all.Registry()
		tmpl := workload.DefaultPlan()
		tmpl.Store.Path = "x.db"
		return m.Plans(&tmpl, reg, reg.Settings(), func(p *workload.Plan, n int) { p.Phases[0].Batch = n })
	}
	for _, tt := range []struct {
		drivers []string
		mode    string
	}{
		{[]string{"map", "btree"}, workload.ModeGoroutine},
		{[]string{"modernc", "null"}, workload.ModeProcess},
	} {
		ps, err := plans(tt.drivers...)
		if err != nil {
			t.Fatalf("%v: %v", tt.drivers, err)
		}
		for _, p := range ps {
			if p.Mode != tt.mode || p.Workers() != 4 {
				t.Errorf("%s: mode %s with %d workers, want %s with 4", p.Driver, p.Mode, p.Workers(), tt.mode)
			}
		}
	}
	_, err := plans("map", "modernc")
	if want := "--driver map,modernc: map allows one process only, so map's workers would run as goroutines and modernc's as processes: give --mode goroutine"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("map beside modernc: %v, want %q", err, want)
	}
}
