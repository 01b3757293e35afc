package runner

import (
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

func testPlan(workers int) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver = "null"
	p.Procs = workers
	p.Phases[0].Ops = 2000
	return &p
}

func eachPlan(workers int, keys uint64, op workload.Op, order string) *workload.Plan {
	p := testPlan(workers)
	p.Keys.Count, p.Preload = keys, 0
	p.Phases = []workload.Phase{{Name: op.String(), Mix: workload.Mix{{Op: op, Percent: 100}}, Access: workload.AccessEach, Order: order, Batch: 1}}
	return p
}

func openPlan(workers int, rate float64) *workload.Plan {
	p := testPlan(workers)
	p.Rate = rate
	return p
}

// sqlPlan is a sql workload of the given scripts (name.sql → text, weight
// 1 each, in order) on a new SQLite file, with a counter table.
func sqlPlan(t *testing.T, workers int, scripts ...string) *workload.Plan {
	t.Helper()
	p := workload.DefaultPlan()
	p.Driver = sqlite.Modernc().Name()
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "sql.db"), Options: sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 10_000}.Encode()}
	p.Preload = 0
	p.Procs, p.Goroutines = 1, workers
	p.SQL = &workload.SQL{Scale: 1, Schema: &workload.SQLFile{File: "schema.sql", Text: `
		CREATE TABLE counter (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
		INSERT INTO counter VALUES (1, 0);
		CREATE TABLE log (worker INTEGER, x INTEGER);`}}
	for i := 0; i+1 < len(scripts); i += 2 {
		p.SQL.Scripts = append(p.SQL.Scripts, workload.SQLFile{File: scripts[i], Text: scripts[i+1], Weight: 1})
	}
	p.Phases[0].Name, p.Phases[0].Ops, p.Phases[0].Mix = "sql", 200, p.SQL.Mix()
	return &p
}

// recordPlan returns a record workload of n records run with mix over
// dist by workers goroutines, ops in all: YCSB's defaults otherwise (10
// fields of 100 bytes, hashed keys, scans up to 1000 long).
func recordPlan(mix string, dist workload.Distribution, n uint64, workers int, ops uint64) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver = "map"
	p.Mode = workload.ModeGoroutine
	p.Procs = workers
	p.Store.Table = &store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 10}
	p.Keys = workload.KeySpace{Count: n, Distribution: dist, Theta: workload.DefaultTheta}
	p.ValueSize = 1000
	p.Preload = n
	m, err := workload.ParseMix(mix)
	if err != nil {
		panic(err)
	}
	r := &workload.Records{RecordCount: n, InsertCount: n, OperationCount: ops, FieldLength: 100, MinFieldLength: 1,
		FieldLengthDistribution: workload.LengthConstant, ReadAllFields: true, ZeroPadding: 1, HotData: 0.2, HotOps: 0.8,
		MinScanLength: 1, MaxScanLength: 1000, ScanLengthDistribution: workload.LengthUniform}
	if dist == workload.Zipfian {
		for _, w := range m {
			if w.Op == workload.OpInsert {
				r.ExpectedInserts = uint64(float64(ops) * w.Percent / 100 * 2)
			}
		}
	}
	p.Records = r
	p.Phases = []workload.Phase{{Name: "run", Mix: m, Ops: r.OpsPerWorker(workers), Batch: 1}}
	return &p
}

func blobPlan(workers int) *workload.Plan {
	p := testPlan(workers)
	p.Driver = "map"
	p.Mode = workload.ModeGoroutine
	p.Keys.Count, p.Preload = 500, 500
	p.ValueSize, p.ValueVariance, p.RandomValues = 1000, 200, true
	p.Phases = []workload.Phase{
		{Name: "read", Mix: workload.Mix{{Op: workload.OpRead, Percent: 100}}, Access: workload.AccessEach, Order: workload.OrderRandom, Ops: 60, Batch: 1},
		{Name: "update", Mix: workload.Mix{{Op: workload.OpUpdate, Percent: 100}}, Access: workload.AccessEach, Order: workload.OrderRandom, Batch: 1},
	}
	return p
}

// dealt is one op a lottery dealt, for comparing sequences.
type dealt struct {
	op  workload.Op
	key uint64
	val string
}

// dealOps deals n ops of worker in phase of p.
func dealOps(p *workload.Plan, phase, worker, n int) []dealt {
	l := deal.NewLottery(p, phase, worker)
	out := make([]dealt, n)
	for i := range out {
		op, key := l.Next()
		out[i] = dealt{op: op, key: key}
		if op.IsWrite() {
			out[i].val = string(l.Value())
		}
	}
	return out
}
