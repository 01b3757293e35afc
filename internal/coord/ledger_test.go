package coord

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// The write ledger has no name from the moment it is open: nothing of it
// is left in its directory, however the coordinator ends (a SIGKILL
// runs no cleanup); its records still read back.
func TestLedgerLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	l, err := newWriteLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the open ledger left %d entries in its directory: %v", len(entries), entries)
	}
	want := []workload.WriteRecord{{Worker: 3, Phase: 1, Seq: 7, Start: 5, End: 9, Acked: true}, {Worker: 0, Seq: 8}}
	for _, r := range want {
		l.Add(r)
	}
	var got []workload.WriteRecord
	var readErr error
	for r := range l.records(&readErr) {
		got = append(got, r)
	}
	if readErr != nil || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("records read back %v (%v), want %v", got, readErr, want)
	}
}

// A --verify run whose ledger cannot be made (TMPDIR names a file, not a
// directory) is refused before any work, as bad input: it panicked with a
// nil result.
func TestLedgerCannotBeMade(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", notDir)
	p := verifyPlan("map")
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry()})
	if res != nil || !errors.Is(err, ErrTempDir) || !strings.Contains(err.Error(), "write ledger") || !strings.Contains(err.Error(), "TMPDIR") {
		t.Fatalf("Run = %v, %v; want a refusal that names the ledger and TMPDIR", res, err)
	}
}
