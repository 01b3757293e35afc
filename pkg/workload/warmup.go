package workload

import (
	"fmt"
	"strconv"
	"time"
)

// WarmupAuto is the --warmup value that chooses the warm-up after the
// run (Plan.WarmupAuto); ParseWarmup takes only fixed ones.
const WarmupAuto = "auto"

// ParseWarmup reads a warm-up as the command line gives it: a duration
// ("5s") or a count of ops per worker ("1000"). The warm-up deals the
// measured phase's mix; "" is none.
func ParseWarmup(s string, measured Phase) (*Phase, error) {
	if s == "" {
		return nil, nil
	}
	w := Phase{Name: "warmup", Mix: measured.Mix, Batch: measured.Batch}
	if d, err := time.ParseDuration(s); err == nil {
		if d <= 0 {
			return nil, fmt.Errorf("%s is not a positive duration", s)
		}
		w.Duration = Duration(d)
		return &w, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return nil, fmt.Errorf("%q is neither a duration such as 5s nor an op count per worker such as 1000", s)
	}
	w.Ops = n
	return &w, nil
}

// SetWarmup gives every cell its own copy of warm, batched as the cell's
// first phase (each cell warms up as it runs), and validates the cells.
func SetWarmup(cells []*Plan, warm *Phase) error {
	if warm == nil {
		return nil
	}
	for _, c := range cells {
		w := *warm
		w.Batch = c.Phases[0].Batch
		c.Warmup = &w
		if err := c.Validate(); err != nil {
			return err
		}
	}
	return nil
}
