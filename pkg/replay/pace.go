package replay

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/deal"
)

// The pacers of a replay (Source.Pacer): its statements' recorded
// due times at a speed, and their turns in the order of commits.

// recordedDue paces a replay at a speed: each statement is due when the
// trace says, scaled (Statement.Due).
type recordedDue struct{}

func (recordedDue) Next() (int64, bool) { return -1, true }

func (recordedDue) Wait(c deal.Waiter, d *deal.Deal, _ int64) (int64, bool, error) {
	due := d.Action.(*Statement).Due
	if due < 0 {
		return -1, true, nil
	}
	return due, c.SleepUntil(due), nil
}

func (recordedDue) Ran(*deal.Deal) {}

// ReplayStall is how long a replay in the order of commits waits for its
// turn with no progress anywhere before it fails, when the plan does not
// say (workload.Replay.Stall): the statement whose turn comes before
// cannot run.
const ReplayStall = 2 * time.Minute

// commitOrder is the gate of a replay in the order of commits: a
// statement runs when its turn comes in the run's shared order (see
// awaitTurn), and the order learns what it did once it ran. While it
// waits, and while the statement it let run runs, its worker says so in
// the order (Order.SetTurn), for the message of a stalled order.
type commitOrder struct {
	o *Order
	// worker is the worker's id, and stream and conn its connection's.
	worker       int
	stream, conn uint64
	// stall is the plan's (or ReplayStall); ranEarly says the statement
	// let run counted itself as run (see awaitTurn).
	stall    time.Duration
	ranEarly bool
}

func (*commitOrder) Next() (int64, bool) { return -1, true }

func (g *commitOrder) Wait(c deal.Waiter, d *deal.Deal, due int64) (int64, bool, error) {
	rd := d.Action.(*Statement)
	ok, err := g.awaitTurn(c, rd)
	if ok && err == nil {
		g.o.SetTurn(g.worker, g.stream, g.conn, TurnRunning, max(rd.Gate, rd.Commit-1))
	}
	return due, ok, err
}

func (g *commitOrder) Ran(d *deal.Deal) {
	rd, o := d.Action.(*Statement), g.o
	o.SetTurn(g.worker, g.stream, g.conn, TurnNone, -1)
	if rd.Gate >= 0 && !g.ranEarly {
		o.Ran(rd.Gate)
	}
	if rd.Commit >= 0 {
		o.Committed(rd.Commit)
	}
	if rd.IdleEnd >= 0 {
		o.IdleEnded(rd.IdleEnd)
	}
}

// awaitTurn waits until the statement's turn in the order of commits: a
// statement that begins a transaction at state k once the database reached
// k; one that takes the write lock for a commit at state l once it
// reached l and every transaction that took the lock at l and committed
// nothing ended; a commit that makes state c once it reached c-1 and
// every statement that begins a transaction at c-1 ran. A commit that
// begins its own transaction (an autocommit write) counts itself as run
// first (ranEarly). ok is false when the run stopped first.
func (g *commitOrder) awaitTurn(c deal.Waiter, rd *Statement) (ok bool, err error) {
	o := g.o
	g.ranEarly = false
	if rd.Gate >= 0 {
		if ok, err := g.waitFor(c, TurnBegin, rd.Gate, func() bool { return o.Reached() >= rd.Gate }); !ok || err != nil {
			return ok, err
		}
	}
	if l := rd.Lock; l >= 0 {
		if ok, err := g.waitFor(c, TurnLock, l, func() bool { return o.Reached() >= l && o.Idle(l) <= 0 }); !ok || err != nil {
			return ok, err
		}
	}
	if rd.Commit < 0 {
		return true, nil
	}
	pre := rd.Commit - 1
	if rd.Gate == pre {
		o.Ran(pre)
		g.ranEarly = true
	}
	return g.waitFor(c, TurnCommit, pre, func() bool { return o.Reached() >= pre && o.Pending(pre) <= 0 })
}

// ErrOrderStalled is the error of a replay in the order of commits that
// made no progress for its stall time-out: the statement whose turn
// comes first cannot run (its connection waits, in its own turn or in
// SQLite, for one that waits for it).
var ErrOrderStalled = errors.New("the replay cannot keep the captured order of commits")

// waitFor waits until ready, sleeping a little longer each time up to a
// millisecond, having said in the order what it waits for (what, at
// state k); with no progress of the order (Order.Progress) for the stall
// time-out, and no statement running all that time, it fails, naming
// what every connection waits for.
func (g *commitOrder) waitFor(c deal.Waiter, what Turn, k int64, ready func() bool) (bool, error) {
	o, stall := g.o, g.stall
	if stall <= 0 {
		stall = ReplayStall
	}
	if ready() {
		return true, nil
	}
	o.SetTurn(g.worker, g.stream, g.conn, what, k)
	defer o.SetTurn(g.worker, g.stream, g.conn, TurnNone, -1)
	nap := 10 * time.Microsecond
	last, since := o.Progress(), c.Now()
	for !ready() {
		now := c.Now()
		if !c.SleepUntil(now + int64(nap)) {
			return false, nil
		}
		nap = min(2*nap, time.Millisecond)
		if cur := o.Progress(); cur != last || o.running() {
			last, since = cur, now
		} else if time.Duration(now-since) > stall {
			return false, fmt.Errorf("%w: no statement ran in its turn for %v: %s", ErrOrderStalled, stall, o.Stuck())
		}
	}
	return true, nil
}

// Compile-time checks that the replay's pacers are Pacers, its source
// Paced and its statements Actions.
var (
	_ deal.Pacer  = recordedDue{}
	_ deal.Pacer  = (*commitOrder)(nil)
	_ deal.Paced  = (*Source)(nil)
	_ deal.Action = (*Statement)(nil)
)
