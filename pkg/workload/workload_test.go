package workload

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

func TestParseMix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec, want, err string
	}{
		{spec: "read=95,upsert=5", want: "read=95,upsert=5"},
		{spec: "upsert=5, read=95", want: "read=95,upsert=5"},
		{spec: "read=95%,upsert=5%", want: "read=95,upsert=5"},
		{spec: "read=100", want: "read=100"},
		{spec: "read=50,update=25,delete=25", want: "read=50,update=25,delete=25"},
		{spec: "read=100,upsert=0", want: "read=100,upsert=0"},
		{spec: "append=10,scan=10,read=80", want: "read=80,scan=10,append=10"},
		{spec: "latest=50,append=30,scan=20", want: "scan=20,append=30,latest=50"},
		{spec: "read-latest=50,append=50", err: `unknown op "read-latest"`},
		{spec: "", err: "empty mix"},
		{spec: "read=90,upsert=5", err: "sums to 95, not 100"},
		{spec: "read=95,frob=5", err: `unknown op "frob"`},
		{spec: "read", err: "has no '='"},
		{spec: "read=x,upsert=5", err: "is not a number in steps"},
		{spec: "read=50,read=50", err: "read twice"},
		{spec: "read=105,upsert=-5", err: "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			m, err := ParseMix(tt.spec)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseMix(%q) error = %v, want %q", tt.spec, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.String() != tt.want {
				t.Errorf("String() = %q, want %q", m.String(), tt.want)
			}
		})
	}
}

func TestWriteMix(t *testing.T) {
	t.Parallel()
	m, err := WriteMix(5)
	if err != nil || m.String() != "read=95,upsert=5" {
		t.Fatalf("WriteMix(5) = %v, %v", m, err)
	}
	if _, err := WriteMix(101); err == nil {
		t.Fatal("WriteMix(101) succeeded")
	}
}

func testPlan(workers int) *Plan {
	p := DefaultPlan()
	p.Driver = "null"
	p.Procs = workers
	p.Phases[0].Ops = 2000
	return &p
}

func TestWorkerSeedsDistinct(t *testing.T) {
	t.Parallel()
	seen := map[uint64]bool{}
	for w := range 1000 {
		for ph := range 4 {
			for st := 1; st <= 4; st++ {
				s := WorkerSeed(1, w, ph, st)
				if seen[s] {
					t.Fatalf("seed collision at worker %d phase %d stream %d", w, ph, st)
				}
				seen[s] = true
			}
		}
	}
}

func TestPlanValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(p *Plan)
		want   string
	}{
		{"default", func(p *Plan) {}, ""},
		{"no driver", func(p *Plan) { p.Driver = "" }, "no driver"},
		{"zero keys", func(p *Plan) { p.Keys.Count = 0; p.Preload = 0 }, "key count is 0"},
		{"preload beyond keys", func(p *Plan) { p.Preload = p.Keys.Count + 1 }, "exceeds the key space"},
		{"zero value", func(p *Plan) { p.ValueSize = 0 }, "value size 0"},
		{"huge value", func(p *Plan) { p.ValueSize = MaxValueSize + 1 }, "value size"},
		{"zero procs", func(p *Plan) { p.Procs = 0 }, "procs 0"},
		{"negative goroutines", func(p *Plan) { p.Goroutines = -1 }, "goroutines -1"},
		{"too many workers", func(p *Plan) { p.Procs, p.Goroutines = MaxProcs, MaxGoroutines }, "workers"},
		{"mode", func(p *Plan) { p.Mode = "threads" }, `unknown worker mode "threads"`},
		{"on error", func(p *Plan) { p.OnError = "ignore" }, `unknown error policy "ignore"`},
		{"no phases", func(p *Plan) { p.Phases = nil }, "no phases"},
		{"ops and duration", func(p *Plan) { p.Phases[0].Duration = Duration(time.Second) }, "both an op count and a duration"},
		{"neither", func(p *Plan) { p.Phases[0].Ops = 0 }, "neither an op count nor a duration"},
		{"negative ops", func(p *Plan) { p.Phases[0].Ops = -1 }, "negative"},
		{"batch", func(p *Plan) { p.Phases[0].Batch = 0 }, "batch 0"},
		{"theta", func(p *Plan) { p.Keys.Distribution = Zipfian; p.Keys.Theta = 1 }, "theta"},
		{"distribution", func(p *Plan) { p.Keys.Distribution = "normal" }, `unknown key distribution "normal"`},
		{"scan in a lottery", func(p *Plan) { p.Phases[0].Mix, _ = ParseMix("read=80,scan=10,append=10") }, ""},
		{"scan length", func(p *Plan) { p.ScanLength, p.Phases[0].Mix = 7, Mix{{OpScan, 10}, {OpRead, 90}} }, ""},
		{"scan length out of range", func(p *Plan) { p.ScanLength, p.Phases[0].Mix = MaxScanLength+1, Mix{{OpScan, 10}, {OpRead, 90}} }, "scan length 1000001 is out of range"},
		{"scan length without scans", func(p *Plan) { p.ScanLength = 7 }, "scan length 7: no phase of the plan scans"},
		{"insert in a lottery", func(p *Plan) { p.Phases[0].Mix, _ = ParseMix("read=90,insert=10") }, "insert cannot be dealt by a lottery mix"},
		{"latest with appends", func(p *Plan) { p.Phases[0].Mix, _ = ParseMix("latest=50,append=50") }, ""},
		{"latest without appends", func(p *Plan) { p.Phases[0].Mix, _ = ParseMix("latest=50,read=50") }, "latest reads the newest appended records, and no phase of the plan appends"},
		{"latest of random appends", func(p *Plan) {
			p.AppendOrder, p.Phases[0].Mix = AppendRandom, Mix{{OpAppend, 50}, {OpLatest, 50}}
		}, "which append order random scatters"},
		{"order in a lottery", func(p *Plan) { p.Phases[0].Order = OrderRandom }, "key order applies to each-key phases only"},
		{"each with a limit", func(p *Plan) {
			p.Phases[0].Access, p.Phases[0].Order, p.Phases[0].Mix = AccessEach, OrderRandom, Mix{{OpInsert, 100}}
		}, ""},
		{"each with a negative limit", func(p *Plan) {
			p.Phases[0].Access, p.Phases[0].Order, p.Phases[0].Mix, p.Phases[0].Ops = AccessEach, OrderRandom, Mix{{OpInsert, 100}}, -1
		}, "negative"},
		{"each with a duration", func(p *Plan) {
			p.Phases[0].Access, p.Phases[0].Order, p.Phases[0].Mix, p.Phases[0].Ops, p.Phases[0].Duration = AccessEach, OrderRandom, Mix{{OpInsert, 100}}, 0, Duration(time.Second)
		}, "takes no duration"},
		{"variance too large", func(p *Plan) { p.ValueVariance = p.ValueSize }, "variance"},
		{"negative variance", func(p *Plan) { p.ValueVariance = -1 }, "variance"},
		{"each with two ops", func(p *Plan) {
			p.Phases[0].Access, p.Phases[0].Order, p.Phases[0].Ops = AccessEach, OrderRandom, 0
		}, "runs one op"},
		{"each without order", func(p *Plan) {
			p.Phases[0].Access, p.Phases[0].Ops, p.Phases[0].Mix = AccessEach, 0, Mix{{OpInsert, 100}}
		}, `unknown key order ""`},
		{"random appends", func(p *Plan) { p.AppendOrder, p.Phases[0].Mix = AppendRandom, Mix{{OpAppend, 50}, {OpRead, 50}} }, ""},
		{"random order of no appends", func(p *Plan) { p.AppendOrder = AppendRandom }, "no phase of the plan appends"},
		{"crash", func(p *Plan) { crash(p) }, ""},
		{"crash without states", func(p *Plan) { crash(p).States = 0 }, "crash: 0 states"},
		{"crash of too many states", func(p *Plan) { crash(p).States = MaxCrashStates + 1 }, "states"},
		{"crash model", func(p *Plan) { crash(p).Model = "shred" }, `crash model "shred"`},
		{"crash record limit", func(p *Plan) { crash(p).RecordLimit = 1000 }, "at least 1 MiB"},
		{"crash record too small for the run", func(p *Plan) { p.Phases[0].Ops = 1_000_000; crash(p).RecordLimit = 1 << 20 }, "would need about"},
		{"crash of a duration", func(p *Plan) {
			p.Phases[0].Ops, p.Phases[0].Duration = 0, Duration(time.Hour)
			crash(p).RecordLimit = 1 << 20
		}, ""},
		{"crash untagged", func(p *Plan) { crash(p); p.Verify = false }, "must tag its values"},
		{"crash of small values", func(p *Plan) { crash(p); p.ValueSize = 16 }, "value size 16 is too small"},
		{"crash with a warm-up", func(p *Plan) { crash(p); p.Warmup = &Phase{Name: "warmup", Mix: DefaultMix(), Ops: 10, Batch: 1} }, "crash checks the writes of the measured phases"},
		{"crash with deletes", func(p *Plan) { crash(p); p.Phases[0].Mix, _ = ParseMix("read=50,delete=50") }, "crash cannot check deletes"},
		{"crash of a shard", func(p *Plan) { crash(p); p.Procs, p.Shard = 2, &Shard{Index: 0, Count: 2} }, "takes no shard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testPlan(1)
			tt.mutate(p)
			err := p.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate() = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

// crash gives p a power-cut simulation that fits it, and tags its values.
func crash(p *Plan) *Crash {
	p.Verify = true
	p.Crash = &Crash{States: 10, Model: store.CrashLose, RecordLimit: DefaultRecordLimit}
	return p.Crash
}

func TestDecodePlan(t *testing.T) {
	t.Parallel()
	p := testPlan(3)
	p.Phases[0].Ops = 0
	p.Phases[0].Duration = Duration(1500 * time.Millisecond)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"mix":"read=95,upsert=5"`)) || !bytes.Contains(b, []byte(`"duration":"1.5s"`)) {
		t.Errorf("plan JSON is not in its readable form: %s", b)
	}
	got, err := DecodePlan(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(got)
	if !bytes.Equal(b, b2) {
		t.Errorf("round trip changed the plan:\n%s\n%s", b, b2)
	}
	for _, bad := range []string{
		`{"seed":1,"bogus":2}`,
		`{"seed":1}`,
		string(b) + `{}`,
		`{"phases":[{"mix":"read=50"}]}`,
	} {
		if _, err := DecodePlan([]byte(bad)); err == nil {
			t.Errorf("DecodePlan(%s) succeeded", bad)
		}
	}
}

func FuzzDecodePlan(f *testing.F) {
	b, _ := json.Marshal(testPlan(2))
	f.Add(b)
	f.Add([]byte(`{"phases":[{"mix":"read=100","ops":1,"batch":1}]}`))
	sql := testPlan(2)
	sql.Preload, sql.SQL = 0, &SQL{Scale: 2, Scripts: []SQLFile{{File: "a.sql", Text: "\\set x random(1, 9)\nSELECT :x;", Weight: 3}, {File: "b.sql", Text: "SELECT 1;", Weight: 1}}}
	sql.Phases[0].Mix = sql.SQL.Mix()
	b, _ = json.Marshal(sql)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodePlan(b)
		if err != nil {
			return
		}
		// An accepted plan is valid, re-encodes and decodes to the same.
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid plan: %v", err)
		}
		b2, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		p2, err := DecodePlan(b2)
		if err != nil {
			t.Fatalf("re-encoded plan does not decode: %v\n%s", err, b2)
		}
		b3, _ := json.Marshal(p2)
		if !bytes.Equal(b2, b3) {
			t.Fatalf("plan not stable across round trips:\n%s\n%s", b2, b3)
		}
	})
}

func FuzzParseMix(f *testing.F) {
	for _, s := range []string{"read=95,upsert=5", "upsert=5,read=95", "read=100", "a=b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMix(s)
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted %q, which does not validate: %v", s, err)
		}
		m2, err := ParseMix(m.String())
		if err != nil || m2.String() != m.String() {
			t.Fatalf("canonical form %q does not parse back: %v", m.String(), err)
		}
	})
}

func TestParseShard(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want *Shard
	}{
		{"1/4", &Shard{Index: 0, Count: 4}},
		{"4/4", &Shard{Index: 3, Count: 4}},
		{"01/4", nil}, {"1/4x", nil}, {"1-4", nil}, {"", nil}, {"a/b", nil},
	} {
		got, err := ParseShard(tt.in)
		switch {
		case tt.want == nil && err == nil:
			t.Errorf("ParseShard(%q) = %v, want an error", tt.in, got)
		case tt.want != nil && (err != nil || *got != *tt.want || got.String() != tt.in):
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseWarmup(t *testing.T) {
	t.Parallel()
	mix, _ := ParseMix("read=90,upsert=10")
	measured := Phase{Name: "mix", Mix: mix, Batch: 5}
	for _, tt := range []struct {
		in      string
		ops     int64
		dur     Duration
		wantErr string
	}{
		{"", 0, 0, ""},
		{"5s", 0, Duration(5 * time.Second), ""},
		{"1000", 1000, 0, ""},
		{"0s", 0, 0, "not a positive duration"},
		{"-5", 0, 0, "neither a duration"},
		{"soon", 0, 0, "neither a duration"},
	} {
		w, err := ParseWarmup(tt.in, measured)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseWarmup(%q) = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || (tt.in == "") != (w == nil) {
			t.Fatalf("ParseWarmup(%q) = %+v, %v", tt.in, w, err)
		}
		if w != nil && (w.Ops != tt.ops || w.Duration != tt.dur || w.Mix.String() != measured.Mix.String() || w.Batch != 5) {
			t.Errorf("ParseWarmup(%q) = %+v", tt.in, w)
		}
	}
}

// Valid, which the coordinator asks of every sample without a map lookup,
// accepts exactly the ops that have a name, scripts and statements.
func TestOpValid(t *testing.T) {
	t.Parallel()
	for o := range Op(255) {
		_, named := opNames[o]
		want := named || o.IsScript() || o.IsStatement()
		if o.Valid() != want {
			t.Errorf("op %d (%v): Valid %v, want %v", o, o, o.Valid(), want)
		}
	}
	if !Op(MaxOp-1).Valid() || Op(MaxOp).Valid() || Op(0).Valid() {
		t.Error("the bounds of Valid")
	}
}
