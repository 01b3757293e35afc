package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	nsqlite "github.com/ncruces/go-sqlite3"
	"modernc.org/libc"
	msqlite3 "modernc.org/sqlite/lib"

	"github.com/gobench/gobench/pkg/store"
)

// guardCase is a statement of the user's that the guard refuses, and
// what it would have done without the guard.
type guardCase struct {
	name string
	sql  string // DIR stands for the case's directory, which holds victim.db
	want string // in the refusal
	// harm runs sql on a plain connection (no guard) to the run's
	// database and checks it did what the guard prevents; nil where no
	// driver lets the statement do anything even then (said why).
	harm func(t *testing.T, d *Driver, c rawConn, sql, dir string)
}

// absentOn names, by case, the driver whose SQLite lacks the function:
// there the statement fails as SQLite's "no such function" before any
// guard (ncruces's SQLite is built with SQLITE_OMIT_LOAD_EXTENSION).
var absentOn = map[string]string{"load_extension": "ncruces"}

// victimRows is how many rows victim.db's table t holds.
const victimRows = "3"

// makeVictim makes another program's database in dir: victim.db, a
// table t of victimRows rows.
func makeVictim(t *testing.T, d *Driver, dir string) {
	t.Helper()
	c, err := d.be.open(dsn(filepath.Join(dir, "victim.db"), "rwc"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{"CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2), (3)"} {
		if err := c.exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// victimCount reads how many rows victim.db's table t holds, or the
// error, from outside: immutable, so the reading changes nothing.
func victimCount(t *testing.T, d *Driver, dir string) string {
	t.Helper()
	c, err := d.be.open(readOnlyDSN(filepath.Join(dir, "victim.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n, err := c.queryString("SELECT count(*) FROM t")
	if err != nil {
		return err.Error()
	}
	return n
}

// files lists dir's entries.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// execAll runs statements on a plain connection, failing the test on an
// error.
func execAll(t *testing.T, c rawConn, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if err := c.exec(q); err != nil {
			t.Fatalf("without the guard, %s: %v", q, err)
		}
	}
}

// dropsVictim is the harm of an ATTACH: the other database's table gone.
func dropsVictim(t *testing.T, d *Driver, c rawConn, sql, dir string) {
	execAll(t, c, sql, "DROP TABLE v.t")
	if n := victimCount(t, d, dir); !strings.Contains(n, "no such table") {
		t.Fatalf("without the guard, the victim's table is still there: %s", n)
	}
}

// readsBack is the harm of a pragma: the setting changed, as read back,
// then put back as it was (some are the whole process's).
func readsBack(pragma, want, restore string) func(t *testing.T, d *Driver, c rawConn, sql, dir string) {
	return func(t *testing.T, d *Driver, c rawConn, sql, dir string) {
		before, err := c.queryString("PRAGMA " + pragma)
		if err != nil {
			t.Fatal(err)
		}
		execAll(t, c, sql)
		got, err := c.queryString("PRAGMA " + pragma)
		if err != nil {
			t.Fatal(err)
		}
		if restore != "" {
			execAll(t, c, fmt.Sprintf("PRAGMA %s = %s", pragma, restore))
		}
		if got == before || !strings.Contains(strings.ToLower(got), want) {
			t.Fatalf("without the guard, PRAGMA %s went from %q to %q, want %q", pragma, before, got, want)
		}
	}
}

var guardCases = []guardCase{
	{"attach", `ATTACH DATABASE 'DIR/victim.db' AS v`, "ATTACH DATABASE '", dropsVictim},
	{"attach uri", `ATTACH 'file:DIR/victim.db?mode=rw' AS v`, "would attach another database", dropsVictim},
	{"attach expression", `ATTACH 'DIR/' || 'victim.db' AS v`, "would attach another database", dropsVictim},
	{"attach lower case after comments", "/* hi */ -- there\n attach 'DIR/victim.db' as v", "would attach another database", dropsVictim},
	{"attach memory", `ATTACH ':memory:' AS m`, "would attach another database", func(t *testing.T, _ *Driver, c rawConn, sql, _ string) {
		execAll(t, c, sql, "CREATE TABLE m.x(a)", "DETACH m")
	}},
	{"explain attach", `EXPLAIN ATTACH 'DIR/victim.db' AS v`, "would attach", nil}, // EXPLAIN runs nothing; refused all the same
	{"detach", `DETACH DATABASE m`, "would detach a database", func(t *testing.T, _ *Driver, c rawConn, sql, _ string) {
		execAll(t, c, `ATTACH ':memory:' AS m`, sql)
	}},
	{"vacuum into", `VACUUM INTO 'DIR/copy.db'`, "VACUUM INTO would write a copy", writesCopy},
	{"vacuum schema into", `vacuum main into 'DIR/copy.db'`, "VACUUM INTO", writesCopy},
	{"vacuum into expression", `VACUUM INTO 'DIR/' || 'copy.db'`, "VACUUM INTO", writesCopy},
	// load_extension: their SQLite refuses it too while extension loading
	// is off (ncruces has no such function); the guard names it.
	{"load_extension", `SELECT load_extension('DIR/lib.so')`, "load_extension() loads a shared library", nil},
	{"temp_store_directory", `PRAGMA temp_store_directory = 'DIR'`, "PRAGMA temp_store_directory would move", nil}, // harm: TestTempStoreDirectory
	{"soft_heap_limit", `PRAGMA soft_heap_limit = 12345678`, "for the whole process", readsBack("soft_heap_limit", "12345678", "0")},
	{"journal_mode", `PRAGMA journal_mode = off`, "PRAGMA journal_mode is set by gobench on every connection and reported with the result: use --journal", readsBack("journal_mode", "off", "")},
	{"journal_mode call", `PRAGMA main.journal_mode(memory)`, "use --journal", readsBack("journal_mode", "memory", "")},
	{"synchronous", `PRAGMA synchronous = OFF`, "use --sync", readsBack("synchronous", "0", "")},
	{"busy_timeout", `PRAGMA busy_timeout = 1`, "use --busy-timeout", readsBack("busy_timeout", "1", "")},
	{"wal_autocheckpoint", `PRAGMA wal_autocheckpoint = 7`, "use --checkpoint", readsBack("wal_autocheckpoint", "7", "")},
	{"locking_mode", `PRAGMA locking_mode = EXCLUSIVE`, "normal locking mode", readsBack("locking_mode", "exclusive", "")},
	{"application_id", `PRAGMA application_id = 7`, "gobench's mark", readsBack("application_id", "7", "")},
	// No driver has these modules (TestNoFileFunctions): the guard refuses
	// them by name should one come.
	{"csv module", `CREATE VIRTUAL TABLE c USING csv(filename='DIR/victim.db')`, "the csv module reads a file", nil},
	{"nul byte", "SELECT 1\x00; ATTACH 'DIR/victim.db' AS v", "NUL byte (at byte 8)", nil},
	// ncruces's driver panics on a name of 1,000,000 bytes handed to the
	// authorizer; no token may come near.
	{"long name", `CREATE TABLE "` + strings.Repeat("n", 1_100_000) + `"(a)`, "a name or string of 1100002 bytes", nil},
	{"long pragma value", `PRAGMA cache_size = '` + strings.Repeat("1", 600_000) + `''` + strings.Repeat("1", 600_000) + `'`, "a name or string of 1200004 bytes", nil},
	{"long number", `PRAGMA cache_size = ` + strings.Repeat("1", 1_100_000), "a name or string of 1100000 bytes", nil},
	{"nul byte first", "\x00SELECT 2", "NUL byte (at byte 0)", nil}, // harm: mattn crashes (TestNULWithoutGuard)
}

// writesCopy is the harm of a VACUUM INTO: a new file outside the run.
func writesCopy(t *testing.T, _ *Driver, c rawConn, sql, dir string) {
	execAll(t, c, sql)
	if _, err := os.Stat(filepath.Join(dir, "copy.db")); err != nil {
		t.Fatalf("without the guard, %s made no copy: %v", sql, err)
	}
}

// Every statement of the user's that would reach another file, or change
// what gobench sets and reports, is refused when it is prepared, on every
// driver, with the statement and why; the other database keeps its rows
// and no file appears. The same statement on a plain connection does what
// the guard prevented.
func TestGuard(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, tt := range guardCases {
			t.Run(tt.name, func(t *testing.T) {
				dir := t.TempDir()
				makeVictim(t, d, dir)
				st := openInit(t, d, store.Config{Path: filepath.Join(dir, "run.db"), Options: DefaultOptions().Encode()})
				defer st.Close()
				c, err := st.Conn(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				before := files(t, dir)
				sql := strings.ReplaceAll(tt.sql, "DIR", dir)
				_, err = c.(store.Scripter).Prepare(sql, nil)
				if absentOn[tt.name] == d.Name() {
					if err == nil || !strings.Contains(err.Error(), "no such function") {
						t.Fatalf("Prepare(%.80q) = %.300v; want no such function", sql, err)
					}
					return
				}
				if !errors.Is(err, ErrRefused) || !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), ": refused: ") {
					t.Fatalf("Prepare(%.80q) = %.300v; want a refusal with %q", sql, err, tt.want)
				}
				if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || strings.Contains(msg, "not authorized") {
					t.Errorf("the refusal is not one line of its own: %q", msg)
				}
				if n := victimCount(t, d, dir); n != victimRows {
					t.Errorf("the victim's table holds %s rows, want %s", n, victimRows)
				}
				if after := files(t, dir); !slices.Equal(before, after) {
					t.Errorf("files before %v, after %v", before, after)
				}
				// The connection goes on: gobench's own statements and the
				// user's allowed ones still run.
				if err := c.Put(1, []byte("v")); err != nil {
					t.Fatalf("after the refusal: %v", err)
				}
				if tt.harm == nil {
					return
				}
				plain, err := d.be.open(dsn(filepath.Join(dir, "run.db"), "rw"))
				if err != nil {
					t.Fatal(err)
				}
				defer plain.Close()
				tt.harm(t, d, plain, sql, dir)
			})
		}
	})
}

// PRAGMA temp_store_directory names a directory for every connection of
// the process: without the guard every driver's SQLite takes it (even
// those compiled with SQLITE_OMIT_DEPRECATED), so the test puts it back.
func TestTempStoreDirectory(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		plain, err := d.be.open(dsn(filepath.Join(dir, "p.db"), "rwc"))
		if err != nil {
			t.Fatal(err)
		}
		defer plain.Close()
		execAll(t, plain, fmt.Sprintf("PRAGMA temp_store_directory = '%s'", dir))
		got, err := plain.queryString("PRAGMA temp_store_directory")
		execAll(t, plain, "PRAGMA temp_store_directory = ''")
		if err != nil || got != dir {
			t.Fatalf("without the guard, temp_store_directory = %q, %v; want %q", got, err, dir)
		}
	})
}

// What the guard allows: plain VACUUM (which attaches a temporary
// database of its own), reading any pragma, setting one that tunes only
// its connection, temporary tables, triggers and views within the
// database. And what runs later is guarded too: a trigger's or a view's
// body is compiled into the statement that uses it, so a statement that
// would run a refused function through one is refused when it is
// prepared.
func TestGuardAllows(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		st := openInit(t, d, store.Config{Path: filepath.Join(dir, "run.db"), Options: DefaultOptions().Encode()})
		defer st.Close()
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		sc := c.(store.Scripter)
		run := func(sql string) error {
			s, err := sc.Prepare(sql, nil)
			if err != nil {
				return err
			}
			_, err = s.Run()
			return err
		}
		for _, q := range []string{
			"CREATE TABLE a(x)",
			"INSERT INTO a VALUES (1)",
			"DELETE FROM a",
			"VACUUM",
			"VACUUM main",
			"PRAGMA journal_mode",
			"PRAGMA synchronous",
			"PRAGMA temp_store_directory",
			"PRAGMA cache_size = 100",
			"PRAGMA temp_store = MEMORY",
			"PRAGMA integrity_check",
			"PRAGMA optimize",
			"SELECT * FROM pragma_table_info('a')",
			"CREATE TEMP TABLE tt(y)",
			"INSERT INTO tt VALUES (1)",
			"CREATE TABLE log(y)",
			"CREATE TRIGGER tr AFTER INSERT ON a BEGIN INSERT INTO log VALUES (new.x); END",
			"INSERT INTO a VALUES (2)",
			"CREATE VIEW v AS SELECT x FROM a",
			"SELECT * FROM v",
			"CREATE TRIGGER bad AFTER DELETE ON a BEGIN SELECT load_extension('x'); END",
			"CREATE VIEW badv AS SELECT load_extension('x')",
		} {
			if err := run(q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
		// A trigger's body: the guard refuses the statement that would fire
		// it, where the driver has the function (ncruces has none). A view:
		// SQLite refuses first, since load_extension may not be used in a
		// view or trigger (SQLITE_DIRECTONLY) once SQLite checks.
		_, err = sc.Prepare("DELETE FROM a", nil)
		if !errors.Is(err, ErrRefused) && !strings.Contains(fmt.Sprint(err), "no such function: load_extension") {
			t.Errorf("DELETE FROM a, firing a trigger that calls load_extension: %v; want a refusal", err)
		}
		if _, err := sc.Prepare("SELECT * FROM badv", nil); err == nil {
			t.Error("SELECT from a view that calls load_extension: prepared")
		}
		// The run after a VACUUM is back to gobench's own SQL: its ops run.
		if err := c.Put(1, []byte("v")); err != nil {
			t.Fatal(err)
		}
	})
}

// More than one statement in one Prepare (a script never gives one: it
// splits at semicolons) cannot smuggle a refused one past the check of
// the first keyword: ncruces and capi refuse the text, mattn runs the
// first statement only, and modernc, which runs each in turn, compiles
// the next under the authorizer, which refuses it.
func TestGuardSecondStatement(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, second := range []string{
			`ATTACH 'DIR/victim.db' AS v; DROP TABLE v.t`,
			`PRAGMA journal_mode = off`,
			`VACUUM INTO 'DIR/copy.db'`,
		} {
			dir := t.TempDir()
			makeVictim(t, d, dir)
			st := openInit(t, d, store.Config{Path: filepath.Join(dir, "run.db"), Options: DefaultOptions().Encode()})
			c, err := st.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			sql := "CREATE TABLE z(a); " + strings.ReplaceAll(second, "DIR", dir)
			s, err := c.(store.Scripter).Prepare(sql, nil)
			if err == nil {
				_, err = s.Run()
			}
			switch d.Name() {
			case "mattn": // the first statement runs, the rest is never read
				if err != nil {
					t.Errorf("%s: %v", sql, err)
				}
			case "modernc": // the authorizer refuses the second as SQLite compiles it
				if !errors.Is(err, ErrRefused) {
					t.Errorf("%s: %v, want a refusal", sql, err)
				}
			default: // more than one statement
				if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "more than one statement") {
					t.Errorf("%s: %v, want it refused as more than one statement", sql, err)
				}
			}
			if n := victimCount(t, d, dir); n != victimRows {
				t.Errorf("%s: the victim's table holds %s rows", sql, n)
			}
			if _, err := os.Stat(filepath.Join(dir, "copy.db")); err == nil {
				t.Errorf("%s: copy.db written", sql)
			}
			if n, err := runOne(c, "SELECT 1 FROM pragma_journal_mode WHERE journal_mode = 'delete'"); err != nil || n != 1 {
				t.Errorf("%s: the journal mode is no longer delete (%d, %v)", sql, n, err)
			}
			c.Close()
			st.Close()
		}
	})
}

