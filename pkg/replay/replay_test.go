package replay

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

func TestOverriddenPragma(t *testing.T) {
	for fp, want := range map[string]string{
		"pragma journal_mode = ?":           "journal_mode",
		"pragma main.synchronous(?)":        "synchronous",
		"pragma busy_timeout = ?":           "busy_timeout",
		"pragma journal_mode":               "", // a read
		"pragma cache_size = ?":             "", // not a setting of the run's
		"select * from pragma_user_version": "",
	} {
		if got := OverriddenPragma(fp); got != want {
			t.Errorf("OverriddenPragma(%q) = %q, want %q", fp, got, want)
		}
	}
}

// TestReplayOrderShared: a replay's order counts statements per state and
// moves forward only, whatever the order of its calls.
func TestReplayOrderShared(t *testing.T) {
	o, err := newOrder(4, 0)
	if err != nil {
		t.Fatal(err)
	}
	o.Count(1)
	o.Count(1)
	o.Count(9) // out of range: ignored
	if o.Pending(1) != 2 || o.Reached() != 0 || o.States() != 4 {
		t.Fatalf("pending %d reached %d states %d", o.Pending(1), o.Reached(), o.States())
	}
	o.Ran(1)
	o.Committed(2)
	o.Committed(1) // behind: no step back
	if o.Pending(1) != 1 || o.Reached() != 2 {
		t.Errorf("pending %d reached %d, want 1 and 2", o.Pending(1), o.Reached())
	}
	if _, err := OpenOrder(make([]byte, 8)); err == nil {
		t.Error("a replay order opened on too little memory")
	}
}

// TestPlanReplay: the statements take kinds by fingerprint, most frequent
// first and the rest together past the limit; the connections are placed
// on their processes' workers, or folded; what sets a run's setting is
// listed.
func TestPlanReplay(t *testing.T) {
	var buf bytes.Buffer
	w := snapshotTrace(&buf)
	for stream := uint64(1); stream <= 3; stream++ {
		s := w.Stream(stream)
		s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
		for conn := uint64(1); conn <= stream; conn++ {
			s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: conn, DB: 1}})
			for i := range workload.MaxReplayKinds + 5 {
				s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: conn, SQL: fmt.Sprintf("SELECT %d FROM t%d", i, i), Start: int64(i)}})
			}
			s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: conn, SQL: "PRAGMA journal_mode=WAL", Start: 1}})
		}
	}
	w.Close()
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf.Bytes())), nil }
	r, _, err := Build(open, Options{Trace: "/t.trace", Order: workload.ReplayRace})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Kinds) != workload.MaxReplayKinds || r.Kinds[len(r.Kinds)-1].ID != workload.OtherKindID || r.Kinds[len(r.Kinds)-1].Count != 7*6 { // 86 fingerprints: 79 of their own, 7 others
		t.Errorf("%d kinds, the last %+v", len(r.Kinds), r.Kinds[len(r.Kinds)-1])
	}
	if r.Statements != int64(6*(workload.MaxReplayKinds+6)) || r.Procs != 3 || len(r.Workers) != 3*3 {
		t.Errorf("%d statements on %d workers of %d processes", r.Statements, len(r.Workers), r.Procs)
	}
	if len(r.Overrides) != 1 || r.Overrides[0].Count != 6 || r.Overrides[0].Setting != "--journal" {
		t.Errorf("overrides %+v", r.Overrides)
	}
	folded, _, err := Build(open, Options{Trace: "/t.trace", Order: workload.ReplayRace, Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Processes 1 and 3 on worker process 0 (4 connections), 2 on 1.
	if folded.Procs != 2 || len(folded.Workers) != 2*4 || folded.Workers[4].Stream != 2 || folded.Workers[6].Stream != 0 {
		t.Errorf("folded: %+v", folded.Workers)
	}
}

// A connection's transactions, followed statement by statement: the first
// statement to take the write lock, and the end of each transaction that
// took it and committed nothing, at the state it began.
func TestReplayTxn(t *testing.T) {
	const (
		before = sqltrace.FlagAutocommitBefore
		after  = sqltrace.FlagAutocommitAfter
		auto   = before | after
	)
	type step struct {
		sql          string
		flags        sqltrace.Flags
		code         int
		gate, commit int64
		lock         bool
		idle         int64
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"idle writer", []step{
			{"BEGIN IMMEDIATE", before, 0, 3, -1, true, -1},
			{"UPDATE o SET s = ? WHERE u = ?", sqltrace.FlagChanges, 0, -1, -1, false, -1},
			{"COMMIT", after, 0, -1, -1, false, 3},
		}},
		{"committer", []step{
			{"BEGIN", before, 0, -1, -1, false, -1},
			{"SELECT max(id) FROM t", 0, 0, 4, -1, false, -1},
			{"INSERT INTO t VALUES (?)", sqltrace.FlagChanges, 0, -1, -1, true, -1},
			{"COMMIT", after, 0, -1, 5, false, -1},
		}},
		{"reads only", []step{
			{"BEGIN", before, 0, -1, -1, false, -1},
			{"SELECT 1", 0, 0, 2, -1, false, -1},
			{"COMMIT", after, 0, -1, -1, false, -1},
			{"select * from t", auto, 0, 2, -1, false, -1},
		}},
		{"autocommit writes", []step{
			{"  delete from t where x = 9", auto, 0, 6, -1, true, 6},
			{"CREATE TABLE u (k)", auto, 0, 6, 7, true, -1},
			{"INSERT INTO t VALUES (1)", auto | sqltrace.FlagChanges, 5, -1, -1, false, -1}, // busy: no lock
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var txn replayTxn
			for i, s := range tt.steps {
				e := sqltrace.Exec{SQL: s.sql, Flags: s.flags, Code: s.code}
				lock, idle := txn.step(&e, s.gate, s.commit)
				if lock != s.lock || idle != s.idle {
					t.Errorf("statement %d (%s): lock %v, idle end %d; want %v, %d", i, s.sql, lock, idle, s.lock, s.idle)
				}
			}
		})
	}
}

