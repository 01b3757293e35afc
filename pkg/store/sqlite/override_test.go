package sqlite

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// A replay's cell as captured takes the application's journal, sync,
// busy timeout and checkpoint over a cell's options, through the
// declaration's generic override (no SQLite code of its own); a
// checkpoint outside WAL is left alone, and a value or setting SQLite has
// not is refused.
func TestOverride(t *testing.T) {
	base := DefaultOptions()
	base.Checkpoint = ""
	for _, tt := range []struct {
		values map[string]string
		want   Options
		err    bool
	}{
		{map[string]string{"journal": "wal", "sync": "normal", "busy-timeout": "2.5s", "checkpoint": "500"},
			Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 2500, Checkpoint: "500"}, false},
		{map[string]string{"journal": "WAL"}, Options{Journal: "wal", Sync: "full", BusyTimeoutMS: 5000}, false},
		{map[string]string{"sync": "off", "checkpoint": "off"}, Options{Journal: "rollback", Sync: "off", BusyTimeoutMS: 5000}, false},
		{map[string]string{}, base, false},
		{map[string]string{"journal": "bogus"}, Options{}, true},
		{map[string]string{"busy-timeout": "soon"}, Options{}, true},
		{map[string]string{"page-size": "4096"}, Options{}, true},
		{map[string]string{"memory": "true"}, Options{}, true}, // set by the run, no flag's
	} {
		s, ok := (&Driver{}).Options().Settings().(store.Overrider)
		if !ok {
			t.Fatal("the SQLite settings are not a store.Overrider")
		}
		c, err := s.Override(base.Encode(), tt.values, store.Want{})
		if (err != nil) != tt.err {
			t.Errorf("%v: error %v, want an error: %v", tt.values, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		got, err := DecodeOptions(c.Options)
		if err != nil || got != tt.want {
			t.Errorf("%v: %+v (%v), want %+v", tt.values, got, err, tt.want)
		}
	}
}
