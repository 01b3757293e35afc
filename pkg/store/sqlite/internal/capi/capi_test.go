//go:build cgo

package capi

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func open(t *testing.T) *Conn {
	t.Helper()
	c, err := Open("file:" + filepath.Join(t.TempDir(), "t.db") + "?mode=rwc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Exec("CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	return c
}

func prepare(t *testing.T, c *Conn, sql string) *Stmt {
	t.Helper()
	s, tail, err := c.Prepare(sql)
	if err != nil || s == nil || tail != "" {
		t.Fatalf("prepare %q: %v, %v, tail %q", sql, s, err, tail)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Each op is one call: writes in both parameter orders, reads that fit the
// buffer and reads that grow it, a missing row, a scan, and the changes
// count that tells an update of a missing row.
func TestOps(t *testing.T) {
	t.Parallel()
	c := open(t)
	put := prepare(t, c, "INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v")
	upd := prepare(t, c, "UPDATE kv SET v=? WHERE k=?")
	del := prepare(t, c, "DELETE FROM kv WHERE k=?")
	get := prepare(t, c, "SELECT * FROM kv WHERE k=?")
	scan := prepare(t, c, "SELECT k, v FROM kv WHERE k>=? ORDER BY k LIMIT ?")
	for k := range int64(5) {
		if n, err := put.Write(KeyValue, k, []byte(strings.Repeat("v", int(k)))); err != nil || n != 1 {
			t.Fatalf("put %d: %d changes, %v", k, n, err)
		}
	}
	if n, err := upd.Write(ValueKey, 2, []byte("two")); err != nil || n != 1 {
		t.Fatalf("update: %d, %v", n, err)
	}
	if n, err := upd.Write(ValueKey, 99, []byte("x")); err != nil || n != 0 {
		t.Fatalf("update of a missing row: %d changes, %v", n, err)
	}
	if n, err := del.Write(KeyOnly, 4, nil); err != nil || n != 1 {
		t.Fatalf("delete: %d, %v", n, err)
	}
	for _, tc := range []struct {
		key  int64
		buf  []byte
		want string
		err  error
	}{
		{2, nil, "two", nil},                  // grows from nothing
		{2, make([]byte, 0, 64), "two", nil},  // fits
		{3, make([]byte, 0, 1), "vvv", nil},   // grows
		{0, make([]byte, 0, 8), "", nil},      // an empty value
		{4, make([]byte, 0, 8), "", ErrNoRow}, // deleted
	} {
		got, err := get.Get(tc.key, 1, tc.buf)
		if string(got) != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("get %d into cap %d = %q, %v; want %q, %v", tc.key, cap(tc.buf), got, err, tc.want, tc.err)
		}
	}
	if n, err := scan.Scan(1, 10); err != nil || n != 3 {
		t.Errorf("scan from 1: %d rows, %v; want 3", n, err)
	}
	if v, err := c.QueryString("SELECT count(*) FROM kv"); err != nil || v != "4" {
		t.Errorf("count = %q, %v", v, err)
	}
}

// Errors carry SQLite's extended code and message; a constraint failure
// leaves the statement usable.
func TestErrors(t *testing.T) {
	t.Parallel()
	c := open(t)
	ins := prepare(t, c, "INSERT INTO kv(k,v) VALUES(?,?)")
	if _, err := ins.Write(KeyValue, 1, []byte("a")); err != nil {
		t.Fatal(err)
	}
	_, err := ins.Write(KeyValue, 1, []byte("b"))
	var e *Error
	if !errors.As(err, &e) || e.Code != 1555 || !strings.Contains(e.Msg, "UNIQUE") { // SQLITE_CONSTRAINT_PRIMARYKEY
		t.Errorf("a duplicate key: %v", err)
	}
	if _, err := ins.Write(KeyValue, 2, []byte("c")); err != nil {
		t.Errorf("after a failure: %v", err)
	}
	if _, _, err := c.Prepare("SELECT nope FROM kv"); err == nil || !strings.Contains(err.Error(), "no such column") {
		t.Errorf("a bad statement: %v", err)
	}
	if _, err := Open("file:" + filepath.Join(t.TempDir(), "missing", "t.db") + "?mode=rw"); err == nil {
		t.Error("opening a file in a missing directory succeeded")
	}
}

// User statements bind every type gobench passes, by name, and report rows;
// bytes and strings are copied at bind time.
func TestBindAndRun(t *testing.T) {
	t.Parallel()
	c := open(t)
	ins := prepare(t, c, "INSERT INTO kv(k,v) VALUES(:k, coalesce(:v, 'null'))")
	if ins.BindCount() != 2 || ins.BindIndex(":v") != 2 || ins.BindIndex(":w") != 0 {
		t.Fatalf("parameters: %d, :v at %d, :w at %d", ins.BindCount(), ins.BindIndex(":v"), ins.BindIndex(":w"))
	}
	for i, v := range []any{nil, int64(7), 2.5, "text", []byte("bytes"), []byte{}} {
		if err := ins.Bind(1, int64(i)); err != nil {
			t.Fatal(err)
		}
		if err := ins.Bind(2, v); err != nil {
			t.Fatalf("bind %T: %v", v, err)
		}
		if rows, err := ins.Run(); err != nil || rows != 0 {
			t.Fatalf("insert %v: %d rows, %v", v, rows, err)
		}
	}
	if err := ins.Bind(1, struct{}{}); err == nil {
		t.Error("bound a struct")
	}
	ins.Clear()
	sel := prepare(t, c, "SELECT k FROM kv WHERE k >= :from")
	if err := sel.Bind(1, int64(2)); err != nil {
		t.Fatal(err)
	}
	if rows, err := sel.Run(); err != nil || rows != 4 {
		t.Errorf("select: %d rows, %v; want 4", rows, err)
	}
	if v, err := c.QueryString("SELECT group_concat(typeof(v), ',') FROM kv"); err != nil || v != "text,integer,real,text,blob,blob" {
		t.Errorf("stored types %q, %v", v, err)
	}
}

// The busy handler waits out its timeout against a held write lock,
// counting its calls and the wait, and the transaction state is SQLite's.
func TestBusyHandler(t *testing.T) {
	t.Parallel()
	dsn := "file:" + filepath.Join(t.TempDir(), "t.db") + "?mode=rwc"
	a, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.Exec("CREATE TABLE t(x); BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if a.Autocommit() || !b.Autocommit() {
		t.Fatalf("autocommit: holder %v, other %v", a.Autocommit(), b.Autocommit())
	}
	b.SetBusyTimeout(30)
	err = b.Exec("BEGIN IMMEDIATE")
	var e *Error
	if !errors.As(err, &e) || e.Code&0xff != 5 {
		t.Fatalf("BEGIN against a held lock: %v", err)
	}
	if calls, wait := b.LockWaits(); calls < 2 || wait <= 0 || b.BusyCalls() != calls {
		t.Errorf("busy handler: %d calls, waited %v", calls, wait)
	}
}

// Autocommit is what SQLite says after every kind of call: the state an
// op call read on its way out of C, or asked anew after any other call.
func TestAutocommitFollowsEveryCall(t *testing.T) {
	t.Parallel()
	c := open(t)
	begin := prepare(t, c, "BEGIN IMMEDIATE")
	commit := prepare(t, c, "COMMIT")
	put := prepare(t, c, "INSERT INTO kv(k,v) VALUES(?,?)")
	get := prepare(t, c, "SELECT * FROM kv WHERE k=?")
	user := prepare(t, c, "ROLLBACK")
	steps := []struct {
		name string
		do   func() error
		want bool
	}{
		{"start", func() error { return nil }, true},
		{"BEGIN", begin.Exec, false},
		{"write in it", func() error { _, err := put.Write(KeyValue, 1, []byte("x")); return err }, false},
		{"read in it", func() error { _, err := get.Get(1, 1, nil); return err }, false},
		{"COMMIT", commit.Exec, true},
		{"sqlite3_exec BEGIN", func() error { return c.Exec("BEGIN") }, false},
		{"a user's ROLLBACK", func() error { _, err := user.Run(); return err }, true},
		{"BEGIN again", begin.Exec, false},
		{"a failed write keeps it open", func() error {
			if _, err := put.Write(KeyValue, 1, []byte("y")); err == nil {
				return errors.New("a duplicate key was accepted")
			}
			return nil
		}, false},
		{"a query string", func() error { _, err := c.QueryString("SELECT 1"); return err }, false},
		{"sqlite3_exec ROLLBACK", func() error { return c.Exec("ROLLBACK") }, true},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := c.Autocommit(); got != s.want {
			t.Fatalf("after %s: autocommit %v, want %v", s.name, got, s.want)
		}
		if got := askSQLite(c); got != s.want {
			t.Fatalf("after %s: SQLite says autocommit %v", s.name, got)
		}
	}
}

// askSQLite asks SQLite itself, forgetting what Conn recorded.
func askSQLite(c *Conn) bool {
	c.ac = -1
	return c.Autocommit()
}

// A held blob handle moves from key to key with sqlite3_blob_reopen inside
// a transaction, survives a missing key (reopened afresh), writes in place,
// and once released lets the transaction commit.
func TestHeldBlob(t *testing.T) {
	t.Parallel()
	c := open(t)
	put := prepare(t, c, "INSERT INTO kv(k,v) VALUES(?,?)")
	for k := range int64(5) {
		if _, err := put.Write(KeyValue, k, []byte(fmt.Sprint("value-", k))); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Exec("BEGIN"); err != nil {
		t.Fatal(err)
	}
	var buf []byte
	var err error
	for _, k := range []int64{3, 1, 99, 4, 0} {
		buf, err = c.BlobRead(k, buf, true)
		switch {
		case k == 99 && !errors.Is(err, ErrNoRow):
			t.Fatalf("held read of a missing key: %q, %v", buf, err)
		case k != 99 && (err != nil || string(buf) != fmt.Sprint("value-", k)):
			t.Fatalf("held read of %d: %q, %v", k, buf, err)
		}
	}
	if err := c.BlobWrite(2, []byte("VALUE-2"), true); err != nil {
		t.Fatal(err)
	}
	if err := c.BlobWrite(2, []byte("too long"), true); err == nil {
		t.Fatal("a held write changed a value's size")
	}
	c.BlobRelease()
	if err := c.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	if v, err := c.QueryString("SELECT v FROM kv WHERE k=2"); err != nil || v != "VALUE-2" {
		t.Errorf("after commit: %q, %v", v, err)
	}
}

// The authorizer sees each action with its arguments (NULL as "") while a
// statement compiles; a denial fails the prepare; nil removes it, and a
// replaced one is called no more. Limit sets a limit and returns the
// previous value.
func TestAuthorizerAndLimit(t *testing.T) {
	c := open(t)
	type call struct {
		action     int
		arg1, arg2 string
	}
	var calls []call
	err := c.SetAuthorizer(func(action int, arg1, arg2 string) int {
		calls = append(calls, call{action, arg1, arg2})
		if action == 24 { // SQLITE_ATTACH
			return 1 // SQLITE_DENY
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
	prepare(t, c, "SELECT k FROM kv")
	if want := (call{20, "kv", "k"}); !slices.Contains(calls, want) { // SQLITE_READ of kv.k
		t.Errorf("calls %v, want %v among them", calls, want)
	}
	if _, _, err := c.Prepare("ATTACH ':memory:' AS m"); err == nil || !strings.Contains(err.Error(), "not authorized") {
		t.Errorf("a denied ATTACH prepared: %v", err)
	}
	if err := c.SetAuthorizer(nil); err != nil {
		t.Fatal(err)
	}
	calls = nil
	prepare(t, c, "ATTACH ':memory:' AS m")
	if calls != nil {
		t.Errorf("a removed authorizer was called: %v", calls)
	}
	const attached = 7 // SQLITE_LIMIT_ATTACHED
	if prev := c.Limit(attached, 1); prev != 10 {
		t.Errorf("SQLITE_LIMIT_ATTACHED was %d, want SQLite's default 10", prev)
	}
	if now := c.Limit(attached, -1); now != 1 {
		t.Errorf("SQLITE_LIMIT_ATTACHED is %d, want 1", now)
	}
}

// loopStmts prepares the statements a loop in C runs.
func loopStmts(t *testing.T, c *Conn) LoopStmts {
	return LoopStmts{
		Get:      prepare(t, c, "SELECT * FROM kv WHERE k=?"),
		Put:      prepare(t, c, "INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v"),
		Begin:    prepare(t, c, "BEGIN IMMEDIATE"),
		Commit:   prepare(t, c, "COMMIT"),
		Rollback: prepare(t, c, "ROLLBACK"),
	}
}

// A loop in C runs reads and upserts in order in one call, each timed
// around itself in order on one clock, a read of a missing key marked and
// passed over, every upsert committed (the connection is back in
// autocommit), and the values each upsert was given in place.
func TestLoop(t *testing.T) {
	t.Parallel()
	c := open(t)
	s := loopStmts(t, c)
	ops := []LoopOp{
		{Key: 1, Kind: LoopUpsert}, {Key: 1, Kind: LoopRead}, {Key: 9, Kind: LoopRead},
		{Key: 2, Kind: LoopUpsert}, {Key: 1, Kind: LoopUpsert}, {Key: 2, Kind: LoopRead},
	}
	values := []byte("aaaa....????bbbbcccc....") // op i's value at [4i:4i+4]
	n, err := c.Loop(s, ops, values, 4, make([]byte, 0, 16))
	if err != nil || n != len(ops) {
		t.Fatalf("loop: %d ops, %v", n, err)
	}
	for i, o := range ops {
		want := int32(0)
		if o.Key == 9 {
			want = LoopNoRow
		}
		if o.RC != want {
			t.Errorf("op %d: rc %d, want %d", i, o.RC, want)
		}
		if o.T0 <= 0 || o.T1 < o.T0 || (i > 0 && o.T0 < ops[i-1].T1) {
			t.Errorf("op %d: timed %d to %d, after the previous op's end %d", i, o.T0, o.T1, ops[max(i-1, 0)].T1)
		}
	}
	if !askSQLite(c) {
		t.Error("a transaction is open after the loop")
	}
	if v, err := c.QueryString("SELECT group_concat(k || '=' || v, ',') FROM kv ORDER BY k"); err != nil || v != "1=cccc,2=bbbb" {
		t.Errorf("stored %q, %v", v, err)
	}
}

// A loop stops at the first op that fails, says which, rolls back the
// failed upsert's transaction, and runs nothing after it; a read whose
// value outgrows the buffer stops it too; bad arguments run nothing.
func TestLoopStops(t *testing.T) {
	t.Parallel()
	dsn := "file:" + filepath.Join(t.TempDir(), "t.db") + "?mode=rwc"
	c, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Exec("PRAGMA journal_mode=WAL; CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	s := loopStmts(t, c)
	holder, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := holder.Exec("BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	ops := []LoopOp{{Key: 1, Kind: LoopRead}, {Key: 1, Kind: LoopUpsert}, {Key: 2, Kind: LoopRead}}
	n, err := c.Loop(s, ops, make([]byte, 3*8), 8, make([]byte, 0, 8))
	var e *Error
	if n != 2 || !errors.As(err, &e) || e.Code&0xff != 5 || ops[1].RC&0xff != 5 {
		t.Fatalf("an upsert against a held lock: %d ops, %v, rc %d", n, err, ops[1].RC)
	}
	if ops[1].Step != StepBegin || ops[0].Step != StepNone {
		t.Errorf("the busy upsert failed at step %d (the read before it: %d), want BEGIN's %d", ops[1].Step, ops[0].Step, StepBegin)
	}
	if ops[2].T0 != 0 || !askSQLite(c) {
		t.Errorf("after the failure: op 2 timed at %d, autocommit %v", ops[2].T0, askSQLite(c))
	}
	if err := holder.Exec("INSERT INTO kv VALUES(5, 'longer than four'); COMMIT"); err != nil {
		t.Fatal(err)
	}
	big := []LoopOp{{Key: 5, Kind: LoopRead}, {Key: 5, Kind: LoopRead}}
	if n, err := c.Loop(s, big, nil, 0, make([]byte, 0, 4)); n != 1 || !errors.Is(err, ErrGrow) {
		t.Errorf("a value larger than the buffer: %d ops, %v", n, err)
	}
	if got, err := s.Get.Get(5, 1, nil); err != nil || string(got) != "longer than four" {
		t.Errorf("the read statement after it: %q, %v", got, err)
	}
	for _, bad := range []struct {
		name   string
		s      LoopStmts
		ops    []LoopOp
		values []byte
	}{
		{"no statements", LoopStmts{}, []LoopOp{{Kind: LoopRead}}, nil},
		{"an unknown kind", s, []LoopOp{{Kind: 7}}, nil},
		{"values short", s, []LoopOp{{Kind: LoopUpsert}, {Kind: LoopUpsert}}, make([]byte, 8)},
	} {
		if n, err := c.Loop(bad.s, bad.ops, bad.values, 8, nil); n != 0 || err == nil {
			t.Errorf("%s: %d ops, %v", bad.name, n, err)
		}
	}
}
