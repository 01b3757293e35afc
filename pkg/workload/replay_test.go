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
// not in the closed loop (a replay's at a speed: package replay's test).
func TestPlanTimed(t *testing.T) {
	for _, tt := range []struct {
		name string
		plan func(p *Plan)
		want bool
	}{
		{"closed loop", func(*Plan) {}, false},
		{"rate", func(p *Plan) { p.Rate = 100 }, true},
	} {
		p := DefaultPlan()
		tt.plan(&p)
		if got := p.Timed(); got != tt.want {
			t.Errorf("%s: Timed %v, want %v", tt.name, got, tt.want)
		}
	}
}

// silentSource is an owned source that owns no plan.
type silentSource struct{ lotterySource }

func (silentSource) Name() string                  { return "silent" }
func (silentSource) Owns(*Plan) bool               { return false }
func (silentSource) Check(*Plan) error             { return nil }
func (silentSource) Unplace(*Plan)                 {}
func (silentSource) OpNames(*Plan, *[MaxOp]string) {}
func (silentSource) Recorded() bool                { return false }

// TestRegisterSourceTwice: a second source of one name is a programmer's
// error, refused at once; a registered source that owns no plan changes
// none.
func TestRegisterSourceTwice(t *testing.T) {
	RegisterSource(silentSource{})
	defer func() {
		if recover() == nil {
			t.Error("a second source named silent was registered")
		}
	}()
	p := DefaultPlan()
	p.Driver = "sqlite"
	if p.Source(&p.Phases[0]).Name() != "lottery" || p.Validate() != nil {
		t.Error("a source that owns no plan took one")
	}
	RegisterSource(silentSource{})
}
