package preset_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// matrix returns a matrix of drivers × procs with the engines' default
// settings, given flags reported by given.
func matrix(drivers, procs store.List, given ...string) preset.Matrix {
	reg := all.Registry()
	return preset.Matrix{
		Matrix: workload.Matrix{Drivers: drivers, Modes: store.List{workload.ModeGoroutine}, Procs: procs,
			Goroutines: store.List{"1"}, Batches: store.List{"1"}, Busy: workload.BusyTimeout},
		Registry: reg, Engines: reg.Settings(),
		Given: func(f string) bool {
			for _, g := range given {
				if g == f {
					return true
				}
			}
			return false
		},
	}
}

// Every preset declares its shape and builds one valid plan per cell.
func TestPresetsBuildTheirCells(t *testing.T) {
	sql := preset.DefaultSQLSpec()
	sql.Builtin = "select-only"
	crud := preset.DefaultCRUDSpec()
	crud.Rows, crud.Baseline = []uint64{100, 1000}, "btree"
	blob := preset.DefaultBlobSpec("mattn")
	blob.Count, blob.Size = 100, 1000
	for _, tt := range []struct {
		name      string
		spec      preset.Spec
		m         preset.Matrix
		shape     result.Shape
		cells     int
		reference string
	}{
		{"mix", preset.DefaultMixSpec(), matrix(store.List{"map", "btree"}, store.List{"1", "2"}), result.ShapeMatrix, 4, ""},
		{"sql", sql, matrix(store.List{"modernc"}, store.List{"1", "2", "4"}), result.ShapeMatrix, 3, ""},
		{"crud", crud, matrix(store.List{"map", "btree"}, store.List{"1"}), result.ShapeScaling, 4, "btree"},
		{"blob", blob, matrix(nil, nil), result.ShapeTargets, 3, preset.TargetDB},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plans, err := tt.spec.Plans(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if len(plans) != tt.cells || tt.spec.Shape() != tt.shape || tt.spec.Reference() != tt.reference {
				t.Fatalf("%d cells of shape %s, reference %q; want %d of %s, %q", len(plans), tt.spec.Shape(), tt.spec.Reference(), tt.cells, tt.shape, tt.reference)
			}
			for _, p := range plans {
				if err := p.Validate(); err != nil {
					t.Errorf("cell %s: %v", result.PlanSettings(p), err)
				}
			}
		})
	}
}

// The mix preloads every key; its loop sets the duration, warm-up and
// shard of every cell, leaving the spec's own plan as it was.
func TestMixLoop(t *testing.T) {
	spec := preset.DefaultMixSpec()
	spec.Plan.Keys.Count = 500
	spec.Loop = preset.Loop{Duration: 2 * time.Second, Warmup: "100", Shard: "2/3"}
	plans, err := spec.Plans(matrix(store.List{"null"}, store.List{"3"}))
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if p.Preload != 500 || p.Phases[0].Ops != 0 || p.Phases[0].Duration != workload.Duration(2*time.Second) ||
		p.Warmup == nil || p.Warmup.Ops != 100 || p.Shard == nil || p.Shard.String() != "2/3" {
		t.Errorf("cell: preload %d, phase %+v, warm-up %+v, shard %+v", p.Preload, p.Phases[0], p.Warmup, p.Shard)
	}
	if spec.Plan.Phases[0].Ops == 0 {
		t.Error("the loop changed the spec's own plan")
	}
}

// What each preset refuses, with the flag it names.
func TestPresetErrors(t *testing.T) {
	both := preset.DefaultSQLSpec()
	both.Builtin, both.Scripts = "tpcb-like", []workload.SQLFile{{File: "a.sql", Text: "SELECT 1;", Weight: 1}}
	schema := preset.DefaultSQLSpec()
	schema.Builtin, schema.Schema = "tpcb-like", &workload.SQLFile{File: "s.sql", Text: "CREATE TABLE t(x);"}
	rounds := preset.DefaultCRUDSpec()
	rounds.Rounds = 0
	order := preset.DefaultCRUDSpec()
	order.Order = "sideways"
	base := preset.DefaultCRUDSpec()
	base.Baseline = "lmdb"
	shard := preset.DefaultMixSpec()
	shard.Loop.Shard = "4/3"
	warm := preset.DefaultMixSpec()
	warm.Loop.Warmup = "soon"
	blob := preset.DefaultBlobSpec("map")
	for _, tt := range []struct {
		name string
		spec preset.Spec
		m    preset.Matrix
		want string
	}{
		{"sql without scripts", preset.DefaultSQLSpec(), matrix(store.List{"modernc"}, store.List{"1"}), "no scripts"},
		{"sql both", both, matrix(store.List{"modernc"}, store.List{"1"}), "--builtin and --file"},
		{"sql builtin schema", schema, matrix(store.List{"modernc"}, store.List{"1"}), "takes no --schema"},
		{"crud rounds", rounds, matrix(store.List{"map"}, store.List{"1"}), "--rounds 0"},
		{"crud order", order, matrix(store.List{"map"}, store.List{"1"}), `--order "sideways"`},
		{"crud baseline", base, matrix(store.List{"map"}, store.List{"1"}), "--baseline lmdb"},
		{"mix shard", shard, matrix(store.List{"null"}, store.List{"3"}), "shard 4 of 3 is out of range"},
		{"mix warm-up", warm, matrix(store.List{"null"}, store.List{"1"}), "--warmup"},
		{"engine flag", preset.DefaultMixSpec(), matrix(store.List{"map"}, store.List{"1"}, "journal"), "--journal applies to the SQLite drivers"},
		{"blob driver", blob, matrix(nil, nil), "needs a SQLite driver"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := tt.spec.Plans(tt.m); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Plans = %v, want an error with %q", err, tt.want)
			}
		})
	}
}
