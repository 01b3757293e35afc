package preset_test

import (
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A loop whose crash spans models makes each cell once per model, the
// models of a cell side by side, each naming its model in its settings
// (crash-model), and the cells of one model the same workload as the
// other's; a single model names none.
func TestLoopSpansCrashModels(t *testing.T) {
	for _, tc := range []struct {
		models []string
		want   []string // each cell's crash-model setting, "" for none
	}{
		{nil, []string{"", ""}},
		{[]string{store.CrashLose, store.CrashTorn4K}, []string{"lose", "torn-4k", "lose", "torn-4k"}},
	} {
		spec := preset.DefaultMixSpec()
		spec.Plan.Keys.Count = 100
		spec.Loop = preset.Loop{Crash: &workload.Crash{States: 2, Model: store.CrashLose, Models: tc.models, RecordLimit: workload.DefaultRecordLimit}}
		plans, err := spec.Plans(matrix(store.List{"mattn"}, store.List{"1", "2"}))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range plans {
			v, _ := result.PlanSettings(p).Get("crash-model")
			if v != "" && v != p.Crash.Model {
				t.Errorf("cell %s runs model %s", result.PlanSettings(p), p.Crash.Model)
			}
			got = append(got, v)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("models %v: cells %q, want %q", tc.models, got, tc.want)
		}
		a, b := &result.Result{Plan: *plans[0]}, &result.Result{Plan: *plans[len(plans)-1]}
		if err := result.SameWorkload(a, b); err != nil {
			t.Errorf("models %v: %v", tc.models, err)
		}
	}
}
