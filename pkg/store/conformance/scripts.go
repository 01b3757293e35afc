package conformance

import (
	"errors"

	"github.com/gobench/gobench/pkg/store"
)

// testScripts holds a connection that runs statements of the user's
// (store.Scripter) to the contract: parameters bound by name, every row
// read and counted, a wrong number of arguments refused, SQL that does not
// prepare refused at Prepare, and a script's own transaction committed by
// its own COMMIT. It skips a connection that runs no statements of the
// user's.
func testScripts(t T, st store.Store) {
	c := conn(t, st)
	sc, ok := c.(store.Scripter)
	if !ok {
		t.Skip("its connections run no statements of the user's (store.Scripter)")
	}
	prep := func(sql string, params ...string) store.Statement {
		t.Helper()
		s, err := sc.Prepare(sql, params)
		if err != nil {
			t.Fatalf("Prepare(%q): %v", sql, err)
		}
		return s
	}
	run := func(s store.Statement, want int64, args ...any) {
		t.Helper()
		if n, err := s.Run(args...); err != nil || n != want {
			t.Fatalf("Run(%v) = %d rows, %v; want %d rows", args, n, err, want)
		}
	}
	insert := prep("INSERT INTO kv(k, v) VALUES(:k, :v)", "k", "v")
	run(insert, 0, int64(5), []byte("five"))
	wantValue(t, c, 5, []byte("five"))
	// Arguments bind by name, whatever the order the SQL names them in.
	update := prep("UPDATE kv SET v = :v WHERE k = :k", "k", "v")
	run(update, 0, int64(5), []byte("FIVE"))
	wantValue(t, c, 5, []byte("FIVE"))
	run(insert, 0, int64(6), "six as text")
	scan := prep("SELECT k, v FROM kv WHERE k >= :lo ORDER BY k", "lo")
	run(scan, 2, int64(0))
	run(scan, 1, int64(6))
	run(prep("SELECT :a, :b, :c, :a", "a", "b", "c"), 1, "text", 1.5, nil)
	if _, err := scan.Run(); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Run with no argument for one parameter: %v, want ErrInvalid", err)
	}
	if _, err := sc.Prepare("SELEC k FROM kv", nil); err == nil {
		t.Errorf("Prepare of SQL with a syntax error succeeded")
	}
	// The script's own transaction: open after BEGIN, closed by COMMIT,
	// its write seen by another connection.
	begin, commit := prep("BEGIN IMMEDIATE"), prep("COMMIT")
	run(begin, 0)
	run(insert, 0, int64(7), []byte("seven"))
	if p, ok := c.(store.TxProber); ok && !p.InTx() {
		t.Errorf("no transaction open after the script's BEGIN")
	}
	run(commit, 0)
	if p, ok := c.(store.TxProber); ok && p.InTx() {
		t.Errorf("a transaction still open after the script's COMMIT")
	}
	wantValue(t, conn(t, st), 7, []byte("seven"))
}
