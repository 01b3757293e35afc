package workload

import "testing"

// TestStatementMix: a replay's mix of statement kinds reads back from its
// text form, as plans travel.
func TestStatementMix(t *testing.T) {
	m := Mix{{StatementOp(0), 800}, {StatementOp(3), 1}}
	got, err := ParseMix(m.String())
	if err != nil || got.String() != m.String() {
		t.Fatalf("%s read back as %v, %v", m, got, err)
	}
	if _, err := ParseMix("statement#0=1,read=99"); err == nil {
		t.Error("a mix of statements and key-value ops was taken")
	}
}

// TestPlanTimed: a plan's ops have due times in an open loop at a rate,
// and in a replay at a speed (its source is Timed), not back to back.
func TestPlanTimed(t *testing.T) {
	for _, tt := range []struct {
		name string
		plan func(p *Plan)
		want bool
	}{
		{"closed loop", func(*Plan) {}, false},
		{"rate", func(p *Plan) { p.Rate = 100 }, true},
		{"replay back to back", func(p *Plan) { p.Replay = &Replay{Speed: 0} }, false},
		{"replay at a speed", func(p *Plan) { p.Replay = &Replay{Speed: 2} }, true},
	} {
		p := DefaultPlan()
		tt.plan(&p)
		if got := p.Timed(); got != tt.want {
			t.Errorf("%s: Timed %v, want %v", tt.name, got, tt.want)
		}
	}
}
