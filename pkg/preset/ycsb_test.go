package preset_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// ycsb returns the spec of a canonical workload (a to f) with the given
// -p overrides, NAME=VALUE.
func ycsb(t *testing.T, name string, load bool, overrides ...string) preset.YCSBSpec {
	t.Helper()
	props, ok := preset.CanonicalYCSB(name)
	if !ok {
		t.Fatalf("no canonical workload %q", name)
	}
	for _, o := range overrides {
		k, v, _ := strings.Cut(o, "=")
		props = append(props, preset.Property{Name: k, Value: v, Origin: "-p"})
	}
	s := preset.DefaultYCSBSpec()
	s.Load, s.Properties = load, props
	return s
}

// onePlan returns the one cell of spec on driver mattn.
func onePlan(t *testing.T, spec preset.YCSBSpec) *workload.Plan {
	t.Helper()
	plans, err := spec.Plans(matrix(store.List{"mattn"}, store.List{"1"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 1 {
		t.Fatalf("%d cells, want 1", len(plans))
	}
	return plans[0]
}

// YCSB's six property files, taken unchanged from its repository, are
// the canonical workloads a to f: each resolves to the same plan, and
// that plan is the workload YCSB's README describes.
func TestYCSBUpstreamFilesAreTheCanonicalWorkloads(t *testing.T) {
	for _, tt := range []struct {
		name, mix string
		dist      workload.Distribution
		maxScan   int
	}{
		{"a", "read=50,update=50", workload.Zipfian, 1000},
		{"b", "read=95,update=5", workload.Zipfian, 1000},
		{"c", "read=100", workload.Zipfian, 1000},
		{"d", "read=95,insert=5", workload.Latest, 1000},
		{"e", "insert=5,scan=95", workload.Zipfian, 100},
		{"f", "read=50,read-modify-write=50", workload.Zipfian, 1000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join("testdata", "ycsb", "workload"+tt.name)
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			props, err := preset.ParseProperties(file, string(text))
			if err != nil {
				t.Fatal(err)
			}
			fromFile := preset.DefaultYCSBSpec()
			fromFile.Properties = props
			if notes, err := fromFile.Notes(); err != nil || len(notes) != 0 {
				t.Errorf("the upstream file has notes %q, %v: every property of it is implemented", notes, err)
			}
			got, want := onePlan(t, fromFile), onePlan(t, ycsb(t, tt.name, false))
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			if string(gj) != string(wj) {
				t.Fatalf("%s resolves to\n%s\nthe canonical %s to\n%s", file, gj, tt.name, wj)
			}
			r := got.Records
			if got.Phases[0].Mix.String() != tt.mix || got.Keys.Distribution != tt.dist || r.MaxScanLength != tt.maxScan ||
				r.RecordCount != 1000 || r.OperationCount != 1000 || !r.ReadAllFields || r.WriteAllFields ||
				got.Store.Table.Fields != 10 || r.FieldLength != 100 || r.Ordered || got.Preload != 1000 {
				t.Errorf("workload %s: mix %s, %s, scans up to %d, %d records, %d ops, %d fields of %d: not YCSB's", tt.name,
					got.Phases[0].Mix, got.Keys.Distribution, r.MaxScanLength, r.RecordCount, r.OperationCount, got.Store.Table.Fields, r.FieldLength)
			}
			if tt.name == "e" && (r.ScanLengthDistribution != workload.LengthUniform || r.ExpectedInserts != 100) {
				t.Errorf("workload e: scan lengths %s, %d expected inserts; want uniform, 1000 × 0.05 × 2", r.ScanLengthDistribution, r.ExpectedInserts)
			}
		})
	}
}

// Java's property syntax, and the lines no property file means, refused
// with the file and the line.
func TestParseProperties(t *testing.T) {
	props, err := preset.ParseProperties("w", "# comment\n! also\n\n  recordcount = 10 \nfieldcount:2\nfieldlength 30\n"+
		"table=user\\\n  table\nreadallfields=\\u0074rue\nempty=\nclef=\\ud834\\udd1e\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range props {
		got = append(got, p.Name+"="+p.Value+"@"+p.Origin)
	}
	want := []string{"recordcount=10@w:4", "fieldcount=2@w:5", "fieldlength=30@w:6", "table=usertable@w:7", "readallfields=true@w:9", "empty=@w:10", "clef=\U0001D11E@w:11"}
	if !slices.Equal(got, want) {
		t.Errorf("parsed %q, want %q", got, want)
	}
	for _, tt := range []struct{ text, err string }{
		{"a=1\nb=\\u00zz\n", "w:2: malformed \\uxxxx"},
		{"a=1\nb=2\\", "w:2: the line ends with a backslash"},
		{"a=1\n=5\n", "w:2: \"=5\" names no property"},
		{"a=\x00", "w: not a property file"},
		{"a=\xff\xfe", "w: not a property file"},
	} {
		if _, err := preset.ParseProperties("w", tt.text); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.err)
		}
	}
}

