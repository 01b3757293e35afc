package workload

import "testing"

// MinStoredBytes counts what a plan's database must hold at the least:
// preloaded values, the values an insert phase visiting every key
// writes (for a shard, its share), pgbench's accounts at :scale.
func TestMinStoredBytes(t *testing.T) {
	tpcb, err := BuiltinSQL(BuiltinTPCBLike, 1000)
	if err != nil {
		t.Fatal(err)
	}
	own := &SQL{Scale: 1000, Schema: &SQLFile{File: "s.sql", Text: "CREATE TABLE t(x);"}}
	insertEach := Phase{Name: "insert", Mix: Mix{{OpInsert, 100}}, Access: AccessEach}
	for _, tt := range []struct {
		name   string
		change func(*Plan)
		want   float64
	}{
		{"nothing stored", func(p *Plan) { p.Preload = 0 }, 0},
		{"preload", func(p *Plan) { p.Preload, p.ValueSize = 1000, 100 }, 100_000},
		{"preload, varying sizes", func(p *Plan) { p.Preload, p.ValueSize, p.ValueVariance = 1000, 100, 40 }, 60_000},
		{"insert every key", func(p *Plan) {
			p.Preload, p.Keys.Count, p.ValueSize, p.Phases = 0, 5000, 10, []Phase{insertEach}
		}, 50_000},
		{"insert every key, one shard of four", func(p *Plan) {
			p.Preload, p.Keys.Count, p.ValueSize, p.Phases = 0, 8000, 10, []Phase{insertEach}
			p.Procs, p.Shard = 4, &Shard{Index: 1, Count: 4}
		}, 20_000},
		{"pgbench's tables", func(p *Plan) { p.Preload, p.SQL = 0, tpcb }, 1000 * 100_000 * 84},
		{"a schema of the user's", func(p *Plan) { p.Preload, p.SQL = 0, own }, 0},
		{"a typo's scale does not overflow", func(p *Plan) {
			s := *tpcb
			s.Scale = 1 << 62
			p.Preload, p.SQL = 0, &s
		}, float64(int64(1)<<62) * 100_000 * 84},
	} {
		p := DefaultPlan()
		tt.change(&p)
		if got := p.MinStoredBytes(); got != tt.want {
			t.Errorf("%s: MinStoredBytes() = %g, want %g", tt.name, got, tt.want)
		}
	}
}
