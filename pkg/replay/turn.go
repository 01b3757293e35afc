package replay

import (
	"fmt"
	"strings"
)

// Turn is what a worker of a replay in the order of commits is doing, as
// it says in the order's shared memory, so that a worker that finds the
// order stalled can name every connection and what it waits for.
type Turn int64

// The turns: nothing said (no statement under way), waiting to begin a
// transaction at a state, to take the write lock at a state, to commit
// the state after one, or running a statement the order let run (in
// SQLite: its busy handler waits there for a lock).
const (
	TurnNone Turn = iota
	TurnBegin
	TurnLock
	TurnCommit
	TurnRunning
)

// SetTurn says what worker, replaying connection conn of captured
// process stream, is doing, at state k; a worker outside the order's
// says nothing.
func (o *Order) SetTurn(worker int, stream, conn uint64, what Turn, k int64) {
	if worker < 0 || worker >= len(o.turns) {
		return
	}
	t := &o.turns[worker]
	t.what.Store(int64(TurnNone)) // a reader never sees one field of the last turn and one of this
	t.stream.Store(int64(stream))
	t.conn.Store(int64(conn))
	t.state.Store(k)
	t.what.Store(int64(what))
}

// Turn returns what worker says it is doing: the connection, what, and
// at which state.
func (o *Order) Turn(worker int) (stream, conn uint64, what Turn, k int64) {
	if worker < 0 || worker >= len(o.turns) {
		return 0, 0, TurnNone, -1
	}
	t := &o.turns[worker]
	return uint64(t.stream.Load()), uint64(t.conn.Load()), Turn(t.what.Load()), t.state.Load()
}

// running reports whether a worker is running a statement the order let
// run: it may wait in SQLite's busy handler, which its busy time-out
// ends, so the order is not stalled while it does.
func (o *Order) running() bool {
	for w := range o.turns {
		if Turn(o.turns[w].what.Load()) == TurnRunning {
			return true
		}
	}
	return false
}

// Stuck describes, on one line, where the order stands and what each
// connection waits for: the message of a replay in the order of commits
// that cannot go on.
func (o *Order) Stuck() string {
	var waits []string
	for w := range o.turns {
		stream, conn, what, k := o.Turn(w)
		name := fmt.Sprintf("process %d's connection %d", stream, conn)
		switch what {
		case TurnBegin:
			waits = append(waits, fmt.Sprintf("%s to begin at state %d", name, k))
		case TurnLock:
			waits = append(waits, fmt.Sprintf("%s to take the write lock for commit %d (%d transactions that took it at state %d and committed nothing yet to end)", name, k+1, o.Idle(k), k))
		case TurnCommit:
			waits = append(waits, fmt.Sprintf("%s to make commit %d (%d statements that began at state %d yet to run)", name, k+1, o.Pending(k), k))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "state %d of %d reached", o.Reached(), o.States()-1)
	if len(waits) > 0 {
		fmt.Fprintf(&b, "; waiting: %s", strings.Join(waits, ", "))
	}
	return b.String()
}
