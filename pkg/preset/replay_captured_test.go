package preset_test

import (
	"io"
	"os"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/sqltrace/tracetest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

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
			path := tracetest.Write(t, tt.sqls...)
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