// SQLITE_LIMIT_ATTACHED is 1 on op connections, not 0: a plain VACUUM
// attaches a temporary database of its own, and with a limit of 0 it
// fails. The guard's connections VACUUM (TestGuardAllows).
func TestVacuumNeedsOneAttached(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		plain, err := d.be.open(dsn(filepath.Join(t.TempDir(), "p.db"), "rwc"))
		if err != nil {
			t.Fatal(err)
		}
		defer plain.Close()
		execAll(t, plain, "CREATE TABLE a(x)")
		if !setLimitAttached(t, plain, 0) {
			t.Skip("no way to set a limit on this driver's plain connection")
		}
		err = plain.exec("VACUUM")
		if err == nil || !strings.Contains(err.Error(), "too many attached databases - max 0") {
			t.Fatalf("VACUUM with SQLITE_LIMIT_ATTACHED 0: %v", err)
		}
		setLimitAttached(t, plain, maxAttached)
		execAll(t, plain, "VACUUM")
	})
}

// The authorizer's decisions, by whose statement is compiling: what is
// refused to gobench's own SQL too, and what only to the user's.
func TestGuardAuthorize(t *testing.T) {
	for _, tt := range []struct {
		mode         guardMode
		vacuum       bool
		action       int
		arg1, arg2   string
		deny         bool
		wantInReason string
	}{
		{ownSQL, false, authAttach, "/x/victim.db", "", true, `"/x/victim.db"`},
		{ownSQL, false, authAttach, "", "", false, ""}, // a VACUUM of gobench's own
		{userPrepare, false, authAttach, "", "", true, "attach another database"},
		{userRun, false, authAttach, "", "", true, "attach another database"},
		{userRun, true, authAttach, "", "", false, ""}, // the user's VACUUM attaching its temporary database
		{userRun, true, authAttach, "/x/copy.db", "", true, "copy.db"},
		{ownSQL, false, authDetach, "m", "", true, "detach"},
		{ownSQL, false, authFunction, "", "LOAD_EXTENSION", true, "shared library"},
		{ownSQL, false, authFunction, "", "writefile", true, "writes a file"},
		{userPrepare, false, authFunction, "", "printf", false, ""},
		{ownSQL, false, authPragma, "temp_store_directory", "/tmp/x", true, "temporary files"},
		{ownSQL, false, authPragma, "temp_store_directory", "", false, ""},
		{ownSQL, false, authPragma, "journal_mode", "wal", false, ""}, // gobench's own setting
		{userPrepare, false, authPragma, "Journal_Mode", "wal", true, "--journal"},
		{userRun, false, authPragma, "synchronous", "0", true, "--sync"},
		{userPrepare, false, authPragma, "journal_mode", "", false, ""},
		{userPrepare, false, authPragma, "cache_size", "100", false, ""},
		{userPrepare, false, authCreateVTable, "c", "CSV", true, "reads a file"},
		{userPrepare, false, authCreateVTable, "f", "fts5", false, ""},
		{userPrepare, false, 18 /* SQLITE_INSERT */, "t", "", false, ""},
	} {
		g := &guard{mode: tt.mode, vacuum: tt.vacuum}
		got := g.authorize(tt.action, tt.arg1, tt.arg2)
		if (got == authDeny) != tt.deny || !strings.Contains(g.denied, tt.wantInReason) {
			t.Errorf("mode %d vacuum %v action %d (%q, %q) = %d (%q); want deny %v with %q", tt.mode, tt.vacuum, tt.action, tt.arg1, tt.arg2, got, g.denied, tt.deny, tt.wantInReason)
		}
	}
}

