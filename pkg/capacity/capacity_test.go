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

// model is an engine of known capacity, as a step would measure it: it
// completes at most capacity ops/s, each in service; offered more, its
// queue grows for the whole step, and an op waits behind it. Above jump
// ops/s (when set) its latency leaps to 50 ms whatever the queue. It runs
// no clock: each step's figures follow from the rate alone.
type model struct {
	capacity float64
	service  time.Duration
	jump     float64
	// failConfirm fails this many confirmations (long steps) before
	// behaving; failLong fails the long steps of these numbers (from 1).
	failConfirm int
	failLong    map[int]bool
	longs       int
	// probe, when set, is what the closed-loop probe achieves (a mix
	// whose reads run far faster than its writes can be sustained).
	probe float64
	steps []float64
}

func (m *model) run(_ context.Context, rate float64, length time.Duration) (*result.Result, error) {
	m.steps = append(m.steps, rate)
	secs := length.Seconds()
	lat := m.service
	done := rate
	switch {
	case rate == 0: // the closed-loop probe: as fast as it goes
		done = max(m.capacity, m.probe)
	case rate > m.capacity:
		done = m.capacity
		// The op at the 99th percentile of the step waits behind the
		// backlog that built up before it.
		lat += time.Duration(0.99 * secs * (rate - m.capacity) / m.capacity * float64(time.Second))
	}
	if m.jump > 0 && rate >= m.jump {
		lat = 50 * time.Millisecond
	}
	if length > DefaultStep {
		m.longs++
		if m.failConfirm > 0 || m.failLong[m.longs] {
			m.failConfirm--
			lat = time.Second
		}
	}
	p := workload.DefaultPlan()
	p.Driver, p.Rate = "null", rate
	us := float64(lat) / 1e3
	ops := result.OpStats{Kind: "upsert", Latency: result.Latency{Count: int64(done * secs), P50Micros: us / 2, P99Micros: us, MaxMicros: 2 * us}}
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
// latency that leaps at a known rate is found below that rate; a rate
// the objective never meets is said; a failed confirmation steps down.
func TestFind(t *testing.T) {
	for _, tt := range []struct {
		name       string
		m          *model
		objective  string
		lo, hi     float64 // the rate found must be in [lo, hi]
		found      bool
		confirmed  int // confirmation steps run (three at the rate found)
		firstRates []float64
		ceiling    float64 // 1000 when zero
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
		})
	}
}

// Every step is judged by the objectives and the two implicit conditions;
// a step that completes too few of its ops, or fails too many, is not met
// even with its latency in budget.
func TestJudge(t *testing.T) {
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

// A step that cannot run ends the search with the steps so far.
func TestFindKeepsStepsOnError(t *testing.T) {
	m := &model{capacity: 1000, service: time.Millisecond}
	s := search(t, m, "upsert p99 <= 5ms")
	broken := errors.New("interrupted")
	s.Run = func(ctx context.Context, rate float64, d time.Duration) (*result.Result, error) {
		if len(m.steps) == 4 {
			return nil, broken
		}
		return m.run(ctx, rate, d)
	}
	c, err := s.Find(context.Background())
	if !errors.Is(err, broken) || c.Complete || len(c.Steps) != 3 || c.Found {
		t.Fatalf("error %v, complete %v, %d steps, found %v", err, c.Complete, len(c.Steps), c.Found)
	}
}

func TestParseObjectives(t *testing.T) {
	if o, err := ParseObjectives("upsert p99 <= 5ms, read p50 < 1ms"); err != nil || len(o) != 2 || o[1].Limit != 1000 {
		t.Fatalf("%+v, %v", o, err)
	}
	for in, want := range map[string]string{
		"":                                  "no objective",
		"upsert ops/s >= 500":               "judge latency",
		"wal: upsert p99 <= 5ms":            "no cells",
		"upsert p99: wal <= 0.5x rollback":  "no cells",
		"upsert p99 <= 5":                   "latency with its unit",
		"upsert p99 <= 5ms, read p98 < 1ms": "metric",
	} {
		if _, err := ParseObjectives(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseObjectives(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// With Workers set, the search goes no lower than ten ops per worker a
// step: 4 workers and 5 s steps stop it above 8 ops/s.
func TestFindFloor(t *testing.T) {
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
