package e2e

import (
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// replayselect A WHOLE [PREFIX] asserts that the replay result A ran a
// selection (gobench replay --read-only, --filter) of the capture the
// result WHOLE replayed whole: it chose from WHOLE's statements, kept
// some transactions and fewer statements, ran (or skipped) each it kept
// once; with PREFIX, every kind of statement it ran has a fingerprint
// that begins with it.
func replaySelect(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: replayselect A WHOLE [PREFIX]")
	}
	stmts, _ := replayRan(ts, args[0])
	whole, _ := replayRan(ts, args[1])
	r := onlyReplay(ts, args[0])
	s := r.Select
	switch {
	case s == nil:
		ts.Fatalf("%s: no selection", args[0])
	case s.Of != whole || onlyReplay(ts, args[1]).Statements != whole:
		ts.Fatalf("%s chose from %d statements, the capture's are %d", args[0], s.Of, whole)
	case stmts != r.Statements || stmts == 0 || stmts >= whole || s.Transactions <= 0 || s.Transactions > stmts:
		ts.Fatalf("%s ran %d statements, kept %d in %d transactions, of %d", args[0], stmts, r.Statements, s.Transactions, whole)
	}
	if len(args) == 3 {
		for _, k := range r.Kinds {
			if !strings.HasPrefix(k.Fingerprint, args[2]) {
				ts.Fatalf("%s ran %s (%q), which does not begin %q", args[0], k.ID, k.Fingerprint, args[2])
			}
		}
	}
}
