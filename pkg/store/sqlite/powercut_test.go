package sqlite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/crashstate"
	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// discard is a workload collector that keeps nothing.
type discard struct{}

func (discard) Sink(int, int) workload.Sink     { return discard{} }
func (discard) Record(workload.Sample) error    { return nil }
func (discard) Done(workload.WorkerStats) error { return nil }

// recorded is a run recorded for the power-cut simulation, in this
// process: its plan, store, and where its record and copies are.
type recorded struct {
	plan *workload.Plan
	st   store.Store
	dir  string
	rec  store.Record
}

// runRecorded runs a write-heavy mix of two goroutines on d, recording
// it as a --crash run does: the files copied and the start marked at
// START, every acknowledgement recorded by the workers.
func runRecorded(t *testing.T, d *Driver, journal, sync string) *recorded {
	t.Helper()
	o := DefaultOptions()
	o.Journal, o.Sync = journal, sync
	p := workload.DefaultPlan()
	p.Driver, p.Mode, p.Procs, p.Goroutines = d.Name(), workload.ModeGoroutine, 1, 2
	p.Keys.Count, p.Preload = 200, 200
	p.Verify = true
	p.Crash = &workload.Crash{States: 12, Model: store.CrashLose, RecordLimit: 64 << 20}
	p.Phases[0].Mix, _ = workload.ParseMix("read=20,upsert=80")
	p.Phases[0].Ops = 150
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "crash.db"), Options: o.Encode()}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	r := &recorded{plan: &p, dir: t.TempDir()}
	r.rec = store.Record{Path: filepath.Join(r.dir, "record"), Limit: p.Crash.RecordLimit}
	st, err := runner.OpenStore(context.Background(), &p, d, runner.Setup{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.st = st
	pcs := st.(store.PowerCutStore)
	h := &runner.Host{Plan: &p, Store: st, Workers: p.WorkerIDs(), Collector: discard{},
		Barrier: func(context.Context, int) (int64, error) {
			return runner.Now(), pcs.StartRecording(r.dir, r.rec)
		}}
	if err := h.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := pcs.StopRecording(); err != nil {
		t.Fatal(err)
	}
	return r
}

// simulate builds the run's crash states and checks each one.
func (r *recorded) simulate(t *testing.T, model string) (states, corrupt, lossy int, lost, checked int64) {
	t.Helper()
	x := runner.NewCrashIndex(r.plan)
	spec := store.CrashSpec{States: r.plan.Crash.States, Model: model, Seed: 1}
	d := r.st.(*db).d
	files, err := d.DiskFiles(r.plan.Store)
	if err != nil {
		t.Fatal(err)
	}
	o := crashstate.Options{Record: r.rec.Path, Base: filepath.Join(r.dir, "base"), Work: filepath.Join(r.dir, "work"), Files: files, Spec: spec}
	_, err = crashstate.Build(context.Background(), o, x.Add, func(cs store.CrashState) error {
		res, err := runner.CheckCrashState(context.Background(), d, r.plan, cs, x)
		if err != nil {
			return err
		}
		states++
		checked += res.Checked
		if res.Corrupt {
			corrupt++
			t.Logf("state %d: corrupt: %s", cs.Index, res.Why)
		}
		if res.Lost > 0 {
			lossy++
			lost += res.Lost
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return states, corrupt, lossy, lost, checked
}

// In WAL mode at synchronous=FULL every acknowledged write is in every
// state after it, none corrupt; with the WAL's syncs taken out of the
// record (what a VFS that acknowledged commits without syncing would
// have done), the states just after an acknowledgement lose writes: the
// checker can fail.
func TestPowerCutCatchesUnsyncedAcknowledgements(t *testing.T) {
	for _, d := range testDrivers {
		if d.PowerCutSupport(store.Config{}, workload.ModeGoroutine) != nil {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			r := runRecorded(t, d, "wal", "full")
			states, corrupt, lossy, _, checked := r.simulate(t, store.CrashLose)
			if states != r.plan.Crash.States || corrupt != 0 || lossy != 0 || checked == 0 {
				t.Fatalf("WAL at FULL: %d states, %d corrupt, %d lost writes, %d writes checked", states, corrupt, lossy, checked)
			}
			dropSyncs(t, r.rec.Path, store.RoleWAL)
			states, corrupt, lossy, lost, _ := r.simulate(t, store.CrashLose)
			t.Logf("without the WAL's syncs: %d of %d states lost %d writes in all, %d corrupt", lossy, states, lost, corrupt)
			if lossy == 0 || corrupt != 0 {
				t.Errorf("without the WAL's syncs: %d states lost writes (want some), %d corrupt (want none: the WAL's checksums hold)", lossy, corrupt)
			}
		})
	}
}

// dropSyncs rewrites the record without the syncs of the files of role.
func dropSyncs(t *testing.T, path string, role int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	dropped := 0
	r := iorecord.NewReader(f, 0)
	for r.Scan() {
		e := r.Event()
		if e.Kind == iorecord.KindSync && int(e.Role) == role {
			dropped++
			continue
		}
		out = iorecord.AppendEvent(out, e)
	}
	f.Close()
	if r.Err() != nil || dropped == 0 {
		t.Fatalf("dropped %d syncs: %v", dropped, r.Err())
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A state whose database has a torn page (a b-tree page whose second
// half is another page's) is caught as corrupt.
func TestPowerCutCatchesATornPage(t *testing.T) {
	d := Ncruces()
	r := runRecorded(t, d, "rollback", "full")
	torn := filepath.Join(t.TempDir(), "torn.db")
	src, err := os.ReadFile(r.plan.Store.Path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	if len(src) < 6*page {
		t.Fatalf("a database of %d bytes", len(src))
	}
	// Page 4 (a leaf of kv) gets the second half of page 5.
	b := bytes.Clone(src)
	copy(b[3*page+page/2:4*page], src[4*page+page/2:5*page])
	if err := os.WriteFile(torn, b, 0o600); err != nil {
		t.Fatal(err)
	}
	x := runner.NewCrashIndex(r.plan)
	res, err := runner.CheckCrashState(context.Background(), d, r.plan, store.CrashState{Path: torn}, x)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Corrupt {
		t.Fatalf("a torn page passed: %+v", res)
	}
	t.Logf("torn page: %s", res.Why)
	// The same database, untorn, is sound.
	good := filepath.Join(t.TempDir(), "good.db")
	copyFile(t, r.plan.Store.Path, good)
	if res, err := runner.CheckCrashState(context.Background(), d, r.plan, store.CrashState{Path: good}, x); err != nil || res.Corrupt {
		t.Fatalf("the untorn database: %+v, %v", res, err)
	}
}
