package crashstate

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// A record that starts before the store exists (--crash-from open): no
// file at the start, the database created, written and synced before
// its directory is. A cut before the directory's sync leaves no
// database under the lose model; one after it, what the syncs made
// durable. Every state follows a sync, and is named by it.
func TestExhaustiveFromBeforeCreation(t *testing.T) {
	tests := []struct {
		model string
		want  []string // the database after each sync; "-" for none
	}{
		{store.CrashLose, []string{"-", "AA", "AA", "AABB", "AABB"}},
		{store.CrashNamesDurable, []string{"AA", "AA", "AA", "AABB", "AABB"}},
	}
	labels := []string{
		"after fsync #1 of db",
		"after directory sync #1 of the store's directory",
		"after fdatasync #1 of db-journal",
		"after fsync #2 of db",
		"after fsync #2 of db-journal",
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			s := newScript(t, nil)
			s.create(store.RoleDatabase).write(store.RoleDatabase, 0, "AA").sync(store.RoleDatabase).dirSync()
			s.create(store.RoleJournal).write(store.RoleJournal, 0, "J")
			s.add(iorecord.Event{Kind: iorecord.KindSync, Role: store.RoleJournal, Flags: iorecord.FlagDataSync})
			s.ack(0, 0).write(store.RoleDatabase, 2, "BB").sync(store.RoleDatabase)
			s.del(store.RoleJournal).create(store.RoleJournal).sync(store.RoleJournal).write(store.RoleDatabase, 4, "CC")
			files, states, err := s.build(store.CrashSpec{Model: tt.model, Exhaustive: true, MaxPoints: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(states) != len(tt.want) {
				t.Fatalf("%d states, want one after each of the %d syncs", len(states), len(tt.want))
			}
			for i, w := range tt.want {
				got, ok := files[i]["db"]
				if !ok {
					got = "-"
				}
				if got != w {
					t.Errorf("state %d (%s): db %q, want %q", i, states[i].Label, got, w)
				}
				if states[i].Label != labels[i] {
					t.Errorf("state %d: label %q, want %q", i, states[i].Label, labels[i])
				}
			}
		})
	}
}

// A record with more persistence points than the bound is refused,
// saying how many it holds, before any state is built.
func TestExhaustiveRefusesTooManyPoints(t *testing.T) {
	s := newScript(t, map[string]string{"db": "00"})
	for range 3 {
		s.write(store.RoleDatabase, 0, "AA").sync(store.RoleDatabase)
	}
	_, states, err := s.build(store.CrashSpec{Model: store.CrashLose, Exhaustive: true, MaxPoints: 2})
	if !errors.Is(err, ErrTooManyPoints) {
		t.Fatalf("err %v, want ErrTooManyPoints", err)
	}
	if !strings.Contains(err.Error(), "holds 3 ") || !strings.Contains(err.Error(), "the 2 ") {
		t.Errorf("the error does not name the count and the bound: %v", err)
	}
	if len(states) != 0 {
		t.Errorf("%d states built, want none", len(states))
	}
}

// A preload's acknowledgement (phase store.AckPreload) keeps its
// negative phase through the record.
func TestPreloadAckPhase(t *testing.T) {
	s := newScript(t, nil)
	s.add(iorecord.Event{Kind: iorecord.KindAck, Data: iorecord.AppendAck(nil, iorecord.Ack{Worker: -1, Phase: store.AckPreload, N: 20000})})
	s.add(iorecord.Event{Kind: iorecord.KindEnd})
	var got []store.Ack
	rec := s.dir + "/record"
	if err := os.WriteFile(rec, s.events, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(t.Context(), Options{Record: rec, Base: s.dir + "/base", Work: s.dir + "/work", Files: dbFiles,
		Spec: store.CrashSpec{States: 1, Model: store.CrashLose}}, func(a store.Ack) { got = append(got, a) }, func(store.CrashState) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Phase != store.AckPreload || got[0].N != 20000 {
		t.Errorf("acknowledgements %+v, want the preload's, phase %d, 20000 rows", got, store.AckPreload)
	}
}
