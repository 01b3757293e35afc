package coord

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// recordPlan is YCSB's workload D (95% reads of the latest records, 5%
// inserts) on driver, 1,000 records of 10 fields, ops in all.
func recordPlan(driver string, procs int, ops uint64) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver, p.Procs = driver, procs
	p.Store.Table = &store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 10}
	p.Keys = workload.KeySpace{Count: 1000, Distribution: workload.Latest, Theta: 0.99}
	p.ValueSize, p.Preload = 1000, 1000
	p.Records = &workload.Records{RecordCount: 1000, InsertCount: 1000, OperationCount: ops, FieldLength: 100,
		FieldLengthDistribution: workload.LengthConstant, ReadAllFields: true, ZeroPadding: 1,
		MinScanLength: 1, MaxScanLength: 1000, ScanLengthDistribution: workload.LengthUniform}
	p.Phases = []workload.Phase{{Name: "run", Mix: workload.Mix{{Op: workload.OpRead, Percent: 95}, {Op: workload.OpInsert, Percent: 5}}, Ops: p.Records.OpsPerWorker(procs), Batch: 1}}
	return &p
}

// Worker processes share one insert counter: their inserts take distinct
// keynums (a counter per process would hand every process the same ones,
// and all but the first insert of each would fail on the key), and no
// read of the latest records misses one. The counter's file is gone after
// the run.
func TestRecordInsertsAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	p := recordPlan("mattn", 3, 3000)
	p.Store.Path = filepath.Join(dir, "ycsb.db")
	res, err := run(t, p, "serve")
	if err != nil {
		t.Fatal(err)
	}
	ins, ok := res.Phases[0].Op("insert")
	if !ok || ins.Count < 100 {
		t.Fatalf("inserts: %+v: too few to tell", ins)
	}
	if ins.Errors.Total != 0 {
		t.Errorf("%d of %d inserts failed (%+v): the processes did not share one counter", ins.Errors.Total, ins.Count, ins.Errors)
	}
	read, _ := res.Phases[0].Op("read")
	if read.NotFound != 0 || read.Errors.Total != 0 {
		t.Errorf("%d of %d reads found no record, %d failed: latest read past the acknowledged inserts", read.NotFound, read.Count, read.Errors.Total)
	}
	drv, err := all.Registry().Lookup("mattn")
	if err != nil {
		t.Fatal(err)
	}
	st, err := drv.Open(context.Background(), p.Store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := c.(store.Recorder)
	for k := uint64(1000); k < 1000+uint64(ins.Count); k++ {
		if _, err := r.ReadRecord(p.Records.AppendKey(nil, k), -1, nil); err != nil {
			t.Fatalf("record %d, inserted during the run: %v", k, err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".gobench-counter-*"))
	if len(left) != 0 {
		t.Errorf("the counter file is left behind: %v", left)
	}
	if _, err := os.Stat(p.Store.Path); err != nil {
		t.Fatal(err)
	}
}
