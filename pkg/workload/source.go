package workload

import (
	"fmt"
	"strings"
)

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

// mixSource is what the sources of key-value ops share: the kinds are the
// mix's ops, the writes their shares; they describe the key space, the
// values and the mix.
type mixSource struct{}

func (mixSource) Describe(p *Plan, batch bool) string {
	s := fmt.Sprintf("%d keys %s · %d-byte values%s", p.Keys.Count, p.Keys.Distribution, p.ValueSize, phaseLength(p, "ops"))
	if len(p.Roles) > 0 {
		s += " · roles " + p.RolesString()
	} else if len(p.Phases) == 1 {
		s += fmt.Sprintf(" · mix %s", p.Phases[0].Mix)
		if batch {
			s += fmt.Sprintf(" · batch %d", p.Phases[0].Batch)
		}
	}
	return s
}

func (mixSource) Brief(p *Plan) string {
	s := strings.TrimPrefix(phaseLength(p, "ops"), " · ")
	if len(p.Roles) > 0 {
		s += " · roles " + p.RolesString()
	} else if len(p.Phases) == 1 {
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

// lotterySource deals a mix of key-value ops from a seeded deck, on keys
// drawn from the key space.
type lotterySource struct{ mixSource }

func (lotterySource) Name() string { return "lottery" }

// eachSource visits every key of a worker's share once with the phase's
// one op (AccessEach).
type eachSource struct{ mixSource }

func (eachSource) Name() string { return "each key" }

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
