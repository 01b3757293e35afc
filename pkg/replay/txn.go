package replay

import (
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// replayTxn follows one captured connection's transactions through its
// statements, in their order, for the order of commits: the state each
// began at, whether one of its statements took the write lock, and
// whether it committed. The setup (CountGates) and the connection's
// dealer step through the same statements with it, so that the idle
// writers one counts are the ones the other ends.
type replayTxn struct {
	open   bool  // a statement began a transaction that none has ended
	gate   int64 // the state it began at; -1 while not known
	writer bool  // one of its statements took the write lock
	commit bool  // one of its statements committed
	// floor is the latest state the connection's statements so far
	// waited for or made (kept across its transactions).
	floor int64
}

// place returns where captured statement e stands in the order of
// commits (GateOf), but for a statement that began its transaction at a
// state the connection had already left behind: one whose record comes
// after statements of its connection that waited for a later state or
// made one (a cursor the application kept open across them, reset only
// then). Its connection cannot wait for that state again, and a commit
// after it would wait for it to run (each waiting for the other), so it
// runs in no turn of its own.
func (t *replayTxn) place(table sqltrace.OrderTable, e *sqltrace.Exec) (gate, commit int64) {
	gate, commit = GateOf(table, e)
	if gate >= 0 && gate < t.floor {
		gate = -1
	}
	t.floor = max(t.floor, gate, commit)
	return gate, commit
}

// step notes statement e, whose gate and commit are GateOf's. firstLock
// says it is the first statement of its transaction to take the write
// lock; idleEnd, if not -1, that it ended a transaction that took the
// write lock at state idleEnd (where it began: a writer cannot begin
// before a commit and write after it) and committed nothing.
func (t *replayTxn) step(e *sqltrace.Exec, gate, commit int64) (firstLock bool, idleEnd int64) {
	if !t.open || e.Flags&sqltrace.FlagAutocommitBefore != 0 {
		*t = replayTxn{open: true, gate: -1, floor: t.floor}
	}
	if t.gate < 0 {
		t.gate = gate
	}
	if !t.writer && takesWriteLock(e) {
		t.writer, firstLock = true, true
	}
	if commit > 0 {
		t.commit = true
	}
	idleEnd = -1
	if e.Flags&sqltrace.FlagAutocommitAfter != 0 {
		if t.writer && !t.commit && t.gate >= 0 {
			idleEnd = t.gate
		}
		t.open = false
	}
	return firstLock, idleEnd
}

// writeKeywords begin the statements that write, and so take the write
// lock, whether or not they change a row.
var writeKeywords = []string{"insert", "update", "delete", "replace", "create", "drop", "alter", "reindex"}

// takesWriteLock reports whether a captured statement took the
// database's write lock: it changed rows (or is a statement that
// counts them), writes the schema, or is a BEGIN IMMEDIATE or EXCLUSIVE;
// and it did not find the database busy.
func takesWriteLock(e *sqltrace.Exec) bool {
	if busyCode(e.Code) {
		return false
	}
	if e.Flags&sqltrace.FlagChanges != 0 {
		return true
	}
	words := strings.Fields(strings.ToLower(prefix(e.SQL, 40)))
	if len(words) == 0 {
		return false
	}
	if words[0] == "begin" {
		return len(words) > 1 && (words[1] == "immediate" || words[1] == "exclusive")
	}
	for _, k := range writeKeywords {
		if words[0] == k {
			return true
		}
	}
	return false
}

// prefix returns s's first n bytes, or s.
func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
