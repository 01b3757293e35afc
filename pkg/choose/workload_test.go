package choose

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/sqltrace/tracetest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// kinds returns one workload of each kind, by name, each with what its
// plans must carry.
func kinds(t *testing.T) []struct {
	name  string
	w     Workload
	check func(*workload.Plan) bool
	title string
} {
	roles := preset.DefaultMixSpec()
	for _, r := range []string{"writer:3:append=100", "reader:1:read=100@500"} {
		if err := roles.Roles.Set(r); err != nil {
			t.Fatal(err)
		}
	}
	ycsb := preset.DefaultYCSBSpec()
	props, _ := preset.CanonicalYCSB("a")
	if err := ycsb.SetProperties(append(props, preset.Property{Name: "threadcount", Value: "2", Origin: "test"})); err != nil {
		t.Fatal(err)
	}
	sql := preset.DefaultSQLSpec()
	sql.Scripts = []workload.SQLFile{workload.NewSQLFile("/x/ins.sql", "INSERT INTO t(v) VALUES (1);\n", 1)}
	sql.Schema = &workload.SQLFile{File: "/x/schema.sql", Text: "CREATE TABLE t(id INTEGER PRIMARY KEY, v INT);\n"}
	trace := tracetest.Write(t, "CREATE TABLE t(v)", "INSERT INTO t VALUES (1)", "SELECT v FROM t")
	replay := preset.DefaultReplaySpec()
	replay.Open = func() (io.ReadCloser, error) { return os.Open(trace) }
	replay.Options.Trace = trace
	return []struct {
		name  string
		w     Workload
		check func(*workload.Plan) bool
		title string
	}{
		{"mix", Mix{Spec: preset.DefaultMixSpec()}, func(p *workload.Plan) bool { return p.Goroutines == 2 && p.Verify == (p.Crash != nil) }, "mix read=95,upsert=5"},
		{"roles", Mix{Spec: roles}, func(p *workload.Plan) bool { return len(p.Roles) == 2 && p.Workers() == 4 }, "roles writer 3 × append=100, reader 1 × read=100@500 · 10000 keys"},
		{"ycsb", YCSB{Spec: ycsb, Label: "A"}, func(p *workload.Plan) bool { return p.Records != nil && p.Procs == 1 && p.Goroutines == 2 }, "YCSB A, 1,000 records zipfian · 1000-byte values · "},
		{"sql", SQL{Spec: sql}, func(p *workload.Plan) bool { return p.SQL != nil && p.Goroutines == 2 }, "script ins.sql · schema schema.sql · scale 1"},
		{"trace", Replay{Spec: replay}, func(p *workload.Plan) bool { return p.Replay != nil && !p.Replay.AsCaptured }, "trace app.trace, 3 statements · race order"},
	}
}

// Each kind of workload makes one plan per candidate, and under
// KeepAcked one power-cut plan each, of its own kind; SQL scripts and a
// trace keep the SQLite drivers alone as candidates and say so in one
// line for every other engine; the answer names the workload.
func TestBuildKinds(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	if _, err := reg.Lookup("mattn"); err != nil {
		t.Skip("a build without cgo lacks mattn")
	}
	for _, tt := range kinds(t) {
		t.Run(tt.name, func(t *testing.T) {
			spec := Spec{Workload: tt.w, Keep: KeepAcked, Budget: 10 * time.Minute, Workers: 2, Drivers: []string{"mattn", "bbolt", "pebble"}}
			p, err := Build(spec, reg)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"mattn", "mattn", "bbolt", "bbolt", "pebble", "pebble"}
			line := "bbolt, pebble: "
			if tt.name == "sql" || tt.name == "trace" {
				want = want[:2]
			}
			var drivers []string
			for i, c := range p.Candidates {
				drivers = append(drivers, c.Driver)
				sp, cr := p.Speed[i], p.Crash[i]
				if sp.Driver != c.Driver || sp.Crash != nil || !tt.check(sp) {
					t.Errorf("%s: speed plan %+v", c.Name(), sp)
				}
				if cr == nil || cr.Crash == nil || cr.Crash.States != p.Size.Cuts || !tt.check(cr) {
					t.Errorf("%s: power-cut plan %+v", c.Name(), cr)
				}
			}
			if !slices.Equal(drivers, want) {
				t.Errorf("candidates %q, want %q", drivers, want)
			}
			var lines []string
			for _, l := range p.NotMeasured {
				if strings.HasPrefix(l, line) || strings.Contains(l, "SQLite drivers only") {
					lines = append(lines, l)
				}
			}
			if restricted := len(want) == 2; restricted != (len(lines) == 1) || restricted && !strings.HasPrefix(lines[0], line) || !restricted && len(lines) > 0 {
				t.Errorf("not measured %q", lines)
			}
			if !strings.Contains(p.Workload, tt.title) {
				t.Errorf("workload %q, want it to hold %q", p.Workload, tt.title)
			}
			if c := Rank(p, Measured{}); c.Workload != p.Workload {
				t.Errorf("the answer's workload %q, want %q", c.Workload, p.Workload)
			}
		})
	}
}

