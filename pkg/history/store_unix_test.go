//go:build unix

package history

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Open refuses, in one clear line, a history path that is a directory or
// a FIFO, and a postgres:// URL of a port where nothing listens;
// OpenExisting a history file that does not exist, creating nothing.
func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens on it now
	cases := []struct{ name, dsn, want string }{
		{"directory", dir, "is a directory"},
		{"fifo", fifo, "is not a regular file (a FIFO)"},
		{"postgres, nothing listening", "postgres://u@127.0.0.1:" + strconv.Itoa(port) + "/db?connect_timeout=5", "db`: 127.0.0.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := Open(context.Background(), c.dsn)
			if err == nil {
				h.Close()
				t.Fatalf("Open(%s): no error", c.dsn)
			}
			if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("Open(%s): %q, want one line saying %q", c.dsn, msg, c.want)
			}
		})
	}
	missing := filepath.Join(dir, "typo", "h.db")
	if h, err := OpenExisting(context.Background(), missing); err == nil || !strings.Contains(err.Error(), "no history at") {
		if h != nil {
			h.Close()
		}
		t.Errorf("OpenExisting(%s): %v, want no history", missing, err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Errorf("OpenExisting of a missing history created %s", filepath.Dir(missing))
	}
	if fi, err := os.Stat(fifo); err != nil || fi.Mode().IsRegular() {
		t.Errorf("the FIFO was replaced: %v %v", fi, err)
	}
}