// A property that would change the workload and that gobench does not
// implement, and settings that do not go together, are refused before
// anything runs, each error naming the property and where it came from.
func TestYCSBRefusals(t *testing.T) {
	for _, tt := range []struct {
		name, workload string
		load           bool
		props          []string
		err            string
	}{
		{"negative count", "a", false, []string{"recordcount=-5"}, "recordcount (-p): -5 is negative"},
		{"no records", "a", false, []string{"recordcount=0"}, "recordcount (-p) is 0"},
		{"no ops", "a", false, []string{"operationcount=0"}, "operationcount (-p) is 0"},
		{"proportions", "a", false, []string{"readproportion=0.6"}, "sum to 1.1, not 1"},
		{"proportion range", "a", false, []string{"readproportion=1.5"}, "readproportion (-p): \"1.5\" is not a proportion"},
		{"too fine a share", "a", false, []string{"readproportion=0.33333333", "updateproportion=0.66666667"}, "exact deck"},
		{"a share too small to deal", "a", false, []string{"readproportion=1e-300", "updateproportion=1"}, "readproportion=1e-300 (-p): gobench deals ops from an exact deck"},
		{"a small share", "a", false, []string{"readproportion=1e-7", "updateproportion=0.9999999"}, "exact deck"},
		{"unknown distribution", "a", false, []string{"requestdistribution=pareto"}, "unknown request distribution \"pareto\""},
		{"sequential", "a", false, []string{"requestdistribution=sequential"}, "\"sequential\" is not implemented"},
		{"histogram", "a", false, []string{"fieldlengthdistribution=histogram"}, "\"histogram\" is not implemented"},
		{"scan lengths", "e", false, []string{"minscanlength=200"}, "minscanlength=200 (-p) is above maxscanlength=100"},
		{"insert range", "a", false, []string{"insertstart=500", "insertcount=600"}, "insertcount=600 (-p): want 1 to recordcount − insertstart (500)"},
		{"bool", "a", false, []string{"readallfields=yes"}, "\"yes\" is neither true nor false"},
		{"other workload", "a", false, []string{"workload=site.ycsb.workloads.TimeSeriesWorkload"}, "is not YCSB's core workload"},
		{"unknown", "a", false, []string{"frobnicate=1"}, "frobnicate (-p): unknown property"},
		{"other op", "a", false, []string{"filterproportion=0.1"}, "a share of an op gobench does not have"},
		{"integrity", "a", false, []string{"dataintegrity=true"}, "dataintegrity (-p): true: checking every read's values is not implemented"},
		{"key length", "a", false, []string{"keylengthdistribution=uniform"}, "keylengthdistribution (-p): uniform: keys are YCSB core's"},
		{"threads", "a", false, []string{"threadcount=2000"}, "operationcount=1000 is less than threadcount=2000"},
		{"load duration", "a", true, nil, "ycsb load inserts its records once"},
		{"table name", "a", false, []string{"table=user table"}, "not a plain SQL name"},
		{"fields", "a", false, []string{"fieldcount=0"}, "fieldcount (-p): 0 is out of range"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := ycsb(t, tt.workload, tt.load, tt.props...)
			if tt.load {
				spec.Loop.Duration = time.Second
			}
			_, err := spec.Plans(matrix(store.List{"mattn"}, store.List{"1"}))
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a message of several lines: %q", err)
			}
		})
	}
}

