package sqlite

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

// testDrivers lists the drivers of this build; the cgo test file adds mattn
// and capi.
var testDrivers = []*Driver{Modernc(), Ncruces()}

func forEachDriver(t *testing.T, f func(t *testing.T, d *Driver)) {
	for _, d := range testDrivers {
		t.Run(d.Name(), func(t *testing.T) { f(t, d) })
	}
}

func cfg(t storetest.T, o Options) store.Config {
	return store.Config{Path: filepath.Join(t.TempDir(), "test.db"), Options: o.Encode()}
}

func TestConformance(t *testing.T) {
	t.Parallel()
	for _, journal := range []string{"rollback", "wal"} {
		t.Run(journal, func(t *testing.T) {
			forEachDriver(t, func(t *testing.T, d *Driver) {
				o := DefaultOptions()
				o.Journal = journal
				storetest.Run(t, d, func(t storetest.T) store.Config { return cfg(t, o) })
			})
		})
	}
}

func openInit(t testing.TB, d *Driver, c store.Config) store.Store {
	t.Helper()
	st, err := d.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

func facts(t *testing.T, st store.Store) map[string]string {
	t.Helper()
	fs, err := st.(store.Describer).Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, f := range fs {
		m[f.Name] = f.Value
	}
	return m
}

// Every journal mode and sync level is in force as asked, read back from
// SQLite, on every driver: in particular mattn's WAL default of NORMAL is
// overridden.
func TestSettingsReadBack(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, journal := range JournalModes() {
			for _, sync := range SyncLevels() {
				o := Options{Journal: journal, Sync: sync, BusyTimeoutMS: 1234}
				f := facts(t, openInit(t, d, cfg(t, o)))
				if want := journalModes[journal]; f["journal_mode"] != want {
					t.Errorf("%s/%s: journal_mode = %q, want %q", journal, sync, f["journal_mode"], want)
				}
				if f["synchronous"] != sync {
					t.Errorf("%s/%s: synchronous = %q, want %q", journal, sync, f["synchronous"], sync)
				}
				if f["busy_timeout_ms"] != "1234" {
					t.Errorf("%s/%s: busy_timeout = %q, want 1234", journal, sync, f["busy_timeout_ms"])
				}
				if !strings.HasPrefix(f["sqlite_version"], "3.") {
					t.Errorf("sqlite_version = %q", f["sqlite_version"])
				}
			}
		}
	})
}

// A file gobench did not create is refused and left byte for byte as it
// was; an empty file is taken.
func TestRefusesForeignDatabase(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		cases := map[string][]byte{
			"text.txt":  []byte("my precious notes\n"),
			"sqlite.db": nil, // filled below with a foreign SQLite database
		}
		foreign := filepath.Join(dir, "sqlite.db")
		{
			o := DefaultOptions()
			st := openInit(t, d, store.Config{Path: foreign, Options: o.Encode()})
			c, err := st.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if err := setApplicationID(c, 7); err != nil {
				t.Fatal(err)
			}
			c.Close()
			b, err := os.ReadFile(foreign)
			if err != nil {
				t.Fatal(err)
			}
			cases["sqlite.db"] = b
		}
		for name, content := range cases {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, content, 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := d.Open(context.Background(), store.Config{Path: p})
			if err != nil {
				t.Fatal(err)
			}
			err = st.Init(context.Background())
			if !errors.Is(err, store.ErrForeign) {
				t.Errorf("%s: Init error = %v, want ErrForeign", name, err)
			}
			after, _ := os.ReadFile(p)
			if string(after) != string(content) {
				t.Errorf("%s: file changed by a refused Init", name)
			}
		}
		// An empty file is no database gobench created either: refused, and
		// taken with Reuse.
		empty := filepath.Join(dir, "empty.db")
		if err := os.WriteFile(empty, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		st, _ := d.Open(context.Background(), store.Config{Path: empty})
		if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), "is empty") {
			t.Errorf("an empty file: %v, want ErrForeign", err)
		}
		if fi, err := os.Stat(empty); err != nil || fi.Size() != 0 {
			t.Errorf("the refused empty file changed: %v %v", fi.Size(), err)
		}
		openInit(t, d, store.Config{Path: empty, Reuse: true})
	})
}

