package judge

import (
	"strings"
	"testing"
)

// Capacity gates read each cell's confirmed rate; a cell without one
// fails.
func TestCapacityGates(t *testing.T) {
	c := loadCapacityFixture(t)
	for _, tt := range []struct {
		gate string
		pass []bool
	}{
		{"sustainable rate: wal >= 3x rollback", []bool{true}},
		{"sustainable rate: wal >= 6x rollback", []bool{false}},
		{"sustainable rate >= 4k", []bool{true, true}},
		{"wal: sustainable rate >= 31k", []bool{false}},
	} {
		g, err := ParseCapacityGate(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		gates, err := EvaluateCapacity(c, []Expectation{g})
		if err != nil {
			t.Fatal(err)
		}
		if len(gates) != len(tt.pass) {
			t.Fatalf("%s: %d verdicts", tt.gate, len(gates))
		}
		for i, v := range gates {
			if v.Pass != tt.pass[i] || !strings.Contains(v.Verdict, tt.gate) {
				t.Errorf("%s: %+v", tt.gate, v)
			}
		}
	}
	c.Cells[0].Found = false // rollback found nothing
	g, _ := ParseCapacityGate("sustainable rate: wal >= 1x rollback")
	if gates, _ := EvaluateCapacity(c, []Expectation{g}); gates[0].Pass {
		t.Errorf("a gate against a cell with no rate passed")
	}
	for _, bad := range []string{"upsert p99 <= 5ms", "sustainable rate <= x", "sustainable rate: wal >= 3x"} {
		if _, err := ParseCapacityGate(bad); err == nil {
			t.Errorf("ParseCapacityGate(%q) succeeded", bad)
		}
	}
}
