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
// a FIFO, and a postgres:// URL of a port where nothing listens.
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
		{"fifo", fifo, "is not a regular file"},
		{"postgres, nothing listening", "postgres://u@127.0.0.1:" + strconv.Itoa(port) + "/db?connect_timeout=5", "opening the history"},
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
	if fi, err := os.Stat(fifo); err != nil || fi.Mode().IsRegular() {
		t.Errorf("the FIFO was replaced: %v %v", fi, err)
	}
}
