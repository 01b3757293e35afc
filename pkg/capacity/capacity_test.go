package capacity

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// model is an engine of known capacity as a step would measure it. It
// runs no clock: each step's figures follow from the offered rate alone,
// so a whole search runs in microseconds.
//
// Offered up to capacity ops/s, it completes every op in service.
// Offered more, it completes capacity ops/s; an engine that queues (the
// default) makes every op wait behind the backlog that built up before
// it, so the op at the 99th percentile waits 0.99 of the step times the
// excess over capacity, while one that sheds (shed) keeps its latency
// and simply never runs the rest. From jump ops/s (when set) every op
// takes 50 ms; from errorsFrom ops/s (when set) errorShare of the ops
// fail busy.
type model struct {
	capacity   float64
	service    time.Duration
	shed       bool
	jump       float64
	errorsFrom float64
	errorShare float64
	// failConfirm fails this many confirmations (long steps) before
	// behaving; failLong fails the long steps of these numbers (from 1).
	failConfirm int
	failLong    map[int]bool
	longs       int
	// longKnee, when set, fails every long step offered more: an engine
	// whose stalls (a checkpoint, a journal sync) a short step escapes
	// and a long one does not.
	longKnee float64
	// probe, when set, is what the closed-loop probe achieves (a mix
	// whose reads run far faster than its writes can be sustained).
	probe float64
	steps []float64
}

func (m *model) run(ctx context.Context, rate float64, length time.Duration) (*result.Result, error) {
	m.steps = append(m.steps, rate)
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted: a real step returns at once
	}
	secs := length.Seconds()
	lat := m.service
	done := rate
	switch {
	case rate == 0: // the closed-loop probe: as fast as it goes
		done = max(m.capacity, m.probe)
	case rate > m.capacity:
		done = m.capacity
		if !m.shed {
			lat += time.Duration(0.99 * secs * (rate - m.capacity) / m.capacity * float64(time.Second))
		}
	}
	if m.jump > 0 && rate >= m.jump {
		lat = 50 * time.Millisecond
	}
	if length > DefaultStep {
		m.longs++
		if m.failConfirm > 0 || m.failLong[m.longs] || (m.longKnee > 0 && rate > m.longKnee) {
			m.failConfirm--
			lat = time.Second
		}
	}
	p := workload.DefaultPlan()
	p.Driver, p.Rate = "null", rate
	us := float64(lat) / 1e3
	count := int64(done * secs)
	ops := result.OpStats{Kind: "upsert", Latency: result.Latency{Count: count, P50Micros: us / 2, P99Micros: us, MaxMicros: 2 * us}}
	if m.errorsFrom > 0 && rate >= m.errorsFrom {
		failed := int64(m.errorShare * float64(count))
		ops.Errors = result.Errors{Total: failed, Busy: failed}
	}
	total := ops
	total.Kind = "total"
	return &result.Result{Plan: p, Complete: true, Environment: result.Environment{OS: "model"},
		Phases: []result.Phase{{Name: "mix", WallSeconds: secs, Ops: []result.OpStats{ops}, Total: total}}}, nil
}

func search(t *testing.T, m *model, objective string) Search {
	t.Helper()
	obj, err := ParseObjectives(objective)
	if err != nil {
		t.Fatal(err)
	}
	return Search{Objectives: obj, Run: m.run}
}

