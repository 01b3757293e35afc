package runner

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
)

// closeTracker is a driver whose stores report their Close.
type closeTracker struct {
	store.Driver
	closed *int
}

func (d closeTracker) Open(ctx context.Context, cfg store.Config) (store.Store, error) {
	st, err := d.Driver.Open(ctx, cfg)
	return trackedStore{st, d.closed}, err
}

type trackedStore struct {
	store.Store
	closed *int
}

func (s trackedStore) Close() error { *s.closed++; return s.Store.Close() }

// OpenStore runs the caller's Init in place of the store's, returns its
// error as it is and closes the store; on success the store is preloaded,
// with progress from 0 to every row.
func TestOpenStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := testPlan(1)
	p.Store.Path = "setup"
	p.Preload = 2500
	closed := 0
	drv := closeTracker{mapstore.Driver{}, &closed}

	refused := errors.New("database in use")
	p.Driver = drv.Name()
	_, err := OpenStore(ctx, p, drv, Setup{Init: func(context.Context, store.Store) error { return refused }})
	if err != refused || closed != 1 {
		t.Fatalf("OpenStore with a failing Init = %v, store closed %d times; want the Init's error and one close", err, closed)
	}

	var progress []uint64
	inits := 0
	p.Driver = drv.Name()
	st, err := OpenStore(ctx, p, drv, Setup{
		Init:     func(ctx context.Context, st store.Store) error { inits++; return st.Init(ctx) },
		Progress: func(done uint64) { progress = append(progress, done) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if inits != 1 || closed != 1 {
		t.Fatalf("Init ran %d times, store closed %d times; want 1 and still 1", inits, closed)
	}
	if want := []uint64{0, 1000, 2000, 2500}; !slices.Equal(progress, want) {
		t.Fatalf("progress = %v, want %v", progress, want)
	}
	c, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Get(p.Preload-1, nil); err != nil {
		t.Fatalf("last preloaded key: %v", err)
	}
	if _, err := c.Get(p.Preload, nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("key past the preload: %v, want not found", err)
	}
}

// An invalid plan is refused before any store is opened.
func TestOpenStoreRefusesInvalidPlan(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.ValueSize = -1
	closed := 0
	p.Driver = closeTracker{mapstore.Driver{}, &closed}.Name()
	_, err := OpenStore(context.Background(), p, closeTracker{mapstore.Driver{}, &closed}, Setup{})
	if !errors.Is(err, store.ErrInvalid) || closed != 0 {
		t.Fatalf("OpenStore = %v (closed %d); want ErrInvalid before opening", err, closed)
	}
}

// A plan that names another driver than the one given is refused: its
// result would carry the wrong engine's name.
func TestOpenStoreRefusesOtherDriver(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Driver = "modernc"
	closed := 0
	_, err := OpenStore(context.Background(), p, closeTracker{mapstore.Driver{}, &closed}, Setup{})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), `the plan names driver "modernc", but the driver given is "map"`) || closed != 0 {
		t.Fatalf("OpenStore = %v (closed %d)", err, closed)
	}
}