// Settings of YCSB's client, measurements and bindings, and zero shares
// of ops gobench lacks, cannot change the workload: each is named in a
// note, and the workload runs.
func TestYCSBNotes(t *testing.T) {
	spec := ycsb(t, "b", false, "db=site.ycsb.db.JdbcDBClient", "jdbc.fetchsize=10", "measurementtype=hdrhistogram",
		"filterproportion=0", "dataintegrity=false", "maxscanrate=0", "exportfile=out.txt")
	notes, err := spec.Notes()
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 7 {
		t.Fatalf("%d notes, want one per property:\n%s", len(notes), strings.Join(notes, "\n"))
	}
	for i, name := range []string{"db", "jdbc.fetchsize", "measurementtype", "filterproportion", "dataintegrity", "maxscanrate", "exportfile"} {
		if !strings.HasPrefix(notes[i], name) || !strings.Contains(notes[i], "(-p)") {
			t.Errorf("note %d %q does not name %s and where it came from", i, notes[i], name)
		}
	}
	if _, err := spec.Plans(matrix(store.List{"mattn"}, store.List{"1"})); err != nil {
		t.Errorf("a workload with notes only: %v", err)
	}
}

// threadcount is the workers of every cell; --procs spreads them over
// processes; a load inserts, a run loads first; target is the open
// loop's rate.
func TestYCSBPlans(t *testing.T) {
	run := ycsb(t, "d", false, "threadcount=8", "target=4000", "insertstart=100", "insertcount=900", "operationcount=1001")
	plans, err := run.Plans(matrix(store.List{"mattn", "lmdb"}, store.List{"2", "8"}, "procs"))
	if err != nil {
		t.Fatal(err)
	}
	var layouts []string
	for _, p := range plans {
		layouts = append(layouts, p.Driver+":"+result.PlanSettings(p).String())
		if p.Workers() != 8 || p.Rate != 4000 || p.Preload != 900 || p.Phases[0].Ops != 126 || p.Records.OperationCount != 1001 {
			t.Errorf("cell %s: %d workers, rate %v, preload %d, %d ops/worker; want 8, 4000, 900, 126 (1001 over 8)", result.PlanSettings(p), p.Workers(), p.Rate, p.Preload, p.Phases[0].Ops)
		}
	}
	if len(plans) != 4 || plans[0].Procs != 2 || plans[0].Goroutines != 4 || plans[len(plans)-1].Procs != 8 || plans[len(plans)-1].Goroutines != 1 {
		t.Errorf("cells %v: want procs 2 × 4 goroutines and 8 × 1 for each driver", layouts)
	}
	// Without --procs, a process per worker.
	p := onePlanOf(t, ycsb(t, "a", false, "threadcount=5"), "mattn", false)
	if p.Procs != 5 || p.Goroutines != 1 {
		t.Errorf("default layout %d × %d, want 5 processes of 1", p.Procs, p.Goroutines)
	}
	load := onePlanOf(t, ycsb(t, "a", true, "threadcount=3"), "mattn", false)
	ph := load.Phases[0]
	if load.Preload != 0 || ph.Access != workload.AccessEach || ph.Mix.String() != "insert=100" || ph.Ops != 334 {
		t.Errorf("load: preload %d, %s phase of %s, %d ops/worker; want no preload, each key inserted, 334 (1000 over 3)", load.Preload, ph.Access, ph.Mix, ph.Ops)
	}
	for _, tt := range []struct {
		procs string
		err   string
	}{{"3", "--procs 3 does not divide threadcount=8"}, {"0", "--procs 0 does not divide"}} {
		if _, err := ycsb(t, "a", false, "threadcount=8").Plans(matrix(store.List{"mattn"}, store.List{tt.procs}, "procs")); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("--procs %s: %v, want %q", tt.procs, err, tt.err)
		}
	}
	if _, err := ycsb(t, "a", false).Plans(matrix(store.List{"mattn"}, store.List{"1"}, "goroutines")); err == nil || !strings.Contains(err.Error(), "give no --goroutines") {
		t.Errorf("--goroutines: %v", err)
	}
	rated := ycsb(t, "a", false, "target=100")
	rated.RateGiven = true
	if _, err := rated.Plans(matrix(store.List{"mattn"}, store.List{"1"})); err == nil || !strings.Contains(err.Error(), "target (-p) and --rate") {
		t.Errorf("target and --rate: %v", err)
	}
}

