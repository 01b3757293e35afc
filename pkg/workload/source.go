package workload

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload/generator"
)

// NewShared returns what the workers of one host share of plan; a record
// workload's inserts count on c (nil: a counter of the host's own, right
// only when it runs every worker, or no phase inserts).
func NewShared(plan *Plan, c *generator.Counter) *Shared {
	return &Shared{keys: planKeys(plan, c)}
}

// Source returns the source of phase ph of p: p.Custom when set, else the
// one p's data names (a registered source that owns it, records, scripts,
// each key, or the lottery).
func (p *Plan) Source(ph *Phase) Source {
	if p.Custom != nil {
		return p.Custom
	}
	if o := p.owned(); o != nil {
		return o
	}
	switch {
	case p.Records != nil:
		return recordSource{}
	case p.SQL != nil:
		return scriptSource{}
	case ph.Access == AccessEach:
		return eachSource{}
	}
	return lotterySource{}
}

// Kinds returns the op kinds phase ph can deal, by its source.
func (p *Plan) Kinds(ph *Phase) []Op { return p.Source(ph).Kinds(p, ph) }

// Describe says in one line what p's phases deal, by the first phase's
// source (see Source.Describe).
func (p *Plan) Describe(batch bool) string {
	if len(p.Phases) == 0 {
		return "no phases"
	}
	return p.Source(&p.Phases[0]).Describe(p, batch)
}

// Brief says what p's phases dealt, shorter, by the first phase's source
// (see Source.Brief).
func (p *Plan) Brief() string {
	if len(p.Phases) == 0 {
		return "no phases"
	}
	return p.Source(&p.Phases[0]).Brief(p)
}

// Dealer returns the dealer of worker in run phase run, by its source (the
// one sh uses, if any; see Shared.Use).
func (p *Plan) Dealer(run, worker int, sh *Shared) (Dealer, error) {
	ph := &p.RunPhases()[run]
	d, err := sh.source(p, ph).Dealer(p, run, worker, sh)
	if err != nil {
		return nil, fmt.Errorf("worker %d: phase %s: %w", worker, ph.Name, err)
	}
	return d, nil
}

// mixSource is what the sources of key-value ops share: the kinds are the
// mix's ops, the writes their shares; they describe the key space, the
// values and the mix.
type mixSource struct{}

func (mixSource) Describe(p *Plan, batch bool) string {
	s := fmt.Sprintf("%d keys %s · %d-byte values%s", p.Keys.Count, p.Keys.Distribution, p.ValueSize, phaseLength(p, "ops"))
	if len(p.Phases) == 1 {
		s += fmt.Sprintf(" · mix %s", p.Phases[0].Mix)
		if batch {
			s += fmt.Sprintf(" · batch %d", p.Phases[0].Batch)
		}
	}
	return s
}

func (mixSource) Brief(p *Plan) string {
	s := strings.TrimPrefix(phaseLength(p, "ops"), " · ")
	if len(p.Phases) == 1 {
		s += " · mix " + p.Phases[0].Mix.String()
	}
	return s
}

func (mixSource) Kinds(_ *Plan, ph *Phase) []Op { return ph.Mix.Ops() }

func (mixSource) Writes(_ *Plan, ph *Phase) float64 {
	var writes, total float64
	for _, w := range ph.Mix {
		if w.Op.IsWrite() {
			writes += w.Percent
		}
		total += w.Percent
	}
	if total == 0 {
		return 0
	}
	return writes / total
}

// lotteryDealer is the Dealer of the sources that deal from a Lottery.
func lotteryDealer(p *Plan, run, worker int, sh *Shared) *Lottery {
	return lotteryOf(p, &p.RunPhases()[run], p.seedPhase(run), worker, sh.keys)
}

// lotterySource deals a mix of key-value ops from a seeded deck, on keys
// drawn from the key space.
type lotterySource struct{ mixSource }

func (lotterySource) Name() string { return "lottery" }

func (lotterySource) Dealer(p *Plan, run, worker int, sh *Shared) (Dealer, error) {
	return lotteryDealer(p, run, worker, sh), nil
}

// eachSource visits every key of a worker's share once with the phase's
// one op (AccessEach).
type eachSource struct{ mixSource }

func (eachSource) Name() string { return "each key" }

func (eachSource) Dealer(p *Plan, run, worker int, sh *Shared) (Dealer, error) {
	return lotteryDealer(p, run, worker, sh), nil
}

// phaseLength is " · N ops/worker" or " · D/worker" for a plan of one
// phase, " · N phases" for more.
func phaseLength(p *Plan, unit string) string {
	switch {
	case len(p.Phases) != 1:
		return fmt.Sprintf(" · %d phases", len(p.Phases))
	case p.Phases[0].Ops > 0:
		return fmt.Sprintf(" · %d %s/worker", p.Phases[0].Ops, unit)
	}
	return fmt.Sprintf(" · %v/worker", p.Phases[0].Duration)
}

// recordSource deals YCSB's record ops (see Records).
type recordSource struct{ mixSource }

func (recordSource) Name() string { return "records" }

func (recordSource) Dealer(p *Plan, run, worker int, sh *Shared) (Dealer, error) {
	if _, ok := sh.keys.(*recShared); !ok {
		return nil, fmt.Errorf("a record workload's dealer needs its shared state (NewShared of a plan with records)")
	}
	return lotteryDealer(p, run, worker, sh), nil
}

// scriptSource deals the user's scripts by weight (see SQL).
type scriptSource struct{}

func (scriptSource) Name() string { return "scripts" }

func (scriptSource) Kinds(_ *Plan, ph *Phase) []Op { return ph.Mix.Ops() }

// Writes counts the scripts that may write (SQL.Scripts[i].MayWrite), by
// weight.
func (scriptSource) Writes(p *Plan, ph *Phase) float64 {
	var writes, total float64
	for _, w := range ph.Mix {
		if i := int(w.Op - OpScript); w.Op.IsScript() && i < len(p.SQL.Scripts) && p.SQL.Scripts[i].mayWrite() {
			writes += w.Percent
		}
		total += w.Percent
	}
	if total == 0 {
		return 0
	}
	return writes / total
}

func (scriptSource) Brief(p *Plan) string { return scriptSource{}.Describe(p, false) }

func (scriptSource) Describe(p *Plan, _ bool) string {
	names := p.OpNames()
	var scripts []string
	for i, src := range p.SQL.Scripts {
		scripts = append(scripts, fmt.Sprintf("%s@%d", names[ScriptOp(i)], src.Weight))
	}
	return fmt.Sprintf("scripts %s · scale %d%s", strings.Join(scripts, ", "), p.SQL.Scale, phaseLength(p, "scripts"))
}

func (scriptSource) Dealer(p *Plan, run, worker int, sh *Shared) (Dealer, error) {
	scripts, err := p.SQL.Parse()
	if err != nil {
		return nil, err
	}
	d := &scriptDealer{
		Lottery: lotteryDealer(p, run, worker, sh),
		scripts: scripts,
		vars:    sqlscript.NewState(WorkerSeed(p.Seed, worker, p.seedPhase(run), streamScripts), worker, p.SQL.Scale),
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
	i := int(dl.Op - OpScript)
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

// Compile-time checks that the sources are Sources.
var (
	_ Source = lotterySource{}
	_ Source = eachSource{}
	_ Source = recordSource{}
	_ Source = scriptSource{}
	_ Dealer = (*Lottery)(nil)
	_ Dealer = (*scriptDealer)(nil)
)