// No driver registers a function or a virtual table module that reaches
// files (the CLI's readfile, writefile, edit; fsdir, csv, zipfile): the
// guard refuses them by name, and this says when a driver starts to
// register one. load_extension exists where extension loading is
// compiled in, and is refused by SQLite itself while loading is off.
func TestNoFileFunctions(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		c, err := d.be.open(dsn(filepath.Join(t.TempDir(), "p.db"), "rwc"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fns, err := c.queryString("SELECT group_concat(name, ' ') FROM (SELECT DISTINCT name FROM pragma_function_list)")
		if err != nil {
			t.Fatal(err)
		}
		mods, err := c.queryString("SELECT group_concat(name, ' ') FROM pragma_module_list")
		if err != nil {
			t.Fatal(err)
		}
		for name := range refusedFunctions {
			if name != "load_extension" && name != "fts3_tokenizer" && slices.Contains(strings.Fields(fns), name) {
				t.Errorf("%s registers %s()", d.Name(), name)
			}
		}
		for name := range refusedModules {
			if slices.Contains(strings.Fields(mods), name) {
				t.Errorf("%s has the %s module", d.Name(), name)
			}
		}
		if slices.Contains(strings.Fields(fns), "load_extension") {
			if err := c.exec("SELECT load_extension('/nonexistent.so')"); err == nil || !strings.Contains(err.Error(), "not authorized") {
				t.Errorf("%s: load_extension without the guard: %v, want SQLite's refusal", d.Name(), err)
			}
		}
	})
}

