package conformance_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/conformance"
	"github.com/gobench/gobench/pkg/store/mapstore"
)

// keeper is a store that keeps the caller's value slice instead of a copy.
type keeper struct{}

func (keeper) Name() string { return "keeper" }
func (keeper) Open(context.Context, store.Config) (store.Store, error) {
	return &keeperStore{m: map[uint64][]byte{}}, nil
}

type keeperStore struct {
	mu sync.Mutex
	m  map[uint64][]byte
}

func (s *keeperStore) Init(context.Context) error               { return nil }
func (s *keeperStore) Close() error                             { return nil }
func (s *keeperStore) Conn(context.Context) (store.Conn, error) { return keeperConn{s}, nil }

type keeperConn struct{ s *keeperStore }

func (c keeperConn) Put(k uint64, v []byte) error {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	c.s.m[k] = v // the bug: the caller reuses v
	return nil
}

func (c keeperConn) Get(k uint64, dst []byte) ([]byte, error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	v, ok := c.s.m[k]
	if !ok {
		return dst, store.Wrap(store.NotFound, store.ErrNotFound)
	}
	return append(dst[:0], v...), nil
}

func (keeperConn) Close() error { return nil }

// A store that keeps the value slice fails ValueNotKept, and only that
// check; a store that copies passes it.
func TestValueNotKept(t *testing.T) {
	t.Parallel()
	cfg := func(t conformance.T) store.Config { return store.Config{Path: t.TempDir()} }
	for _, tt := range []struct {
		drv  store.Driver
		pass bool
	}{{keeper{}, false}, {mapstore.Driver{}, true}} {
		for _, r := range conformance.Verify(context.Background(), tt.drv, cfg) {
			switch {
			case r.Name == "ValueNotKept" && r.Passed() != tt.pass:
				t.Errorf("%s: ValueNotKept passed %v, want %v: %v", tt.drv.Name(), r.Passed(), tt.pass, r.Failures)
			case r.Name == "ValueNotKept" && !tt.pass && !strings.Contains(strings.Join(r.Failures, " "), `"first value"`):
				t.Errorf("%s: failure does not name the value written: %v", tt.drv.Name(), r.Failures)
			case r.Name == "PutGet" && !r.Passed():
				t.Errorf("%s: PutGet failed too: %v", tt.drv.Name(), r.Failures)
			}
		}
	}
}
