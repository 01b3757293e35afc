package judge

import (
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// A suite whose drivers of one engine carry different versions says so
// in one line, naming each driver's; drivers of one version, or of
// different engines, say nothing.
func TestVersionsNote(t *testing.T) {
	t.Parallel()
	cell := func(driver, engine string, version store.Fact) result.Cell {
		r := &result.Result{}
		r.Plan.Driver = driver
		r.Environment.Store = []store.Fact{{Name: "driver", Value: driver}, version, {Name: store.FactEngine, Value: engine}}
		return result.Cell{Runs: []*result.Result{r}}
	}
	sqlite := func(v string) store.Fact { return store.Fact{Name: "sqlite_version", Value: v} }
	for _, tt := range []struct {
		name  string
		cells []result.Cell
		want  string
	}{
		{"differ", []result.Cell{cell("mattn", "SQLite 3.53.4", sqlite("3.53.4")), cell("modernc", "SQLite 3.54.1", sqlite("3.54.1")), cell("ncruces", "SQLite 3.53.4", sqlite("3.53.4"))},
			"note: drivers carry different SQLite versions: mattn 3.53.4, modernc 3.54.1, ncruces 3.53.4 — a driver difference is partly a version difference"},
		{"same", []result.Cell{cell("mattn", "SQLite 3.53.4", sqlite("3.53.4")), cell("ncruces", "SQLite 3.53.4", sqlite("3.53.4"))}, ""},
		{"one driver twice", []result.Cell{cell("mattn", "SQLite 3.53.4", sqlite("3.53.4")), cell("mattn", "SQLite 3.53.4", sqlite("3.53.4"))}, ""},
		{"engines", []result.Cell{cell("mattn", "SQLite 3.53.4", sqlite("3.53.4")), cell("pebble", "pebble v1.1.5", store.Fact{Name: "pebble_version", Value: "pebble v1.1.5"})}, ""},
		{"no engine fact", []result.Cell{cell("a", "", store.Fact{Name: "x_version", Value: "1"}), cell("b", "", store.Fact{Name: "x_version", Value: "2"})},
			"note: drivers carry different x versions: a 1, b 2 — a driver difference is partly a version difference"},
	} {
		if got := SuiteVersionsNote(&result.Suite{Cells: tt.cells}); got != tt.want {
			t.Errorf("%s: %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
