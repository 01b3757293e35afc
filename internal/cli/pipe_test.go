package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// A command that prints and runs nothing (replay --info, a run's
// --dry-run) piped into a reader that leaves (gobench replay --info
// t.trace | head) ends as a filter does: silently, with SIGPIPE's exit
// status, on a real pipe whose reader closed before the command wrote.
func TestReaderLeftExitsSilently(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.trace")
	writeTrace(t, trace)
	for _, args := range [][]string{
		{"replay", "--info", trace},
		{"mix", "--dry-run", "--driver", "null", "--procs", "2"},
		{"report", filepath.Join("..", "..", "testdata", "matrix-errors.json")},
	} {
		t.Run(args[0], func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			r.Close() // the reader left, as head does after its lines
			env, _, stderr := testEnv(t)
			broken := make(chan struct{})
			closed := sync.OnceFunc(func() { close(broken) })
			env.BrokenPipe = broken
			env.Stdout = pipeOut{f: w, broken: closed}
			if code := Main(args, env); code != ExitBrokenPipe {
				t.Fatalf("%v: exit %d, want %d; stderr %q", args, code, ExitBrokenPipe, stderr)
			}
			if !isClosed(broken) {
				t.Fatalf("%v: no write met the closed pipe", args)
			}
			if stderr.Len() > 0 {
				t.Errorf("%v: stderr %q, want nothing: the reader left", args, stderr)
			}
		})
	}
}

// writeTrace writes a small trace of one connection's statements to path.
func writeTrace(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := sqltrace.NewWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	s := w.Stream(1)
	recs := []sqltrace.Record{
		{Kind: sqltrace.KindProcess, Process: sqltrace.Process{PID: 7, Command: "app"}},
		{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "app.db"}},
		{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: 1, DB: 1, Time: 1}},
		{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: 1, SQL: "CREATE TABLE t(x)", Start: 2, Span: 1}},
		{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: 1, SQL: "INSERT INTO t VALUES (1)", Start: 4, Span: 1}},
		{Kind: sqltrace.KindClose, Close: sqltrace.Close{Conn: 1, Time: 6}},
	}
	for i := range recs {
		if err := s.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
