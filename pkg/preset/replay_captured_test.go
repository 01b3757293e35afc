package preset_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// writeTrace writes a trace of one connection that runs sqls on /a.db,
// and returns its path.
func writeTrace(t *testing.T, sqls ...string) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := sqltrace.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	own := w.Stream(0)
	own.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	w.WriteSnapshot(1, bytes.NewReader([]byte("x")))
	own.Write(&sqltrace.Record{Kind: sqltrace.KindSnapshot, Snapshot: sqltrace.Snapshot{DB: 1, Number: 1, Size: 1}})
	s := w.Stream(1)
	s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: 1, DB: 1}})
	for i, q := range sqls {
		s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: 1, SQL: q, Start: int64(i), Span: 1000}})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "app.trace")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A replay's first cell runs with the application's settings, as its
// PRAGMAs set them; a matrix given varies from them (a flag not given
// takes the application's value, not gobench's default), and its cell
// that is the application's runs once, as captured.
func TestReplayAsCaptured(t *testing.T) {
	app := []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=2500", "SELECT 1"}
	for _, tt := range []struct {
		name  string
		sqls  []string
		flags []string
		want  []string // each cell's settings
	}{
		{"no flags", app, nil, []string{"settings=as captured,journal=wal,sync=normal,busy-timeout=2.5s"}},
		{"a journal matrix", app, []string{"--journal", "wal,rollback"}, []string{
			"settings=as captured,journal=wal,sync=normal,busy-timeout=2.5s",
			"settings=given,journal=rollback,sync=normal,busy-timeout=2.5s",
		}},
		{"a sync given", app, []string{"--sync", "full"}, []string{
			"settings=as captured,journal=wal,sync=normal,busy-timeout=2.5s",
			"settings=given,journal=wal,sync=full,busy-timeout=2.5s",
		}},
		{"no pragma: SQLite's defaults, gobench's busy timeout", []string{"SELECT 1"}, nil, []string{"settings=as captured,journal=rollback,sync=full,busy-timeout=5s"}},
		{"no pragma, a journal given: the application's own defaults first", []string{"SELECT 1"}, []string{"--journal", "wal"}, []string{
			"settings=as captured,journal=rollback,sync=full,busy-timeout=5s",
			"settings=given,journal=wal,sync=full,busy-timeout=5s",
		}},
		{"a journal set, a sync matrix given", []string{"PRAGMA journal_mode=WAL", "SELECT 1"}, []string{"--sync", "normal,off"}, []string{
			"settings=as captured,journal=wal,sync=full,busy-timeout=5s",
			"settings=given,journal=wal,sync=normal,busy-timeout=5s",
			"settings=given,journal=wal,sync=off,busy-timeout=5s",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTrace(t, tt.sqls...)
			reg := all.Registry()
			es := reg.Settings()
			fs := pflag.NewFlagSet("replay", pflag.ContinueOnError)
			es.AddFlags(fs)
			if err := fs.Parse(tt.flags); err != nil {
				t.Fatal(err)
			}
			m := preset.Matrix{
				Matrix: workload.Matrix{Drivers: store.List{all.DefaultDriver()}, Modes: store.List{workload.ModeGoroutine}, Procs: store.List{"0"},
					Goroutines: store.List{"1"}, Batches: store.List{"1"}, Busy: workload.BusyTimeout},
				Registry: reg, Engines: es, Given: fs.Changed,
				Default: func(name string) (string, bool) {
					if f := fs.Lookup(name); f != nil {
						return f.DefValue, true
					}
					return "", false
				},
			}
			spec := preset.DefaultReplaySpec()
			spec.Open = func() (io.ReadCloser, error) { return os.Open(path) }
			spec.Options.Trace = path
			cells, err := spec.Plans(m)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cells {
				var keep result.Settings
				for _, s := range result.PlanSettings(c) {
					if s.Name == "settings" || s.Name == "journal" || s.Name == "sync" || s.Name == "busy-timeout" {
						keep = append(keep, s)
					}
				}
				got = append(got, keep.String())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("cells %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("cell %d: %s, want %s", i, got[i], tt.want[i])
				}
			}
			if !cells[0].Replay.AsCaptured || (len(cells) > 1 && cells[1].Replay.AsCaptured) {
				t.Errorf("the first cell, and only it, is as captured")
			}
		})
	}
}
