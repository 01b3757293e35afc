package coord

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// A run's space says what it measured: the database's size on disk
// always, and its live data only where it was counted. A mix's live data
// is gobench's key-value table, counted; an SQL script's is in its own
// tables, which are not, and the run says so rather than counting the
// empty key-value table as the live data.
func TestSpaceLiveCounted(t *testing.T) {
	t.Parallel()
	script := &workload.SQL{Scale: 1, Schema: &workload.SQLFile{File: "schema.sql", Text: "CREATE TABLE log (client INTEGER, x INTEGER);"},
		Scripts: []workload.SQLFile{{File: "add.sql", Text: "INSERT INTO log VALUES (:client_id, 1);", Weight: 1}}}
	for _, tt := range []struct {
		name       string
		sql        *workload.SQL
		notCounted string // "" where the live data is counted
	}{
		{"mix", nil, ""},
		{"sql", script, "the live data of SQL scripts' own tables is not counted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := nullPlan(1, 1, 200)
			p.Driver, p.Mode = "modernc", workload.ModeGoroutine
			p.Store = store.Config{Path: filepath.Join(t.TempDir(), "space.db"), Options: sqlite.DefaultOptions().Encode()}
			p.Keys.Count, p.Preload = 100, 100
			if tt.sql != nil {
				p.SQL, p.Phases[0].Mix, p.Preload = tt.sql, tt.sql.Mix(), 0
			}
			res, err := run(t, p, "serve")
			if err != nil {
				t.Fatal(err)
			}
			sp := res.Space
			switch {
			case sp == nil || sp.AllocatedBytes <= 0:
				t.Fatalf("space %+v: the size on disk was not measured", sp)
			case tt.notCounted == "" && (sp.NotCounted != "" || sp.LiveBytes <= 0):
				t.Errorf("space %+v: want the live data counted", sp)
			case tt.notCounted != "" && (!strings.Contains(sp.NotCounted, tt.notCounted) || sp.LiveBytes != 0 || sp.Amplification != 0):
				t.Errorf("space %+v: want not counted, %q", sp, tt.notCounted)
			}
		})
	}
}
