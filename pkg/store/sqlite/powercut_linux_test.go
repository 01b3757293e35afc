package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// A worker process's recording that could not append (a full disk: the
// record is a full device, made in the test's directory as /dev/full is)
// fails its store's Close, naming the error: the run fails, and no state
// is built from a record one process left short. A record that only
// reached its limit is no error.
func TestWorkerRecordingFailureReported(t *testing.T) {
	full := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o600, 1<<8|7); err != nil { // /dev/full: major 1, minor 7
		t.Skipf("cannot make a full device here (%v): the full-disk case is not tested", err)
	}
	forEachDriver(t, func(t *testing.T, d *Driver) {
		if d.PowerCutSupport(store.Config{Options: DefaultOptions().Encode()}, "") != nil {
			t.Skip("records no run")
		}
		for _, tt := range []struct {
			name  string
			rec   store.Record
			fails bool
		}{
			{"full disk", store.Record{Path: full, Limit: 1 << 20}, true},
			{"limit reached", store.Record{Path: filepath.Join(t.TempDir(), "record"), Limit: 1}, false},
		} {
			path := filepath.Join(t.TempDir(), "crash.db")
			o := DefaultOptions()
			o.Sync = "off" // quick: what is recorded is the writes
			openInit(t, d, store.Config{Path: path, Options: o.Encode()}).Close()
			st, err := d.Open(context.Background(), store.Config{Path: path, Options: o.Encode(), Record: &tt.rec})
			if err != nil {
				t.Fatal(err)
			}
			c, err := st.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for k := range 40 { // past the checks of the record's size, every 64 KiB
				if err := c.Put(uint64(k), make([]byte, 4000)); err != nil {
					t.Fatal(err)
				}
			}
			c.Close()
			err = st.Close()
			if tt.fails != (err != nil) || tt.fails && !(strings.Contains(err.Error(), "part of the record is incomplete") && strings.Contains(err.Error(), "no space left on device")) {
				t.Errorf("%s: Close: %v", tt.name, err)
			}
		}
	})
}
