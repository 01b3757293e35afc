package e2e

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/sqltrace"
)

// pySQLite reports whether python3 is installed with its sqlite3 module
// linked to a shared libsqlite3, which gobench capture's preloaded
// library can watch (a module with SQLite compiled in cannot be
// captured).
var pySQLite = sync.OnceValue(func() bool {
	out, err := exec.Command("python3", "-c", "import sqlite3; print(open('/proc/self/maps').read())").Output()
	return err == nil && strings.Contains(string(out), "libsqlite3.so")
})

// sqlite3CLI reports whether the sqlite3 shell is installed, linked to a
// shared libsqlite3.
var sqlite3CLI = sync.OnceValue(func() bool {
	path, err := exec.LookPath("sqlite3")
	if err != nil {
		return false
	}
	out, err := exec.Command("ldd", path).Output()
	return err == nil && strings.Contains(string(out), "libsqlite3.so")
})

// condition answers the scripts' own conditions: [pysqlite] and
// [sqlite3cli] (see above), [cc] (a C compiler to build the capture
// library).
func condition(cond string) (bool, error) {
	switch cond {
	case "fuse":
		return fuseAvailable(), nil
	case "pysqlite":
		return pySQLite(), nil
	case "sqlite3cli":
		return sqlite3CLI(), nil
	case "cc":
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "cc"
		}
		_, err := exec.LookPath(cc)
		return err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// traceinfo FILE check... asserts facts about a trace, read with
// sqltrace.Inspect:
//
//	processes=N statements=N commits=N errors=N fingerprints=N dbs=N
//	statements>=N commits>=N connections>=N threads>=N
//	exact         every database's order of commits is exact
//	snapshots     every database has a snapshot
//	complete      the trace ends with its end marker
func traceInfo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: traceinfo FILE check...")
	}
	in, err := sqltrace.Inspect(func() (io.ReadCloser, error) { return os.Open(ts.MkAbs(args[0])) })
	ts.Check(err)
	values := map[string]int64{
		"processes": int64(len(in.Processes)), "statements": in.Statements, "commits": in.Commits,
		"errors": in.Errors, "fingerprints": int64(in.Fingerprints), "dbs": int64(len(in.Databases)),
		"connections": int64(in.Connections), "threads": int64(in.Threads),
	}
	for _, a := range args[1:] {
		switch a {
		case "exact":
			for _, d := range in.Databases {
				if !d.Exact {
					ts.Fatalf("%s: order of commits inexact: %s", d.Path, d.Inexact)
				}
			}
			continue
		case "snapshots":
			for _, d := range in.Databases {
				if d.SnapshotError != "" {
					ts.Fatalf("%s: no snapshot: %s", d.Path, d.SnapshotError)
				}
			}
			continue
		case "complete":
			if !in.Complete {
				ts.Fatalf("the trace is incomplete")
			}
			continue
		}
		key, op, want := splitCheck(a)
		got, ok := values[key]
		if !ok {
			ts.Fatalf("unknown check %q", a)
		}
		if op == ">=" && got < want || op == "=" && got != want {
			ts.Fatalf("%s: %d, want %s %d", key, got, op, want)
		}
	}
}

// splitCheck splits KEY=N or KEY>=N.
func splitCheck(a string) (key, op string, n int64) {
	op = "="
	key, val, _ := strings.Cut(a, "=")
	if k, ok := strings.CutSuffix(key, ">"); ok {
		key, op = k, ">="
	}
	n, _ = strconv.ParseInt(val, 10, 64)
	return key, op, n
}

// replaycheck FILE check... asserts facts about every run of a replay's
// result file (a run or a suite):
//
//	statements=N   the run's statements (run or skipped), the trace's count
//	diverged=N     statements that did something else than when captured
//	newerrors=N    statements that failed where the capture's did not
//	equal          the database ended as the capture's did
//	compared       the database was compared with the capture's end
//	addsup         the statements' kinds add up to the total
func replayCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: replaycheck FILE check...")
	}
	s := readSuite(ts, args[0])
	runs := 0
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			runs++
			checkReplayRun(ts, r, args[1:])
		}
	}
	if runs == 0 {
		ts.Fatalf("%s holds no run", args[0])
	}
}

func checkReplayRun(ts *testscript.TestScript, r *result.Result, checks []string) {
	if r.Plan.Replay == nil || len(r.Phases) != 1 {
		ts.Fatalf("not a replay's run")
	}
	t := r.Phases[0].Total
	values := map[string]int64{"statements": t.Count + t.Skipped, "diverged": t.Diverged, "newerrors": t.NewErrors}
	for _, c := range checks {
		switch c {
		case "equal", "compared":
			rc := r.Replay
			if rc == nil || !rc.Compared || c == "equal" && !rc.Equal {
				ts.Fatalf("%s: the database against the capture's end: %+v", result.RunSettings(r), rc)
			}
			continue
		case "addsup":
			var sum int64
			for _, o := range r.Phases[0].Ops {
				sum += o.Count
			}
			if sum != t.Count || t.Count+t.Skipped != r.Plan.Replay.Runs() {
				ts.Fatalf("%s: kinds sum to %d, total %d (+%d skipped), the trace's %d", result.RunSettings(r), sum, t.Count, t.Skipped, r.Plan.Replay.Runs())
			}
			continue
		}
		key, op, want := splitCheck(c)
		got, ok := values[key]
		if !ok {
			ts.Fatalf("unknown check %q", c)
		}
		if op == ">=" && got < want || op == "=" && got != want {
			ts.Fatalf("%s: %s %d, want %s %d", result.RunSettings(r), key, got, op, want)
		}
	}
}

// tracedamage FILE snapshot|records|header changes one byte of a trace,
// in the middle of its first chunk of snapshot bytes or of records, or in
// its header's version, and sets $OFFSET to the byte offset a reader
// names: the chunk's start, or the header's version field.
func traceDamage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tracedamage FILE snapshot|records|header")
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	want := map[string]byte{"snapshot": 'S', "records": 'R'}[args[1]]
	at, flip := int64(-1), int64(-1)
	if args[1] == "header" {
		at, flip = 8, 12
	}
	for off := int64(sqltrace.HeaderLen); want != 0 && off < int64(len(b)); {
		_, n1 := binary.Uvarint(b[off+1:])
		length, n2 := binary.Uvarint(b[off+1+int64(n1):])
		if n1 <= 0 || n2 <= 0 {
			ts.Fatalf("%s: a chunk's header at %d does not read", args[0], off)
		}
		payload := off + 1 + int64(n1+n2)
		if b[off] == want && length > 0 {
			at, flip = off, payload+int64(length)/2
			break
		}
		off = payload + int64(length) + 4
	}
	if at < 0 {
		ts.Fatalf("%s: no %s chunk", args[0], args[1])
	}
	b[flip] ^= 0x5a
	ts.Check(os.WriteFile(path, b, 0o644))
	ts.Setenv("OFFSET", strconv.FormatInt(at, 10))
}