// A foreign database in WAL mode is refused without a -wal or -shm file
// appearing beside it; one with a hot journal (a writer stopped mid
// transaction) is refused and named so, its journal not rolled back.
func TestRefusesForeignWALAndHotJournal(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		wal := filepath.Join(dir, "wal.db")
		raw, err := d.be.open(dsn(wal, "rwc"))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"PRAGMA journal_mode=wal", "CREATE TABLE t(x)", "INSERT INTO t VALUES(1)"} {
			if _, err := raw.queryString(q); err != nil {
				t.Fatal(err)
			}
		}
		raw.Close()
		before := snapshot(t, dir)
		st, _ := d.Open(context.Background(), store.Config{Path: wal})
		if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
			t.Fatalf("a foreign WAL database: %v", err)
		}
		if after := snapshot(t, dir); after != before {
			t.Errorf("a refused WAL database's directory changed:\n%s\nbecame\n%s", before, after)
		}

		// A hot journal: copy a database and its journal while a write
		// transaction that spilled to the journal is open.
		src := filepath.Join(dir, "src.db")
		w, err := d.be.open(dsn(src, "rwc"))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		for _, q := range []string{"PRAGMA cache_size=1", "CREATE TABLE t(x)", "INSERT INTO t SELECT randomblob(1000) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i<200) SELECT i FROM c)", "BEGIN", "UPDATE t SET x=randomblob(1000)"} {
			if err := w.exec(q); err != nil {
				t.Fatal(err)
			}
		}
		hot := filepath.Join(dir, "hot.db")
		for _, suffix := range []string{"", "-journal"} {
			b, err := os.ReadFile(src + suffix)
			if err != nil || len(b) == 0 {
				t.Fatalf("no %s to copy: %v", src+suffix, err)
			}
			if err := os.WriteFile(hot+suffix, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before = snapshot(t, dir)
		st, _ = d.Open(context.Background(), store.Config{Path: hot})
		if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), "hot journal") {
			t.Fatalf("a foreign database with a hot journal: %v", err)
		}
		if after := snapshot(t, dir); after != before {
			t.Errorf("a refused database with a hot journal changed:\n%s\nbecame\n%s", before, after)
		}
	})
}

// snapshot lists a directory's files with their sizes and a hash of their
// contents.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %x\n", e.Name(), len(data), sha256.Sum256(data))
	}
	return b.String()
}

// A gobench database that another process keeps locked past the busy
// timeout is reported as locked, not as foreign.
func TestLockedDatabase(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		o := DefaultOptions()
		o.BusyTimeoutMS = 100
		c := cfg(t, o)
		openInit(t, d, c)
		holder, err := d.be.open(dsn(c.Path, "rw"))
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		if err := holder.exec("BEGIN EXCLUSIVE"); err != nil {
			t.Fatal(err)
		}
		st, _ := d.Open(context.Background(), c)
		err = st.Init(context.Background())
		if err == nil || errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), "is locked by another process") {
			t.Fatalf("Init of a locked database: %v", err)
		}
	})
}

// A writer that cannot take the lock within the busy timeout fails with
// class busy.
func TestBusyClass(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		o := DefaultOptions()
		o.BusyTimeoutMS = 0
		_, a, b := twoConns(t, d, o)
		if err := a.(store.Batcher).Begin(); err != nil {
			t.Fatal(err)
		}
		err := b.Put(1, []byte("x"))
		if got := store.Classify(err); got != store.Busy {
			t.Fatalf("Put while another connection holds the write lock: %v (class %v), want busy", err, got)
		}
		if err := a.(store.Batcher).Rollback(); err != nil {
			t.Fatal(err)
		}
		if err := b.Put(1, []byte("x")); err != nil {
			t.Fatalf("Put after the lock is released: %v", err)
		}
	})
}

