package workload

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Role is a group of a plan's workers that deal a mix of their own, at a
// rate of their own or in closed loop: a service's writers beside its
// readers. Its text form, the --role flag's, is NAME:COUNT:MIX[@RATE],
// such as "writer:3:append=100" or "reader:2:read=90,upsert=10@500".
type Role struct {
	// Name names the role in reports and gates ("reader read p99").
	Name string `json:"name"`
	// Workers is how many workers the role has.
	Workers int `json:"workers"`
	// Mix is what each of its workers deals in every lottery phase.
	Mix Mix `json:"mix"`
	// Rate, when positive, runs the role's workers open-loop at this
	// many ops per second over all of them; zero is closed loop.
	Rate float64 `json:"rate,omitempty"`
}

// roleName is what a role's name may be: a word that cannot be read as
// anything else in a gate.
var roleName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_-]{0,31}$`)

// ParseRole parses a role as the --role flag gives it:
// NAME:COUNT:MIX[@RATE].
func ParseRole(s string) (Role, error) {
	parts := strings.SplitN(strings.TrimSpace(s), ":", 3)
	if len(parts) != 3 {
		return Role{}, fmt.Errorf("role %q: want NAME:COUNT:MIX[@RATE], such as writer:3:append=100 or reader:1:read=100@500", s)
	}
	r := Role{Name: parts[0]}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return Role{}, fmt.Errorf("role %q: worker count %q is not a whole number", s, parts[1])
	}
	r.Workers = n
	mix, rate, paced := strings.Cut(parts[2], "@")
	if paced {
		if r.Rate, err = strconv.ParseFloat(rate, 64); err != nil || strings.ContainsAny(rate, "eEnNiIxXpP_") {
			return Role{}, fmt.Errorf("role %q: rate %q is not a number of ops per second", s, rate)
		}
		if r.Rate <= 0 {
			return Role{}, fmt.Errorf("role %q: rate %v is not positive (leave out @RATE for closed loop)", s, r.Rate)
		}
	}
	if r.Mix, err = ParseMix(mix); err != nil {
		return Role{}, fmt.Errorf("role %q: %w", s, err)
	}
	if err := r.Validate(); err != nil {
		return Role{}, err
	}
	return r, nil
}

// String returns the role's text form, as ParseRole reads it.
func (r Role) String() string {
	s := fmt.Sprintf("%s:%d:%s", r.Name, r.Workers, r.Mix)
	if r.Rate > 0 {
		s += "@" + strconv.FormatFloat(r.Rate, 'f', -1, 64)
	}
	return s
}

// Validate checks the role alone: its name, count, mix and rate.
func (r Role) Validate() error {
	if !roleName.MatchString(r.Name) {
		return fmt.Errorf("role name %q: want a word of letters, digits, - and _ (up to 32, a letter first)", r.Name)
	}
	if _, err := ParseOp(r.Name); err == nil || r.Name == "total" || r.Name == OpBegin.String() || r.Name == OpCommit.String() {
		return fmt.Errorf("role name %q is an op kind's: gates could not tell them apart (name it after what it does, such as writer)", r.Name)
	}
	if r.Workers < 1 || r.Workers > MaxWorkers {
		return fmt.Errorf("role %s: %d workers is out of range (want 1 to %d)", r.Name, r.Workers, MaxWorkers)
	}
	if err := r.Mix.Validate(); err != nil {
		return fmt.Errorf("role %s: %w", r.Name, err)
	}
	for _, op := range r.Mix.Ops() {
		if !slices.Contains(MixOps(), op) {
			return fmt.Errorf("role %s: %v cannot be dealt by a role's mix (want %s)", r.Name, op, MixOpNames)
		}
	}
	if !(r.Rate >= 0 && r.Rate <= MaxRate) {
		return fmt.Errorf("role %s: rate %v is out of range (want up to %g ops/s)", r.Name, r.Rate, MaxRate)
	}
	return nil
}

// RoleOf returns the index in p.Roles of worker's role, or -1 when the
// plan has no roles. Roles take the worker ids in their order: the first
// role's Workers ids from 0, then the next's.
func (p *Plan) RoleOf(worker int) int {
	for i, r := range p.Roles {
		if worker < r.Workers {
			return i
		}
		worker -= r.Workers
	}
	return -1
}

// RoleWorkers returns the ids of role i's workers.
func (p *Plan) RoleWorkers(i int) []int {
	first := 0
	for _, r := range p.Roles[:i] {
		first += r.Workers
	}
	ids := make([]int, p.Roles[i].Workers)
	for j := range ids {
		ids[j] = first + j
	}
	return ids
}

// MixOf returns the mix worker deals in phase ph: its role's in a
// lottery phase of a plan with roles, else the phase's.
func (p *Plan) MixOf(ph *Phase, worker int) Mix {
	if r := p.RoleOf(worker); r >= 0 && ph.Access == AccessLottery {
		return p.Roles[r].Mix
	}
	return ph.Mix
}

// RateOf returns the open-loop rate of worker's ops per second: its
// role's share of the role's rate, or its share of the plan's; zero in
// closed loop.
func (p *Plan) RateOf(worker int) float64 {
	if r := p.RoleOf(worker); r >= 0 {
		return p.Roles[r].Rate / float64(p.Roles[r].Workers)
	}
	return p.Rate / float64(p.Workers())
}

// RolesMix returns the mix of roles over all their workers: each op's
// share the mean of its shares in the roles' mixes, weighted by their
// workers, in steps of MixResolution (each op a role deals at least one
// step, the largest remainders rounded up so that the shares sum to
// 100). A phase of a plan with roles holds it, so that what reads a
// phase's mix (its kinds, its share of writes, its description) reads
// the whole run's.
func RolesMix(roles []Role) Mix {
	total := 0
	units := map[Op]float64{}
	for _, r := range roles {
		total += r.Workers
		ops, steps := r.Mix.Steps()
		for i, op := range ops {
			units[op] += float64(steps[i] * r.Workers)
		}
	}
	if total == 0 {
		return nil
	}
	type share struct {
		op   Op
		n    int
		frac float64
	}
	var shares []share
	sum := 0
	for op, u := range units {
		if u == 0 {
			continue
		}
		exact := u / float64(total)
		n := max(int(math.Floor(exact)), 1)
		shares = append(shares, share{op, n, exact - float64(n)})
		sum += n
	}
	slices.SortFunc(shares, func(a, b share) int {
		if a.frac != b.frac {
			if a.frac > b.frac {
				return -1
			}
			return 1
		}
		return int(a.op) - int(b.op)
	})
	for i := 0; sum != mixUnits && len(shares) > 0; i = (i + 1) % len(shares) {
		switch {
		case sum < mixUnits:
			shares[i].n++
			sum++
		case shares[i].n > 1:
			shares[i].n--
			sum--
		}
	}
	m := Mix{}
	for _, s := range shares {
		m = append(m, Weight{s.op, float64(s.n) / (mixUnits / 100)})
	}
	return canonical(m)
}

// checkRoles checks a plan's roles: each valid, names distinct, their
// workers the plan's, a key-value workload in lottery phases that hold
// the roles' mix, and rates given per role, not for the plan.
func (p *Plan) checkRoles() error {
	if len(p.Roles) == 0 {
		return nil
	}
	seen := map[string]bool{}
	sum := 0
	for _, r := range p.Roles {
		if err := r.Validate(); err != nil {
			return err
		}
		if seen[r.Name] {
			return fmt.Errorf("role %s is named twice", r.Name)
		}
		seen[r.Name] = true
		sum += r.Workers
	}
	switch {
	case sum != p.Workers():
		return fmt.Errorf("the roles have %d workers, the plan %d (procs × goroutines): with roles, the roles' counts set the workers", sum, p.Workers())
	case p.Records != nil || p.SQL != nil || p.Replay != nil || p.Custom != nil:
		return errors.New("roles deal key-value mixes: a record, sql or replayed workload has none")
	case p.Rate > 0:
		return errors.New("a rate for the whole plan and roles both given: give each role its own rate (NAME:COUNT:MIX@RATE)")
	}
	want := RolesMix(p.Roles).String()
	for _, ph := range p.RunPhases() {
		if ph.Access == AccessLottery && ph.Mix.String() != want {
			return fmt.Errorf("phase %s deals %s, not its roles' mix %s", ph.Name, ph.Mix, want)
		}
		if p.RolesPaced() && ph.Batch != 1 {
			return fmt.Errorf("phase %s: an open-loop schedule times single ops, not batches of %d (want batch 1)", ph.Name, ph.Batch)
		}
	}
	return nil
}

// RolesPaced reports whether a role has a rate: its workers run open
// loop.
func (p *Plan) RolesPaced() bool {
	return slices.ContainsFunc(p.Roles, func(r Role) bool { return r.Rate > 0 })
}

// RoleNames returns the names of p's roles, in order.
func (p *Plan) RoleNames() []string {
	var out []string
	for _, r := range p.Roles {
		out = append(out, r.Name)
	}
	return out
}

// RolesString returns the plan's roles in their text form, joined by
// spaces.
func (p *Plan) RolesString() string {
	rs := Roles(p.Roles)
	return rs.String()
}

// Roles is a list of roles as repeated --role flags give it: each Set
// appends one. It implements flag.Value.
type Roles []Role

// Set parses one role and appends it.
func (rs *Roles) Set(s string) error {
	r, err := ParseRole(s)
	if err != nil {
		return err
	}
	*rs = append(*rs, r)
	return nil
}

// String returns the roles' text forms, joined by spaces.
func (rs *Roles) String() string {
	var out []string
	for _, r := range *rs {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}

// Type names the flag's value type in help output.
func (rs *Roles) Type() string { return "role" }

// Workers returns the roles' workers in all.
func (rs Roles) Workers() int {
	n := 0
	for _, r := range rs {
		n += r.Workers
	}
	return n
}

// Append parses one role and appends it (a repeatable flag's value, as
// pflag's SliceValue).
func (rs *Roles) Append(s string) error { return rs.Set(s) }

// Replace replaces the roles with those of ss.
func (rs *Roles) Replace(ss []string) error {
	var out Roles
	for _, s := range ss {
		if err := out.Set(s); err != nil {
			return err
		}
	}
	*rs = out
	return nil
}

// GetSlice returns the roles' text forms.
func (rs *Roles) GetSlice() []string {
	var out []string
	for _, r := range *rs {
		out = append(out, r.String())
	}
	return out
}
