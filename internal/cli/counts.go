package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/units"
)

// countValue is a count flag that reads counts as people write them
// (units.ParseCount: 10k, 1.5M, 4Ki), bound to an integer of the plan.
type countValue[T int | int64 | uint64] struct{ p *T }

// newCount binds a count flag to p, whose value is the default.
func newCount[T int | int64 | uint64](p *T) countValue[T] { return countValue[T]{p} }

func (c countValue[T]) Set(s string) error {
	n, err := units.ParseCount(s)
	if err != nil {
		return err
	}
	v := T(n)
	if v < 0 || uint64(v) != n {
		return fmt.Errorf("%q is too large", s)
	}
	*c.p = v
	return nil
}

func (c countValue[T]) String() string { return fmt.Sprint(*c.p) }

// Type names the value in help.
func (c countValue[T]) Type() string { return "count" }

// rateValue is a rate flag (ops per second) that reads rates as people
// write them (units.ParseRate: 500, 2k, 1.5M).
type rateValue struct{ p *float64 }

func (r rateValue) Set(s string) error {
	v, err := units.ParseRate(s)
	if err != nil {
		return err
	}
	*r.p = v
	return nil
}

func (r rateValue) String() string { return strconv.FormatFloat(*r.p, 'g', -1, 64) }

// Type names the value in help; float64, as the checks of float flags
// (finiteFloats) know it.
func (r rateValue) Type() string { return "float64" }

// shareValue is a float flag holding a share of a whole, given as 5% or
// 0.05 (units.ParseShare) and shown as a percentage; set, if not nil, is
// set when the flag is given (0% given is not the same as none).
type shareValue struct {
	p   *float64
	set *bool
}

func (s shareValue) Set(v string) error {
	f, err := units.ParseShare(v)
	if err != nil {
		return err
	}
	*s.p = f
	if s.set != nil {
		*s.set = true
	}
	return nil
}

func (s shareValue) String() string { return strconv.FormatFloat(*s.p*100, 'g', -1, 64) + "%" }

// Type names the value in help.
func (s shareValue) Type() string { return "share" }

// statsValue is --stats: the latency statistics a run's table lists per
// op kind (judge.LatencyStats), as pkg/judge's table of figures names
// them; a name that is none is refused when the flag is parsed.
type statsValue struct{ p *[]string }

func (s statsValue) Set(v string) error {
	figs, err := judge.LatencyStats(strings.Split(v, ","))
	if err != nil {
		return err
	}
	*s.p = (*s.p)[:0]
	for _, f := range figs {
		*s.p = append(*s.p, f.Name)
	}
	return nil
}

func (s statsValue) String() string { return strings.Join(*s.p, ",") }

// Type names the value in help.
func (s statsValue) Type() string { return "list" }

// statsUsage is --stats's help: its default and what it takes, from the
// table of figures.
func statsUsage() string {
	return "the latency statistics a run's table lists per op kind, in order, in text, markdown, CSV, HTML and benchfmt: " + judge.LatencyStatsHelp() +
		" (default: each format's own; text's " + strings.Join(judge.DefaultLatencyStats, ",") + ")"
}
