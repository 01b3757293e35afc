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