// runOne prepares and runs a statement of the user's and returns its
// rows.
func runOne(c store.Conn, sql string) (int64, error) {
	s, err := c.(store.Scripter).Prepare(sql, nil)
	if err != nil {
		return 0, err
	}
	return s.Run()
}

// rawLimits are setLimitAttached's cases for the connections of cgo
// builds: each says whether c is its kind.
var rawLimits []func(c rawConn, n int) bool

// setLimitAttached sets SQLITE_LIMIT_ATTACHED on a plain connection, as
// the guard does on op connections.
func setLimitAttached(t *testing.T, c rawConn, n int) bool {
	t.Helper()
	switch c := c.(type) {
	case *ncRaw:
		c.c.Limit(nsqlite.LIMIT_ATTACHED, n)
		return true
	case *sqlRaw:
		if db, err := moderncHandle(c.c); err == nil {
			tls := libc.NewTLS()
			defer tls.Close()
			msqlite3.Xsqlite3_limit(tls, db, limitAttached, int32(n))
			return true
		}
	}
	for _, f := range rawLimits {
		if f(c, n) {
			return true
		}
	}
	return false
}

// Why the guard bounds tokens: ncruces's driver panics when SQLite hands
// its authorizer a name of 1,000,000 bytes or more, as it does for a
// table's name when the table is created.
func TestLongNameWithoutBound(t *testing.T) {
	c, err := nsqlite.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.SetAuthorizer(func(nsqlite.AuthorizerActionCode, string, string, string, string) nsqlite.AuthorizerReturnCode {
		return nsqlite.AUTH_OK
	})
	if err != nil {
		t.Fatal(err)
	}
	panicked := func() (p any) {
		defer func() { p = recover() }()
		s, _, _ := c.Prepare(`CREATE TABLE "` + strings.Repeat("n", 1_100_000) + `"(a)`)
		if s != nil {
			s.Close()
		}
		return nil
	}()
	if panicked == nil {
		t.Fatal("ncruces took a name of 1,100,000 bytes in its authorizer: the bound may no longer be needed")
	}
}
