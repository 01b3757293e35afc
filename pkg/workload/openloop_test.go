package workload

import (
	"strings"
	"testing"
	"time"
)

func TestOpenLoopValidate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		mutate func(*Plan)
		want   string
	}{
		{func(p *Plan) { p.Rate = -1 }, "rate -1 is out of range"},
		{func(p *Plan) { p.Rate, p.Arrival = 100, "bursty" }, "unknown arrival process"},
		{func(p *Plan) { p.Arrival = ArrivalPoisson }, "set a rate"},
		{func(p *Plan) { p.Rate, p.SkipLate = 100, true }, "positive latency limit"},
		{func(p *Plan) { p.Rate = 100; p.Phases[0].Batch = 10 }, "want batch 1"},
		{func(p *Plan) { p.Rate = 100; p.Phases = CRUD(1, OrderRandom, 1, false) }, "open-loop rates apply to lottery phases"},
		{func(p *Plan) { p.Busy = "sometimes" }, "unknown busy policy"},
		{func(p *Plan) { p.Busy = BusyRetry }, "busy budget 0s is out of range"},
		{func(p *Plan) { p.BusyBudget = Duration(time.Second) }, "applies to the retry policy"},
	} {
		p := testPlan(1)
		tt.mutate(p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}
