package sqltrace

import (
	"bytes"
	"io"
	"testing"
)

// TestOrderStaleBeginIsNoCommit: in WAL, a BEGIN IMMEDIATE whose snapshot
// another connection's commit made stale takes the write lock, finds the
// index changed and lets the lock go, and the capture recorded the other
// connection's commit (counter 2) as its own. It leaves its transaction
// open, so it committed nothing; and a cursor open across a commit
// recorded that commit too. The database went through 4 states, and the
// read after the counters restart (the last connection closed, the next
// one rebuilt the WAL index) saw the last, state 3. Counting each record
// of a commit numbered 6 states and placed that read at state 5, which
// no commit makes: its replay waited for it until the stall time-out.
func TestOrderStaleBeginIsNoCommit(t *testing.T) {
	const db = "/app.db"
	wal := func(v uint64, at int64) State { return State{Kind: StateWAL, Value: v, At: at} }
	ac := FlagDone | FlagAutocommitBefore | FlagAutocommitAfter
	recs := []Record{
		{Kind: KindDB, DB: DB{ID: 1, Path: db}},
		{Kind: KindOpen, Open: Open{Conn: 1, DB: 1}},
		{Kind: KindOpen, Open: Open{Conn: 2, DB: 1}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "INSERT INTO t VALUES (1)", Start: 100, Flags: ac | FlagChanges, Snap: wal(0, 100), Commit: wal(1, 101)}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "INSERT INTO t VALUES (2)", Start: 200, Flags: ac | FlagChanges, Snap: wal(1, 200), Commit: wal(2, 201)}},
		// conn 2's snapshot was state 1: stale once conn 1 committed 2
		{Kind: KindExec, Exec: Exec{Conn: 2, SQL: "BEGIN IMMEDIATE", Start: 199, Flags: FlagDone | FlagAutocommitBefore, Snap: wal(2, 205), Commit: wal(2, 203)}},
		{Kind: KindExec, Exec: Exec{Conn: 2, SQL: "INSERT INTO t VALUES (3)", Start: 210, Flags: FlagDone | FlagChanges}},
		{Kind: KindExec, Exec: Exec{Conn: 2, SQL: "COMMIT", Start: 220, Flags: FlagDone | FlagAutocommitAfter, Commit: wal(3, 221)}},
		// conn 1's cursor, opened before conn 2's commit and reset after it:
		// the commit made while it ran is recorded on it too
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "SELECT x FROM t", Start: 202, Rows: 1, Flags: FlagAutocommitBefore | FlagAutocommitAfter | FlagReadOnly, Snap: wal(2, 202), Commit: wal(3, 221)}},
		{Kind: KindSegment, Segment: Segment{DB: 1, Time: 300, Reason: SegmentRecovery}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "SELECT count(*) FROM t", Start: 400, Rows: 1, Flags: ac | FlagReadOnly, Snap: wal(0, 400)}},
	}
	b := write(t, recs, nil)
	in, err := Inspect(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil })
	if err != nil {
		t.Fatal(err)
	}
	o := in.Orders[db]
	if o == nil {
		t.Fatalf("no order of %s", db)
	}
	if ok, why := o.Exact(); !ok || o.States() != 4 {
		t.Fatalf("exact %v (%s), %d states; want exact, 4", ok, why, o.States())
	}
	if pos, ok := o.Position(wal(0, 400)); !ok || pos != 3 {
		t.Errorf("the read after the restart at state %d (%v), want 3, the last commit's", pos, ok)
	}
	if (&recs[5].Exec).MadeCommit() || !(&recs[7].Exec).MadeCommit() {
		t.Error("MadeCommit: the BEGIN made one, or the COMMIT none")
	}
}