// twoConns opens a store with options o and two connections to it, all
// closed when the test ends.
func twoConns(t *testing.T, d *Driver, o Options) (st store.Store, a, b store.Conn) {
	t.Helper()
	st = openInit(t, d, cfg(t, o))
	t.Cleanup(func() { st.Close() })
	conns := make([]store.Conn, 2)
	for i := range conns {
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c
	}
	return st, conns[0], conns[1]
}

// A worker connection never creates a database.
func TestConnDoesNotCreate(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		p := filepath.Join(t.TempDir(), "missing.db")
		st, err := d.Open(context.Background(), store.Config{Path: p})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Conn(context.Background()); err == nil {
			t.Fatal("Conn on a missing database succeeded")
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("Conn created %s", p)
		}
	})
}

func TestOptionsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"default", DefaultOptions(), ""},
		{"journal", Options{Journal: "wall", Sync: "full"}, `unknown journal mode "wall"`},
		{"sync", Options{Journal: "wal", Sync: "fast"}, `unknown sync level "fast"`},
		{"busy", Options{Journal: "wal", Sync: "full", BusyTimeoutMS: -1}, "busy timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.o.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := Modernc().Open(context.Background(), store.Config{Path: "x", Options: []byte(`{"jurnal":"wal"}`)}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("unknown option field: %v, want ErrInvalid", err)
	}
}

func TestDSNEscapesPath(t *testing.T) {
	t.Parallel()
	got := dsn("/tmp/a b?c#d%e.db", "rw")
	if want := "file:/tmp/a%20b%3Fc%23d%25e.db?mode=rw"; got != want {
		t.Fatalf("dsn = %q, want %q", got, want)
	}
}

// setApplicationID stamps another application's id on the database a
// connection has open.
func setApplicationID(c store.Conn, id int) error {
	return rawExec(c, fmt.Sprintf("PRAGMA application_id=%d", id))
}

// An in-memory database is shared by the store's connections, needs no
// file, and refuses WAL.
func TestMemory(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		storetest.Run(t, d, func(t storetest.T) store.Config {
			o := DefaultOptions()
			o.Memory, o.Journal = true, "memory"
			return store.Config{Path: filepath.Join(t.TempDir(), "mem"), Options: o.Encode()}
		})
		o := DefaultOptions()
		o.Memory, o.Journal = true, "wal"
		if _, err := d.Open(context.Background(), store.Config{Path: "x", Options: o.Encode()}); err == nil || !strings.Contains(err.Error(), "journal mode wal needs files") {
			t.Errorf("WAL in memory: %v", err)
		}
	})
}

// With Reuse, Init takes a database gobench did not create, creates its kv
// table there, and leaves the user's tables as they were.
func TestReuse(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		path := filepath.Join(t.TempDir(), "theirs.db")
		raw, err := d.be.open(dsn(path, "rwc"))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"CREATE TABLE notes(x)", "INSERT INTO notes VALUES('keep me')"} {
			if err := raw.exec(q); err != nil {
				t.Fatal(err)
			}
		}
		raw.Close()
		st, _ := d.Open(context.Background(), store.Config{Path: path})
		if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
			t.Fatalf("without reuse: %v, want ErrForeign", err)
		}
		st, _ = d.Open(context.Background(), store.Config{Path: path, Reuse: true})
		if err := st.Init(context.Background()); err != nil {
			t.Fatalf("with reuse: %v", err)
		}
		c, _ := st.Conn(context.Background())
		if err := c.Put(1, []byte("x")); err != nil {
			t.Fatal(err)
		}
		c.Close()
		raw, _ = d.be.open(dsn(path, "rw"))
		defer raw.Close()
		if v, err := raw.queryString("SELECT x FROM notes"); err != nil || v != "keep me" {
			t.Errorf("the user's table: %q, %v", v, err)
		}
	})
}