// The search finds a known capacity within the tolerance, from below; a
// latency that leaps at a known rate is found below that rate; so is a
// rate from which too many ops fail, and one past which the engine
// completes too few of the ops offered with its latency in budget; a rate
// the objective never meets is said; a failed confirmation steps down.
func TestFind(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name       string
		m          *model
		objective  string
		lo, hi     float64 // the rate found must be in [lo, hi]
		found      bool
		confirmed  int // confirmation steps run (three at the rate found)
		firstRates []float64
		ceiling    float64 // 1000 when zero
		// failsOn, when set, is what every step not met failed: the
		// verdicts it failed all contain it, and no other did.
		failsOn string
	}{
		{name: "capacity", m: &model{capacity: 1000, service: time.Millisecond}, objective: "upsert p99 <= 5ms",
			lo: 1000 / 1.05, hi: 1000, found: true, confirmed: 3, firstRates: []float64{0, 1000.0 / 16, 1000.0 / 8}},
		{name: "jump", m: &model{capacity: 1000, service: time.Millisecond, jump: 600}, objective: "upsert p99 <= 20ms, total p50 <= 20ms",
			lo: 600 / 1.05, hi: 600, found: true, confirmed: 3},
		{name: "the ceiling meets it", m: &model{capacity: 1000, service: time.Millisecond}, objective: "upsert p99 <= 1s",
			lo: 1000, hi: 1000, found: true, confirmed: 3},
		{name: "never", m: &model{capacity: 1000, service: 10 * time.Millisecond}, objective: "upsert p99 <= 5ms",
			found: false, confirmed: 0, firstRates: []float64{0, 1000.0 / 16, 1000.0 / 32, 1000.0 / 64}},
		{name: "below the first rate", m: &model{capacity: 1000, service: time.Millisecond, probe: 64000}, objective: "upsert p99 <= 5ms",
			lo: 1000 / 1.05, hi: 1000, found: true, confirmed: 3, firstRates: []float64{0, 4000, 2000, 1000}, ceiling: 64000},
		{name: "confirmation fails twice", m: &model{capacity: 1000, service: time.Millisecond, failConfirm: 2}, objective: "upsert p99 <= 5ms",
			lo: 1000 / 1.05 * 0.95 * 0.95, hi: 1000 * 0.95 * 0.95, found: true, confirmed: 5},
		{name: "errors", m: &model{capacity: 1000, service: time.Millisecond, errorsFrom: 600, errorShare: 0.02}, objective: "upsert p99 <= 5ms",
			lo: 600 / 1.05, hi: 599.999, found: true, confirmed: 3, failsOn: "errors <= 1% of ops"},
		{name: "achieved rate", m: &model{capacity: 1000, service: time.Millisecond, shed: true, probe: 4000}, objective: "upsert p99 <= 5ms",
			lo: 1000 / 0.95 / 1.05, hi: 1000 / 0.95, found: true, confirmed: 3, ceiling: 4000,
			firstRates: []float64{0, 250, 500, 1000, 2000}, failsOn: "achieved rate >= 95% of offered"},
		{name: "the second confirmation fails", m: &model{capacity: 1000, service: time.Millisecond, failLong: map[int]bool{2: true}}, objective: "upsert p99 <= 5ms",
			lo: 1000 / 1.05 * 0.95, hi: 1000 * 0.95, found: true, confirmed: 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := search(t, tt.m, tt.objective).Find(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			confirmations := 0
			for _, st := range c.Steps {
				if st.Confirmation {
					confirmations++
				}
			}
			t.Logf("rates tried: %.1f; found %v at %.1f", tt.m.steps, c.Found, c.Rate)
			if tt.ceiling == 0 {
				tt.ceiling = 1000
			}
			if c.Found != tt.found || confirmations != tt.confirmed || !c.Complete || c.Ceiling != tt.ceiling {
				t.Fatalf("found %v after %d confirmations, complete %v, ceiling %v; want found %v after %d", c.Found, confirmations, c.Complete, c.Ceiling, tt.found, tt.confirmed)
			}
			if tt.found && (c.Rate < tt.lo-1e-9 || c.Rate > tt.hi+1e-9 || c.Confirmed == nil || !c.Confirmed.Met || c.Confirmed.Offered != c.Rate) {
				t.Fatalf("rate %.2f (confirmed %+v), want %.2f to %.2f", c.Rate, c.Confirmed, tt.lo, tt.hi)
			}
			for i, r := range tt.firstRates {
				if i >= len(tt.m.steps) || tt.m.steps[i] != r {
					t.Fatalf("rates tried %v, want them to begin %v", tt.m.steps, tt.firstRates)
				}
			}
			if len(c.Steps) != len(tt.m.steps)-1 {
				t.Errorf("%d steps recorded for %d runs after the probe", len(c.Steps), len(tt.m.steps)-1)
			}
			unmet := 0
			for _, st := range c.Steps {
				if st.Met || tt.failsOn == "" {
					continue
				}
				unmet++
				for _, v := range st.Verdicts {
					if v.Pass == strings.Contains(v.Expression, tt.failsOn) {
						t.Errorf("step at %.1f ops/s: verdict %q, want only %q to fail", st.Offered, v.Verdict, tt.failsOn)
					}
				}
			}
			if tt.failsOn != "" && unmet == 0 {
				t.Errorf("no step failed %q", tt.failsOn)
			}
		})
	}
}