// TestBuildDatabases: a replay that picks, by default, a database the
// trace has no snapshot of (an in-memory one) is refused with the
// databases it could replay and --database; one that picks a database
// with a snapshot names the others it does not replay.
func TestBuildDatabases(t *testing.T) {
	trace := func(memory, file, other int) func() (io.ReadCloser, error) {
		var buf bytes.Buffer
		w := snapshotTrace(&buf) // /a.db, with a snapshot
		s := w.Stream(1)
		s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
		s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 2, Path: "/b.db"}})
		for i, n := range []int{file, memory, other} {
			conn, db := uint64(i+1), []uint64{1, 0, 2}[i] // 0: no file, in memory
			s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: conn, DB: db}})
			for j := range n {
				s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: conn, SQL: "SELECT 1", Start: int64(j)}})
			}
		}
		w.Close()
		return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf.Bytes())), nil }
	}
	_, _, err := Build(trace(5, 2, 0), Options{Trace: "/t.trace", Order: workload.ReplayRace})
	if err == nil || !strings.Contains(err.Error(), `"/a.db" (2 statements): give one with --database NAME`) {
		t.Errorf("an in-memory database picked: %v, want the refusal to name /a.db and --database", err)
	}
	_, _, err = Build(trace(5, 0, 0), Options{Trace: "/t.trace", Order: workload.ReplayRace})
	if err == nil || !strings.Contains(err.Error(), "no other database with a snapshot") {
		t.Errorf("only an in-memory database: %v", err)
	}
	r, _, err := Build(trace(1, 5, 3), Options{Trace: "/t.trace", Order: workload.ReplayRace})
	if err != nil {
		t.Fatal(err)
	}
	if r.Database != "/a.db" || !slices.Equal(r.Unreplayed, []string{"(in memory or temporary)", "/b.db"}) {
		t.Errorf("replays %s, not %q; want /a.db, not the in-memory one nor /b.db", r.Database, r.Unreplayed)
	}
}
