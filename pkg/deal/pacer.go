package deal

import (
	"errors"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Pacer says when a worker runs each op its dealer deals: the Source says
// what runs, the pacer when (as pebble's replay keeps its Pacer beside
// what it replays). Nil is the closed loop: each op as soon as the last
// one ended. Others are an open loop at a rate (Plan.Rate: Schedule), a
// trace's recorded due times, a gate that waits for an op's turn, and
// Pacers of several in turn. A worker asks Next before it deals an op,
// Wait once it is dealt, and tells Ran once it ran; one goroutine uses a
// Pacer (which may share state with other workers', as an order of
// commits does). Times are nanoseconds from the phase's START.
type Pacer interface {
	// Next returns the next op's due time when the pacer knows it before
	// the op is dealt (an open-loop schedule), or -1; more is false when
	// the phase's ops are over (the schedule passed its duration).
	Next() (due int64, more bool)
	// Wait waits on c until the op dealt (d), due at due (-1: none yet),
	// may run, and returns its due time (-1: none, the op runs when
	// ready). ok is false when the run stopped while it waited; an error
	// stops the worker.
	Wait(c Waiter, d *Deal, due int64) (at int64, ok bool, err error)
	// Ran tells the pacer that op d, which Wait let run, ran.
	Ran(d *Deal)
}

// Waiter is a worker's clock as a Pacer waits on it, in nanoseconds from
// the phase's START.
type Waiter interface {
	// Now returns the time.
	Now() int64
	// SleepUntil returns true once the time reached t, or false if the
	// run stopped first.
	SleepUntil(t int64) bool
}

// Paced is a Source whose ops come with a pace of their own (a trace's
// due times, its order of commits): Plan.Pacer asks it for each
// worker's, unless the plan sets a rate.
type Paced interface {
	// Pacer returns worker's pacer in run phase number run, drawing on
	// what the workers of one host share; nil is the closed loop.
	Pacer(p *workload.Plan, run, worker int, sh *Shared) (Pacer, error)
}

// Pacer returns the pacer of worker in run phase run of p: the open-loop
// schedule of a plan with a rate (or of a role with one, in a lottery
// phase), the pace of a Paced source (the one sh
// uses, if any), else nil (the closed loop).
func (sh *Shared) Pacer(p *workload.Plan, run, worker int) (Pacer, error) {
	ph := &p.RunPhases()[run]
	if p.Rate > 0 || p.RateOf(worker) > 0 && ph.Access == workload.AccessLottery {
		return &openLoop{s: NewSchedule(p, run, worker), end: int64(ph.Duration)}, nil
	}
	if ps, ok := sh.source(p, ph).(Paced); ok {
		pc, err := ps.Pacer(p, run, worker, sh)
		if err != nil {
			return nil, fmt.Errorf("worker %d: phase %s: %w", worker, ph.Name, err)
		}
		return pc, nil
	}
	return nil, nil
}

// openLoop paces ops at a rate: each is due when its Schedule says, and
// the schedule ends with a phase of a duration.
type openLoop struct {
	s   *Schedule
	end int64 // the phase's duration; 0: its op count ends it
}

func (o *openLoop) Next() (int64, bool) {
	d := o.s.Next()
	return d, o.end <= 0 || d < o.end
}

func (o *openLoop) Wait(c Waiter, _ *Deal, due int64) (int64, bool, error) {
	return due, c.SleepUntil(due), nil
}

func (o *openLoop) Ran(*Deal) {}

// Pacers returns a pacer that paces by each of ps in turn: the first's
// due time before the deal, then each one's wait; nil ones are left out,
// and none at all is the closed loop (nil).
func Pacers(ps ...Pacer) Pacer {
	var c chain
	for _, p := range ps {
		if p != nil {
			c = append(c, p)
		}
	}
	switch len(c) {
	case 0:
		return nil
	case 1:
		return c[0]
	}
	return c
}

// chain is Pacers' pacer of several.
type chain []Pacer

func (c chain) Next() (int64, bool) { return c[0].Next() }

func (c chain) Wait(w Waiter, d *Deal, due int64) (int64, bool, error) {
	for _, p := range c {
		var ok bool
		var err error
		if due, ok, err = p.Wait(w, d, due); !ok || err != nil {
			return due, ok, err
		}
	}
	return due, true, nil
}

func (c chain) Ran(d *Deal) {
	for _, p := range c {
		p.Ran(d)
	}
}

// Action is an op its source runs itself on the worker's connection
// (Deal.Action), such as a replayed trace's statement: the worker paces
// it, clocks it and records its sample, as it does any op.
type Action interface {
	// Run runs the op on conn and returns the flags its sample carries
	// besides the worker's own (a statement that did something else than
	// when captured is FlagDiverged), and its error. An error of class
	// store.ErrInvalid (the op cannot run as given: bad input) stops the
	// worker whatever the plan's error policy.
	Run(conn store.Conn) (workload.SampleFlags, error)
}

// ErrDealt is what a Dealer's Deal returns when it has no op left for
// its worker: the worker's phase ends there, with no error.
var ErrDealt = errors.New("no op left to deal")

// Compile-time checks that the pacers are Pacers.
var (
	_ Pacer = (*openLoop)(nil)
	_ Pacer = chain(nil)
)