// Confirmations that fail far below the bisected rate: the search of
// rollback at 135–238 ops/s, whose single steps met from 135 to 238 while
// its long confirmations failed above ~180. Stepping down 5% a round, six
// rounds, it gave up at 183 ops/s and said no rate met, not even 135.
// The steps down widen after three, and the rate that holds is bisected
// up to within the tolerance of the lowest that failed; a search whose
// confirmations hold nowhere says so, not that nothing met.
func TestFindConfirmationsFarBelow(t *testing.T) {
	t.Parallel()
	m := &model{capacity: 240, service: time.Millisecond, probe: 16 * 270, longKnee: 180}
	c, err := search(t, m, "upsert p99 <= 5ms").Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rates tried: %.1f", m.steps)
	if want := []float64{0, 270, 135}; !slices.Equal(m.steps[:3], want) {
		t.Fatalf("rates tried %v, want them to begin %v", m.steps, want)
	}
	var metUpTo float64
	for _, st := range c.Steps {
		if st.Met && !st.Confirmation {
			metUpTo = max(metUpTo, st.Offered)
		}
	}
	if metUpTo < 230 || metUpTo > 240 {
		t.Fatalf("single steps met up to %.1f ops/s, want the bisection to reach 230–240", metUpTo)
	}
	if !c.Found || c.Rate > 180 || c.Rate < 180*(1-DefaultTolerance) || c.Confirmed == nil || c.Confirmed.Offered != c.Rate {
		t.Fatalf("found %v at %.1f ops/s, want a rate confirmed within %g of 180", c.Found, c.Rate, DefaultTolerance)
	}
	if c.NotFound() != "" {
		t.Errorf("a found rate says %q", c.NotFound())
	}

	m = &model{capacity: 240, service: time.Millisecond, probe: 16 * 270, longKnee: 0.5}
	c, err = search(t, m, "upsert p99 <= 5ms").Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	confirmations := 0
	for _, st := range c.Steps {
		if st.Confirmation {
			confirmations++
		}
	}
	if c.Found || confirmations == 0 || confirmations > maxConfirmations {
		t.Fatalf("found %v after %d confirmation steps: want none found, and at most %d", c.Found, confirmations, maxConfirmations)
	}
	if why := c.NotFound(); !strings.Contains(why, "single steps met up to 23") || !strings.Contains(why, "confirm") {
		t.Errorf("why none was found: %q", why)
	}
}

// Every step is judged by the objectives and the two implicit conditions;
// a step that completes too few of its ops, or fails too many, is not met
// even with its latency in budget.
func TestJudge(t *testing.T) {
	t.Parallel()
	m := &model{capacity: 1000, service: time.Millisecond}
	s := search(t, m, "upsert p99 <= 1s").withDefaults()
	f := &finder{s: s}
	r, _ := m.run(context.Background(), 500, time.Second)
	st, err := f.judge(r, 500)
	if err != nil || !st.Met || len(st.Verdicts) != 3 {
		t.Fatalf("%+v, %v", st, err)
	}
	st, _ = f.judge(r, 600) // offered 600, completed 500
	if st.Met || st.Verdicts[1].Pass || !strings.HasPrefix(st.Verdicts[1].Verdict, "NOT met: achieved rate >= 95% of offered") {
		t.Fatalf("a step that completed 83%% of its offer: %+v", st.Verdicts)
	}
	r.Phases[0].Total.Errors.Total = 6 // of 500
	st, _ = f.judge(r, 500)
	if st.Met || st.Verdicts[2].Pass {
		t.Fatalf("1.2%% of ops failed: %+v", st.Verdicts)
	}
}

