package workload

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Weight is one op's share of a mix, in percent; a script's share is its
// weight (see SQL.Mix).
type Weight struct {
	Op      Op
	Percent int
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
	return canonical(Mix{{OpRead, 100 - writePct}, {OpUpsert, writePct}}), nil
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
		pct, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "%")))
		if err != nil {
			return fmt.Errorf("mix entry %q: percent is not a whole number", part)
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
		fmt.Fprintf(&b, "%s=%d", w.Op, w.Percent)
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
	sum := 0
	seen := map[Op]bool{}
	for _, w := range m {
		if !w.Op.IsData() {
			return fmt.Errorf("mix names %v, which is not a data op", w.Op)
		}
		if seen[w.Op] {
			return fmt.Errorf("mix names %v twice", w.Op)
		}
		seen[w.Op] = true
		if w.Percent < 0 || w.Percent > 100 {
			return fmt.Errorf("mix share %v=%d is out of range (want 0 to 100)", w.Op, w.Percent)
		}
		sum += w.Percent
	}
	if sum != 100 {
		return fmt.Errorf("mix %s sums to %d, not 100", m, sum)
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
		if w.Percent < 1 || w.Percent > MaxScriptWeight {
			return fmt.Errorf("script weight %v=%d is out of range (want 1 to %d)", w.Op, w.Percent, MaxScriptWeight)
		}
	}
	return nil
}
