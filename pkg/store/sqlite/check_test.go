package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// rawDB makes a SQLite database at path with the statements qs and
// returns its connection, still open (a WAL database keeps its -wal file
// while a connection is open).
func rawDB(t *testing.T, d *Driver, path string, qs ...string) rawConn {
	t.Helper()
	c, err := d.be.open(dsn(path, "rwc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if _, err := c.queryString(q); err != nil { // "" for a statement without rows
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c
}

// copyFile copies src to dst, for a snapshot of a database and its -wal
// as a crash would leave them.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// precheckOf opens a store on path and prechecks it.
func precheckOf(t *testing.T, d *Driver, c store.Config) error {
	t.Helper()
	st, err := d.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return st.(store.Prechecker).Precheck()
}

// A -wal file of another database beside gobench's is refused before
// SQLite could replay it (it was replayed silently): one with pages of
// another size, one whose page 1 carries another application_id. The
// database and the -wal are left as they were. A -wal that a crash of
// gobench's own run left is recovered as before.
func TestForeignWAL(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		o := DefaultOptions()
		o.Journal = "wal"
		ours := filepath.Join(dir, "ours.db")
		openInit(t, d, store.Config{Path: ours, Options: o.Encode()}).Close()

		// A snapshot of a gobench database in the middle of a WAL run.
		live := openInit(t, d, store.Config{Path: filepath.Join(dir, "live.db"), Options: o.Encode()})
		c, err := live.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Put(1, []byte("acknowledged")); err != nil {
			t.Fatal(err)
		}
		crashed := filepath.Join(dir, "crashed.db")
		copyFile(t, filepath.Join(dir, "live.db"), crashed)
		copyFile(t, filepath.Join(dir, "live.db-wal"), crashed+"-wal")
		c.Close()
		live.Close()
		if err := precheckOf(t, d, store.Config{Path: crashed, Options: o.Encode()}); err != nil {
			t.Errorf("gobench's own -wal, left by a crash: %v", err)
		}

		for _, tt := range []struct{ name, pageSize, want string }{
			{"same page size", "4096", "application_id 0"},
			{"another page size", "8192", "pages are of 8192 bytes"},
		} {
			other := filepath.Join(dir, "other-"+tt.pageSize+".db")
			oc := rawDB(t, d, other, "PRAGMA page_size="+tt.pageSize, "PRAGMA journal_mode=wal", "CREATE TABLE notes(x)", "INSERT INTO notes VALUES('theirs')")
			target := filepath.Join(dir, "target-"+tt.pageSize+".db")
			copyFile(t, ours, target)
			copyFile(t, other+"-wal", target+"-wal")
			oc.Close()
			before, _ := os.ReadFile(target)
			walBefore, _ := os.ReadFile(target + "-wal")
			err := precheckOf(t, d, store.Config{Path: target, Options: o.Encode()})
			if !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "-wal belongs to another database") {
				t.Errorf("%s: Precheck = %v, want ErrForeign naming %q", tt.name, err, tt.want)
			}
			st, _ := d.Open(context.Background(), store.Config{Path: target, Options: o.Encode()})
			if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
				t.Errorf("%s: Init = %v, want ErrForeign", tt.name, err)
			}
			st.Close()
			after, _ := os.ReadFile(target)
			walAfter, _ := os.ReadFile(target + "-wal")
			if !bytes.Equal(before, after) || !bytes.Equal(walBefore, walAfter) || len(walAfter) == 0 {
				t.Errorf("%s: the database or its -wal changed (%d → %d, wal %d → %d bytes)", tt.name, len(before), len(after), len(walBefore), len(walAfter))
			}
		}
	})
}