// An interrupt (the context cancelled while a step runs, as the first
// SIGINT does) ends the search at once, wherever it is: the error says
// which step it stopped, the curve keeps the steps judged before it,
// marked incomplete, and nothing runs after it.
func TestFindInterrupted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		at    func(rate float64, length time.Duration, runs int) bool // the run the interrupt lands in
		runs  int                                                     // runs begun, the interrupted one included
		steps int                                                     // steps judged
		says  string
	}{
		{"the probe", func(rate float64, _ time.Duration, _ int) bool { return rate == 0 }, 1, 0, "the closed-loop probe"},
		{"a step", func(_ float64, _ time.Duration, runs int) bool { return runs == 4 }, 5, 3, "the step at 500 ops/s"},
		{"a confirmation", func(_ float64, length time.Duration, _ int) bool { return length > DefaultStep }, 0, 0, "the step at"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := &model{capacity: 1000, service: time.Millisecond}
			s := search(t, m, "upsert p99 <= 5ms")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.Run = func(ctx context.Context, rate float64, length time.Duration) (*result.Result, error) {
				if tt.at(rate, length, len(m.steps)) {
					cancel()
				}
				return m.run(ctx, rate, length)
			}
			c, err := s.Find(ctx)
			if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), tt.says) {
				t.Fatalf("error %v, want the interrupt in %s", err, tt.says)
			}
			if tt.runs == 0 { // a confirmation: every run before it was judged
				tt.runs, tt.steps = len(m.steps), len(m.steps)-2
			}
			if c.Complete || c.Found || len(c.Problems) != 1 || len(m.steps) != tt.runs || len(c.Steps) != tt.steps {
				t.Fatalf("complete %v, found %v, problems %v, %d runs and %d steps; want %d runs and %d steps",
					c.Complete, c.Found, c.Problems, len(m.steps), len(c.Steps), tt.runs, tt.steps)
			}
			for _, st := range c.Steps {
				if st.Confirmation {
					t.Errorf("a confirmation was judged: %+v", st)
				}
			}
		})
	}
}

func TestParseObjectives(t *testing.T) {
	t.Parallel()
	if o, err := ParseObjectives("upsert p99 <= 5ms, read p50 < 1ms"); err != nil || len(o) != 2 || o[1].Limit != 1000 {
		t.Fatalf("%+v, %v", o, err)
	}
	for in, want := range map[string]string{
		"":                                   "no objective",
		"upsert ops/s >= 500":                "judge latency",
		"wal: upsert p99 <= 5ms":             "no cells",
		"upsert p99: wal <= 0.5x rollback":   "no cells",
		"upsert p99 <= 5":                    "latency with its unit",
		"upsert p99 <= 5ms, read p100 < 1ms": "metric",
		"foo":                                "want 'NAME STATISTIC OP LIMIT'",
	} {
		if _, err := ParseObjectives(in); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "--expect") {
			t.Errorf("ParseObjectives(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// With Workers set, the search goes no lower than ten ops per worker a
// step: 4 workers and 5 s steps stop it above 8 ops/s.
func TestFindFloor(t *testing.T) {
	t.Parallel()
	m := &model{capacity: 1000, service: 10 * time.Millisecond}
	s := search(t, m, "upsert p99 <= 5ms")
	s.Workers = 4
	c, err := s.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 62.5, 31.25, 15.625}; c.Found || !slices.Equal(m.steps, want) {
		t.Fatalf("found %v after rates %v; want nothing found after %v", c.Found, m.steps, want)
	}
}
