package runner

import (
	"context"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/workload"
)

// After a run in which a worker died, a value it wrote after the last
// write it reported is in doubt (committed, never acknowledged), not a
// violation; the same value from a worker that finished is one.
func TestVerifyDiedInDoubt(t *testing.T) {
	p := testPlan(2)
	p.Driver, p.Preload, p.Verify = "map", 0, true
	p.Keys.Count = 10
	st, err := mapstore.Driver{}.Open(context.Background(), store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	v := make([]byte, workload.MinVerifyValueSize)
	deal.PutTag(v, 1, 0, 0) // worker 1's first write, never reported
	if err := c.Put(3, v); err != nil {
		t.Fatal(err)
	}
	c.Close()
	none := func(yield func(workload.WriteRecord) bool) {}
	for _, tt := range []struct {
		name                string
		died                func(w, p int) bool
		inDoubt, violations int64
	}{
		{"worker 1 died", func(w, _ int) bool { return w == 1 }, 1, 0},
		{"worker 0 died", func(w, _ int) bool { return w == 0 }, 0, 1},
		{"none died", nil, 0, 1},
	} {
		rep, err := VerifyDied(context.Background(), st, p, none, tt.died)
		if rep == nil || rep.InDoubt != tt.inDoubt || rep.Violations != tt.violations || rep.KeysChecked != 10 {
			t.Errorf("%s: %+v, %v; want %d in doubt, %d violations over 10 keys", tt.name, rep, err, tt.inDoubt, tt.violations)
		}
		if (err != nil) != (tt.violations > 0) {
			t.Errorf("%s: error %v", tt.name, err)
		}
	}
}
