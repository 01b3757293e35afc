package deal

import (
	"fmt"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// NewShared returns what the workers of one host share of plan; a record
// workload's inserts count on c (nil: a counter of the host's own, right
// only when it runs every worker, or no phase inserts).
func NewShared(plan *workload.Plan, c *generator.Counter) *Shared {
	return &Shared{keys: planKeys(plan, c)}
}

// Source is a workload.Source that deals: it gives each worker of a phase
// a Dealer. The sources plan data names (the lottery, each key, records,
// scripts) deal here; a source of another package's (a replayed trace's,
// handed to the workers through Shared.Use) or a library user's own
// (Plan.Custom) is a Source of its own.
type Source interface {
	workload.Source
	// Dealer returns the dealer of worker in run phase number run (an
	// index of p.RunPhases()), drawing on what the workers of one host
	// share (sh, from NewShared).
	Dealer(p *workload.Plan, run, worker int, sh *Shared) (Dealer, error)
}

// Dealer returns the dealer of worker in run phase run of p, by its
// source (the one s uses, if any; see Use).
func (s *Shared) Dealer(p *workload.Plan, run, worker int) (Dealer, error) {
	ph := &p.RunPhases()[run]
	src, err := s.dealing(p, ph)
	var d Dealer
	if err == nil {
		d, err = src.Dealer(p, run, worker, s)
	}
	if err != nil {
		return nil, fmt.Errorf("worker %d: phase %s: %w", worker, ph.Name, err)
	}
	return d, nil
}

// dealing returns the source that deals phase ph of p for the workers
// that share s: the one s uses or p's own, when it deals, else the
// dealing of the built-in source p's data names.
func (s *Shared) dealing(p *workload.Plan, ph *workload.Phase) (Source, error) {
	src := s.source(p, ph)
	if d, ok := src.(Source); ok {
		return d, nil
	}
	if _, owned := src.(workload.Owned); owned || p.Custom != nil || s != nil && s.src != nil {
		return nil, fmt.Errorf("the %s source deals nothing itself: a host's source deals its ops (its workload.Around's Host, then Shared.Use)", src.Name())
	}
	switch {
	case p.Records != nil:
		return recordSource{src}, nil
	case p.SQL != nil:
		return scriptSource{src}, nil
	}
	return lotterySource{src}, nil
}

// lotteryDealer is the Dealer of the sources that deal from a Lottery.
func lotteryDealer(p *workload.Plan, run, worker int, sh *Shared) *Lottery {
	return lotteryOf(p, &p.RunPhases()[run], p.SeedPhase(run), worker, sh.keys)
}

// lotterySource deals a mix of key-value ops from a seeded deck, on keys
// drawn from the key space, or each key of a worker's share once
// (workload.AccessEach).
type lotterySource struct{ workload.Source }

func (lotterySource) Dealer(p *workload.Plan, run, worker int, sh *Shared) (Dealer, error) {
	return lotteryDealer(p, run, worker, sh), nil
}

// recordSource deals YCSB's record ops (see workload.Records).
type recordSource struct{ workload.Source }

func (recordSource) Dealer(p *workload.Plan, run, worker int, sh *Shared) (Dealer, error) {
	if _, ok := sh.keys.(*recShared); !ok {
		return nil, fmt.Errorf("a record workload's dealer needs its shared state (NewShared of a plan with records)")
	}
	return lotteryDealer(p, run, worker, sh), nil
}

// scriptSource deals the user's scripts by weight (see workload.SQL).
type scriptSource struct{ workload.Source }

func (scriptSource) Dealer(p *workload.Plan, run, worker int, sh *Shared) (Dealer, error) {
	scripts, err := p.SQL.Parse()
	if err != nil {
		return nil, err
	}
	d := &scriptDealer{
		Lottery: lotteryDealer(p, run, worker, sh),
		scripts: scripts,
		vars:    sqlscript.NewState(workload.WorkerSeed(p.Seed, worker, p.SeedPhase(run), streamScripts), worker, p.SQL.Scale),
		args:    make([][][]any, len(scripts)),
	}
	for i, sc := range scripts {
		for _, c := range sc.Commands {
			if c.SQL != nil {
				d.args[i] = append(d.args[i], make([]any, len(c.SQL.Params)))
			}
		}
	}
	return d, nil
}

// scriptDealer deals a sql workload's scripts from the weighted deck,
// each with the values its statements bind: its \set lines run in order
// against the worker's variables, each statement's parameters bound to
// the values they have when it comes up. The statements then run with
// those values however often a busy database makes the script start over:
// a retry repeats the same transaction.
type scriptDealer struct {
	*Lottery
	scripts []*sqlscript.Script
	vars    *sqlscript.State
	args    [][][]any // per script, per statement: the values bound
}

// Deal deals the next script, binding its statements' parameters (Args).
// An expression that fails (a division by zero) makes the op fail, with
// class store.Script, when it runs (Err).
func (d *scriptDealer) Deal(dl *Deal) error {
	if err := d.Lottery.Deal(dl); err != nil {
		return err
	}
	i := int(dl.Op - workload.OpScript)
	dl.Args, dl.Err = d.args[i], d.bind(i)
	return nil
}

// bind runs script i's \set lines and binds its statements' parameters.
func (d *scriptDealer) bind(i int) error {
	sc, k := d.scripts[i], 0
	for _, c := range sc.Commands {
		var err error
		if c.Set != nil {
			err = c.Set.Eval(d.vars)
		} else {
			err = c.SQL.Bind(d.vars, d.args[i][k])
			k++
		}
		if err != nil {
			return store.Wrap(store.Script, fmt.Errorf("%s:%d: %w", sc.File, c.Line, err))
		}
	}
	return nil
}

// Compile-time checks that the sources deal.
var (
	_ Source = lotterySource{}
	_ Source = recordSource{}
	_ Source = scriptSource{}
	_ Dealer = (*Lottery)(nil)
	_ Dealer = (*scriptDealer)(nil)
)
