//go:build cgo

package sqlite

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	msqlite3 "github.com/mattn/go-sqlite3"

	"github.com/gobench/gobench/pkg/store"
)

func init() {
	testDrivers = append(testDrivers, Mattn(), CAPI())
	rawExecs = append(rawExecs, func(c store.Conn, q string) (bool, error) {
		if c, ok := c.(*capiConn); ok {
			return true, c.c.Exec(q)
		}
		return false, nil
	})
	rawLimits = append(rawLimits, func(c rawConn, n int) bool {
		switch c := c.(type) {
		case *capiRaw:
			c.c.Limit(limitAttached, n)
			return true
		case *sqlRaw:
			if sc, ok := c.c.(*msqlite3.SQLiteConn); ok {
				sc.SetLimit(limitAttached, n)
				return true
			}
		}
		return false
	})
}

// closeUserOther closes the statements of the user's of a cgo build's
// connection (closeUserStmts).
func closeUserOther(c store.Conn) error {
	cc, ok := c.(*capiConn)
	if !ok {
		return fmt.Errorf("a connection of type %T", c)
	}
	err := closeUser(cc.user)
	cc.user = cc.user[:0]
	return err
}

// Without the guard a NUL byte in SQL crashes mattn's driver: SQLite
// stops reading at it, the statement prepares to NULL, and the driver
// resets the NULL statement (_sqlite3_reset_clear(0x0)). The crash takes
// the process down, so it runs in a child process of its own. TestGuard
// shows the same text refused with the guard.
func TestNULWithoutGuard(t *testing.T) {
	if dir := os.Getenv("GOBENCH_TEST_NUL_DIR"); dir != "" {
		c, err := Mattn().be.open(dsn(filepath.Join(dir, "p.db"), "rwc"))
		if err == nil {
			err = c.exec("\x00SELECT 2")
		}
		fmt.Println("survived:", err)
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNULWithoutGuard$")
	cmd.Env = append(os.Environ(), "GOBENCH_TEST_NUL_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "SIGSEGV") {
		t.Fatalf("mattn on a NUL byte without the guard: %v\n%.500s", err, out)
	}
}
