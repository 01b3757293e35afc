package workload

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Weight is one op's share of a mix, in percent, in steps of
// MixResolution (a record workload's proportions, such as YCSB's 0.3333,
// are not whole percents); a script's share is its weight (see SQL.Mix).
type Weight struct {
	Op      Op
	Percent float64
}

// MixResolution is the finest step of a share in a mix, in percent: a
// deck deals shares exactly, and holds as many cards as the shares'
// greatest common divisor in these steps divides 100 into (at most a
// million).
const MixResolution = 0.0001

// mixUnits is 100 percent in steps of MixResolution.
const mixUnits = 1_000_000

// units returns a share in steps of MixResolution, and false when it is
// not a whole number of them.
func units(pct float64) (int, bool) {
	u := math.Round(pct / MixResolution)
	return int(u), math.Abs(pct/MixResolution-u) < 1e-6 && !math.IsInf(pct, 0)
}

// Mix is a set of ops with their shares in percent, summing to 100. Its
// text form, used by the --mix flag and in JSON, is "read=95,upsert=5".
// The order of the entries does not matter: the lottery always deals from
// the canonical order (see MixOps), so "upsert=5,read=95" deals the same
// sequence.
type Mix []Weight

// DefaultMix returns the classic 95% read / 5% upsert mix.
func DefaultMix() Mix { return Mix{{OpRead, 95}, {OpUpsert, 5}} }

// ParseMix parses a mix spec such as "read=95,upsert=5".
func ParseMix(s string) (Mix, error) {
	var m Mix
	if err := m.Set(s); err != nil {
		return nil, err
	}
	return m, nil
}

// WriteMix returns the mix of reads and upserts with writePct percent
// upserts, the --write-pct shorthand.
func WriteMix(writePct int) (Mix, error) {
	if writePct < 0 || writePct > 100 {
		return nil, fmt.Errorf("write percentage %d is out of range (want 0 to 100)", writePct)
	}
	return canonical(Mix{{OpRead, float64(100 - writePct)}, {OpUpsert, float64(writePct)}}), nil
}

// Set parses s into m, replacing its contents. It implements flag.Value.
func (m *Mix) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return errors.New("empty mix (want for example read=95,upsert=5)")
	}
	var out Mix
	for part := range strings.SplitSeq(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return fmt.Errorf("mix entry %q has no '=' (want op=percent, for example read=95)", part)
		}
		op, err := ParseOp(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("mix entry %q: %w", part, err)
		}
		num := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "%"))
		pct, err := strconv.ParseFloat(num, 64)
		if _, whole := units(pct); err != nil || !whole || strings.ContainsAny(num, "eEnNiIxXpP_") {
			return fmt.Errorf("mix entry %q: percent is not a number in steps of %g (such as 95 or 33.3333)", part, MixResolution)
		}
		out = append(out, Weight{op, pct})
	}
	out = canonical(out)
	if err := out.Validate(); err != nil {
		return err
	}
	*m = out
	return nil
}

// String returns the canonical text form, for example "read=95,upsert=5".
func (m Mix) String() string {
	var b strings.Builder
	for i, w := range canonical(m) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%s", w.Op, strconv.FormatFloat(w.Percent, 'f', -1, 64))
	}
	return b.String()
}

// Type names the flag's value type in help output.
func (m *Mix) Type() string { return "mix" }

// MarshalText encodes the mix in its canonical text form.
func (m Mix) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes and validates a mix from its text form.
func (m *Mix) UnmarshalText(b []byte) error { return m.Set(string(b)) }

// Validate checks that every op is a mix op and appears once, no share is
// negative, and the shares sum to 100. A mix of a sql workload's scripts
// holds their weights instead (see SQL.Mix): each 1 to MaxScriptWeight,
// with any sum.
func (m Mix) Validate() error {
	if len(m) == 0 {
		return errors.New("empty mix (want for example read=95,upsert=5)")
	}
	if m[0].Op.IsScript() {
		return m.validateScripts()
	}
	if m[0].Op.IsStatement() {
		return m.validateStatements()
	}
	sum := 0
	seen := map[Op]bool{}
	for _, w := range m {
		u, whole := units(w.Percent)
		if !w.Op.IsData() {
			return fmt.Errorf("mix names %v, which is not a data op", w.Op)
		}
		if seen[w.Op] {
			return fmt.Errorf("mix names %v twice", w.Op)
		}
		seen[w.Op] = true
		if !(w.Percent >= 0 && w.Percent <= 100) || !whole {
			return fmt.Errorf("mix share %v=%v is out of range (want 0 to 100, in steps of %g)", w.Op, w.Percent, MixResolution)
		}
		sum += u
	}
	if sum != mixUnits {
		return fmt.Errorf("mix %s sums to %v, not 100", m, float64(sum)*MixResolution)
	}
	return nil
}

// Ops returns the ops with a share above zero, in canonical order.
func (m Mix) Ops() []Op {
	var ops []Op
	for _, w := range canonical(m) {
		if w.Percent > 0 {
			ops = append(ops, w.Op)
		}
	}
	return ops
}

// Steps returns the ops of a validated mix and their shares in steps of
// MixResolution, in canonical order (see MixOps): what a deck of its ops
// holds.
func (m Mix) Steps() (ops []Op, steps []int) {
	for _, w := range canonical(m) {
		u, _ := units(w.Percent) // validated
		ops, steps = append(ops, w.Op), append(steps, u)
	}
	return ops, steps
}

// canonical returns the mix sorted by op value.
func canonical(m Mix) Mix {
	c := slices.Clone(m)
	slices.SortStableFunc(c, func(a, b Weight) int { return int(a.Op) - int(b.Op) })
	return c
}

// validateScripts checks a mix of scripts and their weights.
func (m Mix) validateScripts() error {
	seen := map[Op]bool{}
	for _, w := range m {
		if !w.Op.IsScript() {
			return fmt.Errorf("mix names %v among scripts: a mix deals key-value ops or scripts, not both", w.Op)
		}
		if seen[w.Op] {
			return fmt.Errorf("mix names %v twice", w.Op)
		}
		seen[w.Op] = true
		if w.Percent < 1 || w.Percent > MaxScriptWeight || w.Percent != math.Trunc(w.Percent) {
			return fmt.Errorf("script weight %v=%v is out of range (want a whole number from 1 to %d)", w.Op, w.Percent, MaxScriptWeight)
		}
	}
	return nil
}

// validateStatements checks a mix of a replayed trace's statements: how
// often each ran (see Replay).
func (m Mix) validateStatements() error {
	seen := map[Op]bool{}
	for _, w := range m {
		if !w.Op.IsStatement() {
			return fmt.Errorf("mix names %v among a trace's statements", w.Op)
		}
		if seen[w.Op] {
			return fmt.Errorf("mix names %v twice", w.Op)
		}
		seen[w.Op] = true
		if w.Percent < 1 || w.Percent != math.Trunc(w.Percent) || w.Percent > 1<<53 {
			return fmt.Errorf("statement count %v=%v is out of range (want a whole number of 1 or more)", w.Op, w.Percent)
		}
	}
	return nil
}

// Share returns op's share of the mix, in percent (0 when absent).
func (m Mix) Share(op Op) float64 {
	for _, w := range m {
		if w.Op == op {
			return w.Percent
		}
	}
	return 0
}

// MaxScriptWeight bounds a script's weight, and so the deck's size.
const MaxScriptWeight = 1000