// A -wal, -journal or -shm file beside a database that does not exist is
// another database's, and SQLite deletes a -wal or -journal on opening a
// database of no pages, whatever they hold: a real WAL of another
// database, 50 committed rows in it, was deleted by a run that then
// exited 0. Each is refused, by Precheck and by Init, naming the file,
// which keeps its bytes; no database is made. With Reuse, a -wal or
// -journal beside an empty file is refused the same way.
func TestOrphanSidecarsRefused(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		other := filepath.Join(dir, "other.db")
		oc := rawDB(t, d, other, "PRAGMA journal_mode=wal", "PRAGMA wal_autocheckpoint=0", "CREATE TABLE notes(x)")
		for i := 0; i < 50; i++ {
			if _, err := oc.queryString("INSERT INTO notes VALUES('committed')"); err != nil {
				t.Fatal(err)
			}
		}
		wal, err := os.ReadFile(other + "-wal")
		if err != nil || len(wal) <= walHeaderSize {
			t.Fatalf("the other database's WAL: %d bytes, %v", len(wal), err)
		}
		shm, _ := os.ReadFile(other + "-shm")
		oc.Close()
		pc := rawDB(t, d, filepath.Join(dir, "persist.db"), "PRAGMA journal_mode=persist", "CREATE TABLE notes(x)", "INSERT INTO notes VALUES('theirs')")
		journal, err := os.ReadFile(filepath.Join(dir, "persist.db-journal"))
		pc.Close()
		if err != nil || len(journal) == 0 {
			t.Fatalf("the other database's journal: %d bytes, %v", len(journal), err)
		}
		content := map[string][]byte{"-wal": wal, "-journal": journal, "-shm": shm}

		for _, tt := range []struct {
			suffix string
			reuse  bool // the database exists, empty, taken with Reuse
		}{{"-wal", false}, {"-journal", false}, {"-shm", false}, {"-wal", true}, {"-journal", true}} {
			name := fmt.Sprintf("%s reuse=%v", tt.suffix, tt.reuse)
			path := filepath.Join(t.TempDir(), "bench.db")
			if tt.reuse {
				if err := os.WriteFile(path, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(path+tt.suffix, content[tt.suffix], 0o644); err != nil {
				t.Fatal(err)
			}
			o := DefaultOptions()
			o.Journal = "wal"
			if tt.suffix == "-journal" {
				o.Journal = "rollback"
			}
			c := store.Config{Path: path, Options: o.Encode(), Reuse: tt.reuse}
			err := precheckOf(t, d, c)
			if !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), path+tt.suffix+" is there") {
				t.Errorf("%s: Precheck = %v, want ErrForeign naming %s", name, err, path+tt.suffix)
			}
			st, err := d.Open(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
				t.Errorf("%s: Init = %v, want ErrForeign", name, err)
			}
			st.Close()
			if b, err := os.ReadFile(path + tt.suffix); err != nil || !bytes.Equal(b, content[tt.suffix]) {
				t.Errorf("%s: the file changed or went (%d bytes before, %d after, %v)", name, len(content[tt.suffix]), len(b), err)
			}
			if fi, err := os.Stat(path); tt.reuse != (err == nil) || (err == nil && fi.Size() != 0) {
				t.Errorf("%s: the database was made or changed: %v", name, err)
			}
		}
	})
}

// With Reuse, a file that is not a SQLite database is refused as foreign
// (it failed later, "file is not a database", exit 1), unchanged; without
// Reuse, so is an empty file. Anything but a regular file is refused
// before it is opened.
func TestPrecheckRefuses(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		text := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(text, []byte("hello, not a database\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := precheckOf(t, d, store.Config{Path: text, Reuse: true}); !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), "is not a SQLite database") {
			t.Errorf("text with reuse: %v", err)
		}
		st, _ := d.Open(context.Background(), store.Config{Path: text, Reuse: true})
		if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
			t.Errorf("Init of text with reuse: %v", err)
		}
		st.Close()
		if b, _ := os.ReadFile(text); string(b) != "hello, not a database\n" {
			t.Errorf("the refused file changed: %q", b)
		}
		if _, err := os.Stat(text + "-journal"); err == nil {
			t.Error("a -journal was left beside the refused file")
		}
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("no FIFO here: %v", err)
		}
		for _, reuse := range []bool{false, true} {
			if err := precheckOf(t, d, store.Config{Path: fifo, Reuse: reuse}); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "not a database file") {
				t.Errorf("a FIFO (reuse %v): %v", reuse, err)
			}
		}
	})
}

// A database taken with Reuse gets back the application_id it had,
// another program's or none (it kept gobench's).
func TestReuseRestoresApplicationID(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, id := range []string{"305419896", "0"} {
			path := filepath.Join(t.TempDir(), "theirs.db")
			rawDB(t, d, path, "PRAGMA application_id="+id, "CREATE TABLE notes(x)").Close()
			st := openInit(t, d, store.Config{Path: path, Reuse: true})
			raw := rawDB(t, d, path)
			during, _ := raw.queryString("PRAGMA application_id")
			raw.Close()
			if during != "1734504035" {
				t.Fatalf("during the run: application_id %s, want gobench's", during)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			raw = rawDB(t, d, path)
			after, err := raw.queryString("PRAGMA application_id")
			raw.Close()
			if err != nil || after != id {
				t.Errorf("after the run: application_id %s (%v), want %s", after, err, id)
			}
		}
	})
}
