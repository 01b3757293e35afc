package capacity

import (
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// The estimate counts the probe, bracketing, bisection to the tolerance
// and the confirmations, each step with its settle.
func TestEstimate(t *testing.T) {
	t.Parallel()
	s := DefaultSpec() // 5 s steps, 1 s settle, 5% tolerance
	steps, d := s.Estimate()
	// probe + 5 bracketing + 5 bisecting (2^5 > 1/0.05) = 11 steps of 6 s,
	// then 3 confirmations of 15 s + 1 s.
	if steps != 14 || d != 11*6*time.Second+3*16*time.Second {
		t.Errorf("Estimate() = %d steps, %v", steps, d)
	}
	s.RateMax, s.Step, s.Settle = 1000, workload.Duration(time.Second), 0
	if steps, d := s.Estimate(); steps != 13 || d != 10*time.Second+3*3*time.Second {
		t.Errorf("bounded: Estimate() = %d steps, %v", steps, d)
	}
}