// onePlanOf returns the one cell of spec on driver.
func onePlanOf(t *testing.T, spec preset.YCSBSpec, driver string, procsGiven bool) *workload.Plan {
	t.Helper()
	var given []string
	if procsGiven {
		given = append(given, "procs")
	}
	plans, err := spec.Plans(matrix(store.List{driver}, store.List{"1"}, given...))
	if err != nil {
		t.Fatal(err)
	}
	return plans[0]
}

// An engine without record tables, or without key order for a workload
// that scans, is refused by the spec, before any store opens; the same
// engine runs the workloads it can.
func TestYCSBRefusesEngines(t *testing.T) {
	for _, tt := range []struct {
		workload, driver, err string
	}{
		{"e", "map", "driver map keeps records in no key order, and the workload scans (95% of its ops)"},
		{"a", "files", "driver files keeps no record tables"},
		{"a", "null", "driver null keeps no record tables"},
	} {
		spec := ycsb(t, tt.workload, false)
		if _, err := spec.Plans(matrix(store.List{tt.driver}, store.List{"1"})); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("workload %s on %s: %v, want %q", tt.workload, tt.driver, err, tt.err)
		}
	}
	for _, w := range []string{"a", "b", "c", "d", "f"} {
		if _, err := ycsb(t, w, false).Plans(matrix(store.List{"map", "btree"}, store.List{"1"})); err != nil {
			t.Errorf("workload %s on map and btree: %v", w, err)
		}
	}
	if _, err := ycsb(t, "e", false).Plans(matrix(store.List{"btree", "lmdb"}, store.List{"1"})); err != nil {
		t.Errorf("workload e on ordered engines: %v", err)
	}
}

// escapeProperty writes s so that Java's property reader reads it back as
// it is: every character but letters and digits as a \uXXXX escape (a
// character beyond the BMP as its surrogate pair).
func escapeProperty(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, "\\u%04x\\u%04x", 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// Whatever a property file holds, reading it ends in properties or in an
// error with the file and a line, never a panic; the properties read
// back, written as NAME=VALUE with escapes, read as the same properties.
func FuzzParseProperties(f *testing.F) {
	for _, w := range []string{"a", "b", "c", "d", "e", "f"} {
		text, err := os.ReadFile(filepath.Join("testdata", "ycsb", "workload"+w))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	for _, s := range []string{"a=1\\\n  b", "a\\:b = c\\u0041", "!x\n#y\n:z", "k v\\", "\\u00zz", "a=\\\n", "\xef\xbb\xbfa=1\r\nb=2\r", "\U00061861=", "a=\\ud834x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		props, err := preset.ParseProperties("w", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "w:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		var out strings.Builder
		for _, p := range props {
			if p.Name == "" || !strings.HasPrefix(p.Origin, "w:") {
				t.Fatalf("property %+v: no name, or no line", p)
			}
			fmt.Fprintf(&out, "%s=%s\n", escapeProperty(p.Name), escapeProperty(p.Value))
		}
		again, err := preset.ParseProperties("w", out.String())
		if err != nil {
			t.Fatalf("the properties written back do not read: %v\n%s", err, out.String())
		}
		if len(again) != len(props) {
			t.Fatalf("%d properties read back, %d written", len(again), len(props))
		}
		for i := range props {
			if again[i].Name != props[i].Name || again[i].Value != props[i].Value {
				t.Fatalf("property %d: %q=%q read back as %q=%q", i, props[i].Name, props[i].Value, again[i].Name, again[i].Value)
			}
		}
	})
}

// maxYCSBNotes is the package's maxNotes.
const maxYCSBNotes = 20

// A property file of thousands of unused settings, or of one huge one,
// gets a screenful of notes, each short: a 7 MB file printed 60 MB.
func TestYCSBNotesBounded(t *testing.T) {
	props := []string{"jdbc.x=" + strings.Repeat("v", 1<<20), strings.Repeat("k", 1<<20) + ".y=1"}
	for i := range 5000 {
		props = append(props, fmt.Sprintf("binding.setting%d=1", i))
	}
	notes, err := ycsb(t, "b", false, props...).Notes()
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, n := range notes {
		size += len(n)
	}
	if len(notes) != maxYCSBNotes || size > 200*maxYCSBNotes || !strings.HasSuffix(notes[maxYCSBNotes-1], "and 4983 more properties gobench does not use") {
		t.Errorf("%d notes of %d bytes, the last %q", len(notes), size, notes[len(notes)-1])
	}
}
