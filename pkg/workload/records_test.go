package workload

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/store"
)

// recordPlan returns a record workload of n records run with mix over
// dist by workers goroutines, ops in all: YCSB's defaults otherwise (10
// fields of 100 bytes, hashed keys, scans up to 1000 long).
func recordPlan(mix string, dist Distribution, n uint64, workers int, ops uint64) *Plan {
	p := DefaultPlan()
	p.Driver = "map"
	p.Mode = ModeGoroutine
	p.Procs = workers
	p.Store.Table = &store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 10}
	p.Keys = KeySpace{Count: n, Distribution: dist, Theta: RecordTheta}
	p.ValueSize = 1000
	p.Preload = n
	m, err := ParseMix(mix)
	if err != nil {
		panic(err)
	}
	r := &Records{RecordCount: n, InsertCount: n, OperationCount: ops, FieldLength: 100, MinFieldLength: 1,
		FieldLengthDistribution: LengthConstant, ReadAllFields: true, ZeroPadding: 1, HotData: 0.2, HotOps: 0.8,
		MinScanLength: 1, MaxScanLength: 1000, ScanLengthDistribution: LengthUniform}
	if dist == Zipfian {
		r.ExpectedInserts = uint64(float64(ops) * m.Share(OpInsert) / 100 * 2)
	}
	p.Records = r
	p.Phases = []Phase{{Name: "run", Mix: m, Ops: r.OpsPerWorker(workers), Batch: 1}}
	return &p
}

// YCSB's first key: keynum 0 hashed, as every YCSB load's output shows it.
func TestKeyNames(t *testing.T) {
	for _, tt := range []struct {
		keynum  int64
		pad     int
		ordered bool
		want    string
	}{
		{0, 1, false, "user6284781860667377211"},
		{1, 1, false, "user8517097267634966620"},
		{5, 1, true, "user5"},
		{5, 8, true, "user00000005"},
		{123, 2, true, "user123"},
	} {
		if got := string(generator.AppendKeyName(nil, tt.keynum, tt.pad, tt.ordered)); got != tt.want {
			t.Errorf("key %d (padding %d, ordered %v) = %s, want %s", tt.keynum, tt.pad, tt.ordered, got, tt.want)
		}
	}
	// Math.abs of the one hash it cannot negate stays negative, as in Java.
	if h := generator.FNVHash64(0); h < 0 {
		t.Errorf("generator.FNVHash64(0) = %d", h)
	}
}

// A run phase's op count is the busiest worker's share of the operation
// count: a plan whose two disagree (its header would say one and it would
// run the other) is refused.
func TestRecordPhaseOpsAgree(t *testing.T) {
	p := recordPlan("read=100", Uniform, 1000, 4, 999_999)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	p.Phases[0].Ops = 20
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "20 ops a worker, but the operation count 999999 over 4 workers is 250000 a worker") {
		t.Errorf("a phase of 20 ops a worker and an operation count of 999999: %v", err)
	}
}
