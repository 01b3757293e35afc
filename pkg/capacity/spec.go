package capacity

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// DefaultSettle is how long each step runs at its rate, unmeasured, before
// it is measured.
const DefaultSettle = time.Second

// Spec is a capacity search as a plan file keeps it: plain data that
// --find-rate writes (with --dry-run) and `gobench run` reads back.
type Spec struct {
	// Objectives are the latency objectives every step must meet, as
	// --find-rate reads them: "upsert p99 <= 20ms, read p99 <= 2ms".
	Objectives string `json:"objectives"`
	// RateMax, when positive, bounds the search instead of a closed-loop
	// probe.
	RateMax float64 `json:"rate_max,omitempty"`
	// Tolerance ends the bisection (see Search.Tolerance).
	Tolerance float64 `json:"tolerance"`
	// Step is the measured length of each step; Settle runs before it.
	Step   workload.Duration `json:"step"`
	Settle workload.Duration `json:"settle"`
	// MaxErrorShare is the share of a step's ops that may fail.
	MaxErrorShare float64 `json:"max_error_share"`
}

// DefaultSpec returns the search's defaults, with objectives to fill.
func DefaultSpec() Spec {
	return Spec{Tolerance: DefaultTolerance, Step: workload.Duration(DefaultStep), Settle: workload.Duration(DefaultSettle),
		MaxErrorShare: DefaultMaxErrorShare}
}

// Validate checks the spec as the command line checks its flags: errors
// name the flag.
func (s Spec) Validate() error {
	if _, err := ParseObjectives(s.Objectives); err != nil {
		return fmt.Errorf("--find-rate: %w", err)
	}
	switch {
	case !(s.Tolerance > 0 && s.Tolerance < 1):
		return fmt.Errorf("--tolerance %g: want a share between 0 and 1, such as 0.05", s.Tolerance)
	case time.Duration(s.Step) < 100*time.Millisecond || s.Settle < 0:
		return errors.New("--step-duration must be at least 100ms and --settle not negative")
	case !(s.MaxErrorShare >= 0 && s.MaxErrorShare < 1):
		return fmt.Errorf("--max-errors %g: want a share between 0 and 1, such as 0.01", s.MaxErrorShare)
	case !(s.RateMax >= 0 && s.RateMax <= workload.MaxRate) || math.IsInf(s.RateMax, 0):
		return fmt.Errorf("--rate-max %g is out of range (want 0 to %g)", s.RateMax, float64(workload.MaxRate))
	}
	return nil
}

// Search returns the search the spec describes, without its Run: the
// objectives parsed, the implicit conditions at their defaults.
func (s Spec) Search() (Search, error) {
	if err := s.Validate(); err != nil {
		return Search{}, err
	}
	obj, _ := ParseObjectives(s.Objectives)
	return Search{Objectives: obj, RateMax: s.RateMax, Tolerance: s.Tolerance, Step: time.Duration(s.Step),
		MaxErrorShare: s.MaxErrorShare, MinAchieved: DefaultMinAchieved, ConfirmFactor: DefaultConfirmFactor,
		Confirmations: DefaultConfirmations}, nil
}

// Estimate is how long a typical search of one cell takes: the
// closed-loop probe (unless RateMax bounds it), about five steps to
// bracket the rate from the probe's sixteenth, as many to bisect to a 5%
// tolerance (more for a finer one), and the confirmations, each step
// after its settle. A search that fails confirmations steps down and runs
// them again, and takes longer.
func (s Spec) Estimate() (steps int, d time.Duration) {
	step, settle := time.Duration(s.Step), time.Duration(s.Settle)
	bisect := max(1, int(math.Ceil(math.Log2(1/max(s.Tolerance, 1e-3)))))
	steps = 5 + bisect
	if s.RateMax <= 0 {
		steps++ // the probe
	}
	d = time.Duration(steps) * (step + settle)
	d += time.Duration(DefaultConfirmations) * (time.Duration(DefaultConfirmFactor)*step + settle)
	return steps + DefaultConfirmations, d
}