// refusing is a mix that a driver's checks refuse on some drivers
// (store.ErrInvalid, as a YCSB workload's scans on unordered tables),
// and refuses whatever the driver where broken.
type refusing struct {
	Mix
	drivers []string
	broken  bool
}

func (w refusing) Plan(m preset.Matrix, loop preset.Loop) (*workload.Plan, error) {
	switch {
	case w.broken:
		return nil, errors.New("the workload is broken")
	case slices.Contains(w.drivers, m.Drivers[0]):
		return nil, fmt.Errorf("--driver %s: %w: driver %s keeps keys in no order", m.Drivers[0], store.ErrInvalid, m.Drivers[0])
	}
	return w.Mix.Plan(m, loop)
}

// A candidate the workload's checks refuse is left out and said not
// measured, a line per reason naming its driver, not failing the
// command; a workload every candidate refuses, or one broken whatever
// the driver, fails it.
func TestBuildRefused(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	mix := Mix{Spec: preset.DefaultMixSpec()}
	for _, tt := range []struct {
		name  string
		w     refusing
		cands []string
		line  string
		err   string
	}{
		{name: "bbolt refused", w: refusing{Mix: mix, drivers: []string{"bbolt"}}, cands: []string{"pebble sync=full", "pebble sync=full profile=tool"},
			line: "bbolt: driver bbolt keeps keys in no order"},
		{name: "all refused", w: refusing{Mix: mix, drivers: []string{"bbolt", "pebble"}}, err: "no candidate can run the workload: bbolt: driver bbolt keeps keys in no order; pebble: driver pebble keeps keys in no order"},
		{name: "broken", w: refusing{Mix: mix, broken: true}, err: "the workload is broken"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Build(Spec{Workload: tt.w, Keep: KeepAcked, Budget: 10 * time.Minute, Workers: 2, Drivers: []string{"bbolt", "pebble"}}, reg)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("%v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(p.Candidates), tt.cands) || len(p.Speed) != len(tt.cands) {
				t.Errorf("candidates %q, want %q", names(p.Candidates), tt.cands)
			}
			if !slices.Contains(p.NotMeasured, tt.line) {
				t.Errorf("not measured %q, want %q", p.NotMeasured, tt.line)
			}
		})
	}
}

// The workloads' names: counts with their thousands apart.
func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

// A mix's or a role's scans name the keys each reads in the workload's
// name (--scan-length's, else the default); a mix that scans not, not.
func TestMixNameScanLength(t *testing.T) {
	t.Parallel()
	mix := func(s string) workload.Mix {
		m, err := workload.ParseMix(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tt := range []struct {
		name       string
		phase      string
		roles      []workload.Role
		scanLength int
		want       string
	}{
		{"mix, given", "read=90,scan=10", nil, 10, " · scans of 10 keys"},
		{"mix, default", "read=90,scan=10", nil, 0, fmt.Sprintf(" · scans of %d keys", workload.ScanLength)},
		{"mix, no scan", "read=90,upsert=10", nil, 0, ""},
		{"role scans", "read=100", []workload.Role{{Name: "w", Workers: 1, Mix: mix("upsert=100")}, {Name: "s", Workers: 1, Mix: mix("scan=100")}}, 7, " · scans of 7 keys"},
	} {
		p := &workload.Plan{Phases: []workload.Phase{{Mix: mix(tt.phase)}}, Roles: tt.roles, ScanLength: tt.scanLength}
		var w Mix
		for _, r := range tt.roles {
			w.Spec.Roles = append(w.Spec.Roles, r)
		}
		got := w.Name(p)
		if tt.want == "" && strings.Contains(got, "scans of") || tt.want != "" && !strings.HasSuffix(got, tt.want) {
			t.Errorf("%s: %q, want it to end %q", tt.name, got, tt.want)
		}
	}
}