// A database taken with Reuse gets its own journal mode back when the
// store closes: a run in WAL leaves a rollback-journal database in
// rollback mode, and the other way round.
func TestReuseRestoresJournal(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, tt := range []struct{ theirs, run string }{{"delete", "wal"}, {"wal", "rollback"}} {
			path := filepath.Join(t.TempDir(), "theirs.db")
			raw, err := d.be.open(dsn(path, "rwc"))
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"PRAGMA journal_mode=" + tt.theirs, "CREATE TABLE notes(x)"} {
				if _, err := raw.queryString(q); err != nil {
					t.Fatal(err)
				}
			}
			raw.Close()
			o := DefaultOptions()
			o.Journal = tt.run
			st := openInit(t, d, store.Config{Path: path, Reuse: true, Options: o.Encode()})
			if got := facts(t, st)["journal_mode"]; got != journalModes[tt.run] {
				t.Fatalf("during the run: journal_mode %s, want %s", got, tt.run)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			raw, _ = d.be.open(dsn(path, "rw"))
			got, err := raw.queryString("PRAGMA journal_mode")
			raw.Close()
			if err != nil || got != tt.theirs {
				t.Errorf("theirs %s, run %s: journal_mode %q after the run (%v), want %s", tt.theirs, tt.run, got, err, tt.theirs)
			}
		}
	})
}

// Incremental blob I/O reads what SQL wrote and overwrites in place at the
// same size; it refuses a resize and a missing row, and honours a batch's
// rollback. Drivers without it are refused at Open, naming those with it.
func TestBlobAPI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, journal := range []string{"rollback", "wal"} {
		forEachDriver(t, func(t *testing.T, d *Driver) {
			if _, ok := d.be.(blobBackend); !ok {
				t.Skip("no blob I/O: refusal checked below")
			}
			t.Run(journal, func(t *testing.T) { testBlobAPI(t, d, journal) })
		})
	}
	for _, d := range testDrivers {
		if _, ok := d.be.(blobBackend); ok {
			continue
		}
		o := DefaultOptions()
		o.API = APIBlob
		if _, err := d.Open(ctx, cfg(t, o)); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "ncruces or capi") {
			t.Errorf("%s with the blob API: %v", d.Name(), err)
		}
	}
	o := DefaultOptions()
	o.API = "mmap"
	if _, err := Ncruces().Open(ctx, cfg(t, o)); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("an unknown API: %v", err)
	}
}

func testBlobAPI(t *testing.T, d *Driver, journal string) {
	ctx := context.Background()
	o := DefaultOptions()
	o.Journal = journal
	c := cfg(t, o)
	st := openInit(t, d, c)
	defer st.Close()
	sqlConn, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlConn.Close()
	for k := range uint64(10) {
		if err := sqlConn.Put(k, []byte(strings.Repeat(fmt.Sprint(k), int(k)+1))); err != nil {
			t.Fatal(err)
		}
	}
	o.API = APIBlob
	c.Options = o.Encode()
	bst, err := d.Open(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	defer bst.Close()
	if f := facts(t, bst); !strings.HasPrefix(f["api"], "blob") {
		t.Errorf("facts do not name the blob API: %v", f)
	}
	bc, err := bst.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	var buf []byte
	for k := range uint64(10) {
		if buf, err = bc.Get(k, buf); err != nil || string(buf) != strings.Repeat(fmt.Sprint(k), int(k)+1) {
			t.Fatalf("blob read of %d = %q, %v", k, buf, err)
		}
	}
	if err := bc.(store.Updater).Update(3, []byte("abcd")); err != nil {
		t.Fatal(err)
	}
	if v, err := sqlConn.Get(3, nil); err != nil || string(v) != "abcd" {
		t.Errorf("SQL read after a blob write = %q, %v", v, err)
	}
	if err := bc.(store.Updater).Update(3, []byte("toolong")); err == nil || !strings.Contains(err.Error(), "cannot resize") {
		t.Errorf("a resize through blob I/O: %v", err)
	}
	if _, err := bc.Get(99, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("blob read of a missing row: %v", err)
	}
	if err := bc.(store.Updater).Update(99, []byte("x")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("blob write of a missing row: %v", err)
	}
	tx := bc.(store.Batcher)
	if err := tx.Begin(); err != nil {
		t.Fatal(err)
	}
	if err := bc.(store.Updater).Update(3, []byte("wxyz")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if v, _ := sqlConn.Get(3, nil); string(v) != "abcd" {
		t.Errorf("after a rolled-back blob write: %q", v)
	}
}

// LogState reads the WAL's size and the reset counter from its header; the
// counter goes up when a writer restarts the log after a complete
// checkpoint. Other journals and in-memory databases keep no log to show.
func TestLogState(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		o := DefaultOptions()
		o.Journal = "wal"
		st := openInit(t, d, cfg(t, o))
		defer st.Close()
		obs := st.(store.WALObserver)
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for k := range uint64(50) {
			if err := c.Put(k, []byte(strings.Repeat("v", 500))); err != nil {
				t.Fatal(err)
			}
		}
		bytes, seq, ok := obs.WALState()
		if !ok || bytes <= 32 {
			t.Fatalf("after 50 commits: %d bytes, ok %v", bytes, ok)
		}
		raw, err := st.(*db).open("rw")
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		if _, err := raw.queryString("PRAGMA wal_checkpoint(RESTART)"); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(1, []byte("again")); err != nil {
			t.Fatal(err)
		}
		if _, seq2, _ := obs.WALState(); seq2 != seq+1 {
			t.Errorf("reset counter %d after a restart, was %d", seq2, seq)
		}
		for _, other := range []Options{DefaultOptions(), {Journal: "memory", Sync: "off", Memory: true}} {
			st := openInit(t, d, cfg(t, other))
			if _, _, ok := st.(store.WALObserver).WALState(); ok {
				t.Errorf("%+v: a log where none is kept", other)
			}
			st.Close()
		}
	})
}

