package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
)

// forgetful is a deliberately broken engine: the map engine, except that
// every read of key 42 finds nothing.
type forgetful struct{ mapstore.Driver }

func (forgetful) Name() string { return "forgetful" }

func (f forgetful) Open(ctx context.Context, cfg store.Config) (store.Store, error) {
	st, err := f.Driver.Open(ctx, cfg)
	return forgetfulStore{st}, err
}

type forgetfulStore struct{ store.Store }

func (s forgetfulStore) Conn(ctx context.Context) (store.Conn, error) {
	c, err := s.Store.Conn(ctx)
	return forgetfulConn{c}, err
}

type forgetfulConn struct{ store.Conn }

func (c forgetfulConn) Get(key uint64, dst []byte) ([]byte, error) {
	if key == 42 {
		return dst[:0], store.ErrNotFound
	}
	return c.Conn.Get(key, dst)
}

func TestVerify(t *testing.T) {
	reg := store.NewRegistry()
	reg.Register(mapstore.Driver{})
	reg.Register(forgetful{})

	env, stdout, _ := testEnv(t)
	if err := runVerify(context.Background(), &verifyOptions{drivers: "map"}, env, reg); err != nil {
		t.Fatalf("map: %v\n%s", err, stdout)
	}
	if !strings.Contains(stdout.String(), "PASS  map      PutGet") || !strings.Contains(stdout.String(), "SKIP  map      Batch") {
		t.Errorf("map output:\n%s", stdout)
	}

	env, stdout, _ = testEnv(t)
	err := runVerify(context.Background(), &verifyOptions{drivers: "forgetful"}, env, reg)
	if !errors.Is(err, errVerify) || exitCode(err) != ExitFailure {
		t.Fatalf("the broken engine: err %v (exit %d), want a failure", err, exitCode(err))
	}
	for _, want := range []string{"FAIL  forgetful PutGet: Get(42): not found", "FAIL  forgetful ConcurrentConns", "PASS  forgetful NotFound"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// Every engine of this build passes verify from the command line.
func TestVerifyEveryEngine(t *testing.T) {
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"verify", "--driver", "modernc,map,btree,files"}, env); code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// fullWriter is a stdout that cannot take anything, as /dev/full.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// A report that cannot be written fails verify (it exited 0); a missing
// TMPDIR is said once, as bad input, instead of failing every check of
// every driver.
func TestVerifyEnvironmentFailures(t *testing.T) {
	env, _, stderr := testEnv(t)
	env.Stdout = fullWriter{}
	if code := Main([]string{"verify", "--driver", "map"}, env); code != ExitFailure || !strings.Contains(stderr.String(), "writing the report: no space left on device") {
		t.Errorf("stdout full: exit %d, stderr %s", code, stderr)
	}
	env, stdout, stderr := testEnv(t)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	if code := Main([]string{"verify", "--driver", "map,modernc"}, env); code != ExitUsage || !strings.Contains(stderr.String(), "cannot make a temporary directory") || stdout.Len() != 0 {
		t.Errorf("no TMPDIR: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}
