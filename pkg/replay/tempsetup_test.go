package replay

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// A slice's or a window's part of a connection runs on a fresh
// connection: its first statement makes first the connection's temporary
// objects live at its start (their CREATE statements, in order; not one
// dropped before), so that its statements find them. Each part, run on
// its own connection of a real database, fails none.
func TestTempObjectsMadeAtPartStart(t *testing.T) {
	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (x)", true, true},
		{1, 1, "CREATE TEMP TABLE scratch (x)", true, true},
		{1, 2, "CREATE INDEX si ON scratch (x)", true, true},
		{1, 3, "CREATE TEMP TABLE gone (x)", true, true},
		{1, 4, "DROP TABLE gone", true, true},
		{1, 5, "INSERT INTO scratch VALUES (1)", true, true},
		{1, 20, "INSERT INTO scratch SELECT x FROM t", true, true},
		{1, 25, "SELECT count(*) FROM scratch", true, true},
		{1, 30, "DROP TABLE scratch", true, true},
	})
	made := []string{"CREATE TEMP TABLE scratch (x)", "CREATE INDEX si ON scratch (x)"}
	for _, tt := range []struct {
		name   string
		o      Options
		setups [][]string // each part's, by slice
	}{
		{"fold 2", Options{Fold: 2}, [][]string{nil, made}},
		{"window from 10ms", Options{Window: &workload.ReplayWindow{From: workload.Duration(10 * time.Millisecond)}}, [][]string{made}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Order = workload.ReplayRace
			r := buildOnFile(t, b, tt.o)
			st := emptyStore(t)
			if err := ApplySchema(context.Background(), st, r); err != nil {
				t.Fatal(err)
			}
			p := &workload.Plan{Replay: r}
			var setups [][]string
			for i, w := range r.Workers {
				if w.Stream == 0 {
					continue
				}
				setups = append(setups, runPart(t, st, p, i))
			}
			if !slices.EqualFunc(setups, tt.setups, slices.Equal) {
				t.Errorf("made first %q, want %q", setups, tt.setups)
			}
		})
	}
}

// runPart deals worker i's statements and runs them on a fresh
// connection of st, failing t on an error; it returns what the part made
// first.
func runPart(t *testing.T, st store.Store, p *workload.Plan, i int) []string {
	t.Helper()
	w := p.Replay.Workers[i]
	d, err := (&Source{}).Dealer(p, 0, i, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.(*replayDealer).Close()
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var setup []string
	for range w.Statements {
		var dl deal.Deal
		if err := d.Deal(&dl); err != nil {
			t.Fatal(err)
		}
		rd := dl.Action.(*Statement)
		setup = append(setup, rd.Setup...)
		if _, err := rd.Run(c); err != nil {
			t.Errorf("slice %d: %s: %v", w.Slice, rd.SQL, err)
		}
	}
	return setup
}

// emptyStore opens an empty SQLite database, closed at t's end.
func emptyStore(t *testing.T) store.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil { // an empty file: an empty database
		t.Fatal(err)
	}
	st, err := sqlite.Modernc().Open(context.Background(), store.Config{Path: path, Reuse: true, Bare: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
