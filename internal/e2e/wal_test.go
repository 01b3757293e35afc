package e2e

import (
	"context"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// walcopy DB COPY SQL... runs statements on a new WAL database DB outside
// gobench, with automatic checkpoints off, and copies its -wal file to
// COPY while the connection is still open (closing it would checkpoint
// the WAL into DB and delete it): another database's WAL, holding every
// committed row of the statements as whole page images.
func walCopy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: walcopy DB COPY SQL...")
	}
	db := openOutside(ts, args[0], "rwc")
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range append([]string{"PRAGMA journal_mode=wal", "PRAGMA wal_autocheckpoint=0"}, args[2:]...) {
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			ts.Fatalf("%s: %v", q, err)
		}
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]) + "-wal")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b, 0o644))
}
