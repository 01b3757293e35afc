package crashstate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// An acknowledgement's Commit is where its process's writes began after
// its previous acknowledgement: processes that write in turn are ordered
// by that, though the first to commit may be acknowledged last (a COMMIT
// that checkpoints returns late).
func TestAckCommitIsItsProcessFirstWrite(t *testing.T) {
	s := newScript(t, map[string]string{"db": "0000"})
	pid := func(p uint32, e iorecord.Event) { e.PID = p; s.add(e) }
	w := func(off int64) iorecord.Event {
		return iorecord.Event{Kind: iorecord.KindWrite, Role: store.RoleWAL, Arg: off, Data: []byte("x")}
	}
	ack := func(worker int) iorecord.Event {
		return iorecord.Event{Kind: iorecord.KindAck, Data: iorecord.AppendAck(nil, iorecord.Ack{Worker: worker, N: 1})}
	}
	pid(1, w(0))   // 0: process 1 commits first
	pid(1, w(1))   // 1: and checkpoints
	pid(2, w(2))   // 2: process 2 commits
	pid(2, ack(2)) // 3: and returns first
	pid(1, w(3))   // 4: process 1's checkpoint goes on
	pid(1, ack(1)) // 5
	pid(3, ack(3)) // 6: a transaction that wrote nothing
	s.add(iorecord.Event{Kind: iorecord.KindEnd})
	rec := filepath.Join(s.dir, "record")
	if err := os.WriteFile(rec, s.events, 0o600); err != nil {
		t.Fatal(err)
	}
	commits := map[int]int64{}
	o := Options{Record: rec, Base: filepath.Join(s.dir, "base"), Work: filepath.Join(s.dir, "work"), Files: dbFiles,
		Spec: store.CrashSpec{States: 1, Model: store.CrashLose, Seed: 7}}
	_, err := Build(context.Background(), o, func(a store.Ack) { commits[a.Worker] = a.Commit }, func(store.CrashState) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int64{1: 0, 2: 2, 3: 6} // the run's events count from 0, after its start
	for worker, c := range want {
		if commits[worker] != c {
			t.Errorf("worker %d's acknowledgement: Commit %d, want %d (all: %v)", worker, commits[worker], c, commits)
		}
	}
}