func TestCheckpointOption(t *testing.T) {
	t.Parallel()
	for c, want := range map[string]string{"auto": "1000", "off": "0", "250": "250"} {
		o := DefaultOptions()
		o.Journal, o.Checkpoint = "wal", Checkpoint(c)
		if f := facts(t, openInit(t, Modernc(), cfg(t, o))); f["wal_autocheckpoint"] != want {
			t.Errorf("checkpoint %s: wal_autocheckpoint = %s, want %s", c, f["wal_autocheckpoint"], want)
		}
	}
	for _, bad := range []Options{{Journal: "wal", Sync: "full", Checkpoint: "sometimes"}, {Journal: "wal", Sync: "full", Checkpoint: "-5"}, {Journal: "rollback", Sync: "full", Checkpoint: "off"}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// Through ncruces and capi, the busy handler's calls and waits are
// counted: a writer blocked by another's transaction waits out its busy
// timeout in the handler, then fails with busy, and TakeLockWaits says so
// once.
func TestCountsLockWaits(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		if _, ok := d.be.(countingBackend); !ok {
			t.Skip("the driver's busy handler is SQLite's, uncounted")
		}
		testCountsLockWaits(t, d)
	})
}

func testCountsLockWaits(t *testing.T, d *Driver) {
	o := DefaultOptions()
	o.BusyTimeoutMS = 60
	st, a, b := twoConns(t, d, o)
	if err := a.(store.Batcher).Begin(); err != nil { // holds the write lock
		t.Fatal(err)
	}
	lw := b.(store.LockWaitCounter)
	if err := b.Put(1, []byte("x")); store.Classify(err) != store.Busy {
		t.Fatalf("a write against a held lock: %v", err)
	}
	calls, wait := lw.TakeLockWaits()
	if calls < 2 || wait < 50*time.Millisecond {
		t.Errorf("handler calls %d, wait %v; want several and about the 60 ms timeout", calls, wait)
	}
	if begins, commits := b.(store.BusyStepCounter).TakeBusySteps(); begins != calls || commits != 0 {
		t.Errorf("busy steps: %d begins, %d commits; want each of the %d handler calls counted against BEGIN", begins, commits, calls)
	}
	if err := a.(store.Batcher).Commit(); err != nil {
		t.Fatal(err)
	}
	if err := b.Put(1, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if calls, wait := lw.TakeLockWaits(); calls != 0 || wait != 0 {
		t.Errorf("an uncontended write: %d calls, %v", calls, wait)
	}
	if f := facts(t, st); f["busy_handler"] == "" {
		t.Error("the facts do not say the busy handler is counted")
	}
}
