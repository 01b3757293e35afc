package replay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// stepClock is a workload.Waiter whose time moves only as its waiter
// sleeps: a wait for a turn that never comes ends in a stall at once,
// whatever the machine's load.
type stepClock struct{ now int64 }

func (c *stepClock) Now() int64 { return c.now }

func (c *stepClock) SleepUntil(t int64) bool {
	c.now = max(c.now, t)
	return true
}

// TestReplayCursorAcrossOwnCommit: a connection kept a cursor open (its
// statement began at state 0) across its own transaction, which made
// state 1, and the trace records the cursor's statement when it was
// reset, after the commit. The commit waits for state 0's statements to
// run, the cursor's among them, which comes after it on the same
// connection: each waited for the other until the stall time-out. The
// statement now runs in no turn of its own, and the replay ends as the
// capture did.
func TestReplayCursorAcrossOwnCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	begin := sqltrace.FlagDone | sqltrace.FlagAutocommitBefore | sqltrace.FlagReadOnly
	end := sqltrace.FlagDone | sqltrace.FlagAutocommitAfter | sqltrace.FlagReadOnly
	app := traceConn{stream: 1, conn: 1, execs: []sqltrace.Exec{
		{SQL: "BEGIN IMMEDIATE", Start: 11, Flags: begin, Snap: seq(0)},
		{SQL: "INSERT INTO t (x) VALUES (?)", Start: 12, Params: []sqltrace.Value{{Type: sqltrace.ValueInt, Int: 2}}, Changes: 1, Flags: sqltrace.FlagDone | sqltrace.FlagChanges},
		{SQL: "COMMIT", Start: 13, Flags: end, Commit: seq(1)},
		// the cursor, opened at 10 on state 0, one row of two read, reset at 14
		{SQL: "SELECT x FROM t ORDER BY x", Start: 10, Rows: 1, Flags: sqltrace.FlagAutocommitBefore | sqltrace.FlagAutocommitAfter | sqltrace.FlagReadOnly, Snap: seq(0)},
	}}
	reader := traceConn{stream: 2, conn: 1, execs: []sqltrace.Exec{
		{SQL: "SELECT count(*) FROM t", Start: 20, Rows: 1, Flags: done | sqltrace.FlagReadOnly, Snap: seq(1)},
	}}
	trace := writeTrace(t, dir, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (3);",
		[]traceConn{app, reader}, "INSERT INTO t VALUES (2)")
	p := replayPlan(t, dir, trace, 0, workload.ReplayCommit)
	p.Replay.Stall = 2 * time.Second
	replaysToEnd(t, p, 5)
}

// TestReplayOrderStalledSays: a commit whose state's statements never run
// (their connection waits elsewhere) fails the wait once the order made
// no progress for the stall time-out, on one line naming each waiting
// connection, what it waits for and the commit; progress anywhere in
// the order restarts the time-out.
func TestReplayOrderStalledSays(t *testing.T) {
	o, err := newOrder(5, 3)
	if err != nil {
		t.Fatal(err)
	}
	o.Count(2) // a statement that begins at state 2, of a connection that never gets there
	o.Committed(2)
	// the connection that holds it waits to begin a transaction at state 4
	o.SetTurn(1, 3, 9, TurnBegin, 4)
	g := &commitOrder{o: o, worker: 0, stream: 2, conn: 5, stall: 10 * time.Second}
	clock := &stepClock{}
	steps, movedAt := 0, int64(0)
	ready := func() bool {
		if steps++; steps == 1000 {
			o.Ran(0) // progress elsewhere: the time-out starts again
			movedAt = clock.now
		}
		return false
	}
	ok, err := g.waitFor(clock, TurnCommit, 2, ready)
	if ok || !errors.Is(err, ErrOrderStalled) {
		t.Fatalf("waitFor = %v, %v; want the order stalled", ok, err)
	}
	msg := err.Error()
	for _, want := range []string{
		"no statement ran in its turn for 10s",
		"state 2 of 4 reached",
		"process 2's connection 5 to make commit 3 (1 statements that began at state 2 yet to run)",
		"process 3's connection 9 to begin at state 4",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("the message is not one line:\n%s", msg)
	}
	if movedAt == 0 || clock.now-movedAt <= int64(10*time.Second) {
		t.Errorf("the wait failed at %v, the order progressed at %v: the 10s time-out should have started again then", time.Duration(clock.now), time.Duration(movedAt))
	}
	// while another worker runs a statement (in SQLite's busy handler,
	// say), the order is not stalled
	o.SetTurn(2, 4, 1, TurnRunning, 2)
	clock.now, steps = 0, 0
	ready = func() bool {
		steps++
		if clock.now > int64(time.Minute) {
			o.SetTurn(2, 4, 1, TurnNone, -1) // its statement ended; nothing ran in its turn
		}
		return false
	}
	if ok, err := g.waitFor(clock, TurnCommit, 2, ready); ok || !errors.Is(err, ErrOrderStalled) || clock.now < int64(70*time.Second) {
		t.Errorf("waitFor = %v, %v at %v; want the order stalled 10s after the running statement ended at 1m", ok, err, time.Duration(clock.now))
	}
	if _, _, what, _ := o.Turn(0); what != TurnNone {
		t.Errorf("the worker still says it waits (%d) after the wait ended", what)
	}
}
