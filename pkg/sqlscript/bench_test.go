package sqlscript

import "testing"

// BenchmarkSet is what a script's \set of a random key costs, and
// BenchmarkBind what binding it to a statement's parameter costs: the
// expression language's share of gobench sql's harness (see the
// SQLHarness benchmark of internal/coord).
func BenchmarkSet(b *testing.B) {
	e, err := ParseExpr("random(1, 100000 * :scale)")
	if err != nil {
		b.Fatal(err)
	}
	s := NewState(1, 0, 1)
	set := &Set{Name: "aid", Expr: e}
	b.ReportAllocs()
	for b.Loop() {
		if err := set.Eval(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBind(b *testing.B) {
	s := NewState(1, 0, 1)
	s.Set("aid", IntValue(77777))
	st := &Statement{Params: []string{"aid", "scale"}}
	dst := make([]any, 2)
	b.ReportAllocs()
	for b.Loop() {
		if err := st.Bind(s, dst); err != nil {
			b.Fatal(err)
		}
	}
}
