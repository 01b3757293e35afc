package coord

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// lmdbEnv makes a real LMDB environment in a directory of the test's
// with keys rows of 64 bytes, two levels deep (a branch page over its
// leaves), and returns its directory and plan.
func lmdbEnv(t *testing.T, keys uint64) (string, *workload.Plan) {
	t.Helper()
	drv, err := all.Registry().Lookup("lmdb")
	if err != nil {
		t.Skip("no LMDB in this build (cgo):", err)
	}
	p := workload.DefaultPlan()
	p.Driver = "lmdb"
	p.Crash = &workload.Crash{States: 1, Model: store.CrashTorn4K, RecordLimit: 1 << 20}
	dir := filepath.Join(t.TempDir(), "env")
	p.Store = store.Config{Path: dir}
	ctx := context.Background()
	st, err := drv.Open(ctx, p.Store)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Init(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	value := make([]byte, 64)
	for k := range keys {
		if err := c.Put(k, value); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, &p
}

// tearSecondLeaf writes garbage (no leaf flag) over the page of the
// second child of the main database's root, a branch page, as a torn
// write that never reached the disk would leave it: LMDB's cursor walks
// into it from its sibling and fails its assertion IS_LEAF(mp), which
// aborts the process.
func tearSecondLeaf(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "data.mdb")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := os.Getpagesize()
	// The meta pages 0 and 1: the newer transaction's names the root.
	const dbMain, txnID = 16 + 72, 16 + 72 + 48 + 8
	var root uint64
	var txn uint64
	for _, m := range [][]byte{data[:ps], data[ps : 2*ps]} {
		if id := binary.LittleEndian.Uint64(m[txnID:]); id >= txn {
			txn, root = id, binary.LittleEndian.Uint64(m[dbMain+40:])
		}
	}
	page := data[int(root)*ps : int(root+1)*ps]
	if flags := binary.LittleEndian.Uint16(page[10:]); flags&1 == 0 {
		t.Fatalf("the root page %d is no branch page (flags %#x): too few keys", root, flags)
	}
	node := binary.LittleEndian.Uint16(page[16+2:]) // the second node
	lo, hi := binary.LittleEndian.Uint16(page[node:]), binary.LittleEndian.Uint16(page[node+2:])
	child := int64(lo) | int64(hi)<<16
	garbage := []byte(strings.Repeat("\x01", ps))
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(garbage, child*int64(ps)); err != nil {
		t.Fatal(err)
	}
}

// A state whose page would abort LMDB in this process is checked in a
// child process: the check returns, the state is corrupt and the
// verdict names the engine's assertion; an intact one is not corrupt.
func TestCrashCheckInChildSurvivesAnAbort(t *testing.T) {
	cases := []struct {
		name    string
		tear    bool
		corrupt string // what the verdict says; "" for none
	}{
		{"a torn leaf page", true, "the engine aborted opening it: mdb.c"},
		{"an intact environment", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, p := lmdbEnv(t, 3000)
			if tc.tear {
				tearSecondLeaf(t, dir)
			}
			check := checkInChild(helper("crashcheck"), "")
			x := runner.NewCrashIndex(p)
			res, err := check(context.Background(), nil, p, store.CrashState{Path: dir}, x)
			if err != nil {
				t.Fatalf("the check failed instead of judging the state: %v", err)
			}
			if tc.corrupt == "" {
				if res.Corrupt {
					t.Fatalf("an intact environment judged corrupt: %s", res.Why)
				}
				return
			}
			t.Log(res.Why)
			if !res.Corrupt || !strings.Contains(res.Why, tc.corrupt) || !strings.Contains(res.Why, "Assertion") {
				t.Fatalf("verdict %+v, want corrupt with %q and the assertion named", res, tc.corrupt)
			}
		})
	}
}

// An aborted child's last words are the C library's, before the Go
// runtime's report of the signal.
func TestAbortLine(t *testing.T) {
	cases := []struct{ stderr, want string }{
		{"mdb.c:6024: Assertion 'IS_LEAF(mp)' failed in mdb_cursor_next()\nSIGABRT: abort\nPC=0x1 m=4\n\ngoroutine 1 [syscall]:\n", "mdb.c:6024: Assertion 'IS_LEAF(mp)' failed in mdb_cursor_next()"},
		{"SIGSEGV: segmentation violation\nPC=0x1\n", "SIGSEGV: segmentation violation"},
		{"something went wrong\n", "something went wrong"},
		{"", "signal: killed"},
	}
	for _, tc := range cases {
		if got := abortLine(tc.stderr, errString("signal: killed")); got != tc.want {
			t.Errorf("abortLine(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }
