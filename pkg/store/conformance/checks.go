// Package conformance holds the checks every gobench engine passes: what
// a store must do for gobench's numbers to mean anything (writes read
// back, missing keys reported as missing, batches that commit and roll
// back, connections that work at once). Engines' tests run them through
// package storetest; gobench verify runs them outside go test with
// Verify. The package does not import testing, so the gobench binary
// carries none of it.
package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gobench/gobench/pkg/store"
)

// T is what a check needs of its test: *testing.T has it, and so does the
// runner of Verify.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
	TempDir() string
	Cleanup(func())
}

// NewConfig returns the Config of a new, empty database for one check.
type NewConfig func(t T) store.Config

// Check is one conformance check: Fn runs on a new store of drv, opened
// and initialised.
type Check struct {
	Name string
	Fn   func(t T, drv store.Driver, st store.Store)
	// Table, when set, is the record table the store is opened with
	// (Config.Table).
	Table *store.Table
}

// Config returns the Config the check's store opens with: cfg, with the
// check's record table.
func (c Check) Config(cfg store.Config) store.Config {
	if c.Table != nil {
		t := *c.Table
		cfg.Table = &t
	}
	return cfg
}

// onStore adapts a check of the store alone.
func onStore(f func(T, store.Store)) func(T, store.Driver, store.Store) {
	return func(t T, _ store.Driver, st store.Store) { f(t, st) }
}

// Checks returns every conformance check, in order.
func Checks() []Check {
	return append([]Check{
		{Name: "PutGet", Fn: onStore(testPutGet)},
		{Name: "NotFound", Fn: onStore(testNotFound)},
		{Name: "Overwrite", Fn: onStore(testOverwrite)},
		{Name: "ValueNotKept", Fn: onStore(testValueNotKept)},
		{Name: "UpdateDelete", Fn: onStore(testUpdateDelete)},
		{Name: "Batch", Fn: onStore(testBatch)},
		{Name: "Transactional", Fn: testTransactional},
		{Name: "Insert", Fn: onStore(testInsert)},
		{Name: "Scan", Fn: onStore(testScan)},
		{Name: "Last", Fn: onStore(testLast)},
		{Name: "Scripts", Fn: onStore(testScripts)},
		{Name: "ConcurrentConns", Fn: onStore(testConcurrentConns)},
		{Name: "CloseTwice", Fn: onStore(testCloseTwice)},
		{Name: "InitTwice", Fn: onStore(testInitTwice)},
	}, recordChecks()...)
}

// testTransactional holds a driver to what it declares (store.
// Transactional): plans are fitted to the declaration before any store
// opens, so it must match what its connections do.
func testTransactional(t T, drv store.Driver, st store.Store) {
	_, batches := conn(t, st).(store.Batcher)
	if declared := store.IsTransactional(drv); declared != batches {
		t.Errorf("the driver declares transactions %v, its connections batch: %v", declared, batches)
	}
}

func testInitTwice(t T, st store.Store) {
	put(t, conn(t, st), 1, []byte("x"))
	// A second Init of gobench's own database starts it afresh.
	if err := st.Init(context.Background()); err != nil {
		t.Fatalf("second Init of a gobench database: %v", err)
	}
	if _, err := conn(t, st).Get(1, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after re-Init, Get(1) error = %v, want not found", err)
	}
}

// Open opens and initialises a store for a check, closed at its end.
func Open(t T, drv store.Driver, cfg store.Config) store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := drv.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close store: %v", err)
		}
	})
	if err := st.Init(ctx); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return st
}

func conn(t T, st store.Store) store.Conn {
	t.Helper()
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatalf("Conn: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close conn: %v", err)
		}
	})
	return c
}

func put(t T, c store.Conn, k uint64, v []byte) {
	t.Helper()
	if err := c.Put(k, v); err != nil {
		t.Fatalf("Put(%d): %v", k, err)
	}
}

func wantValue(t T, c store.Conn, k uint64, want []byte) {
	t.Helper()
	got, err := c.Get(k, nil)
	if err != nil {
		t.Fatalf("Get(%d): %v", k, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Get(%d) = %q, want %q", k, got, want)
	}
}

func testPutGet(t T, st store.Store) {
	c := conn(t, st)
	for k := range uint64(100) {
		put(t, c, k, fmt.Appendf(nil, "value-%03d", k))
	}
	buf := make([]byte, 0, 4)
	for k := range uint64(100) {
		var err error
		buf, err = c.Get(k, buf)
		if err != nil {
			t.Fatalf("Get(%d): %v", k, err)
		}
		if want := fmt.Sprintf("value-%03d", k); string(buf) != want {
			t.Fatalf("Get(%d) = %q, want %q", k, buf, want)
		}
	}
	// Another connection sees the committed writes.
	wantValue(t, conn(t, st), 42, []byte("value-042"))
}

func testNotFound(t T, st store.Store) {
	c := conn(t, st)
	_, err := c.Get(7, nil)
	if !errors.Is(err, store.ErrNotFound) || store.Classify(err) != store.NotFound {
		t.Fatalf("Get of a missing key: error %v (class %v), want class not_found", err, store.Classify(err))
	}
}

func testOverwrite(t T, st store.Store) {
	c := conn(t, st)
	put(t, c, 5, []byte("first"))
	put(t, c, 5, []byte("second value, longer"))
	wantValue(t, c, 5, []byte("second value, longer"))
}

// testValueNotKept holds a store to the value contract of Put, Update and
// Insert: the value is the caller's, valid only during the call (workers
// reuse one buffer for every write), so a store that keeps it must copy.
func testValueNotKept(t T, st store.Store) {
	c := conn(t, st)
	type write struct {
		name, value string
		key         uint64
		fn          func(k uint64, v []byte) error
	}
	writes := []write{{"Put", "first value", 1, c.Put}}
	if u, ok := c.(store.Updater); ok {
		writes = append(writes, write{"Update", "second value", 1, u.Update})
	}
	if ins, ok := c.(store.Inserter); ok {
		writes = append(writes, write{"Insert", "third value", 2, ins.Insert})
	}
	for _, w := range writes {
		buf := []byte(w.value)
		if err := w.fn(w.key, buf); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		copy(buf, bytes.Repeat([]byte("X"), len(buf))) // the caller reuses its buffer
		wantValue(t, c, w.key, []byte(w.value))
	}
}

func testUpdateDelete(t T, st store.Store) {
	c := conn(t, st)
	if u, ok := c.(store.Updater); ok {
		if err := u.Update(9, []byte("x")); store.Classify(err) != store.NotFound {
			t.Errorf("Update of a missing key: %v, want class not_found", err)
		}
		put(t, c, 9, []byte("old"))
		if err := u.Update(9, []byte("new")); err != nil {
			t.Fatalf("Update: %v", err)
		}
		wantValue(t, c, 9, []byte("new"))
	}
	if d, ok := c.(store.Deleter); ok {
		put(t, c, 10, []byte("doomed"))
		if err := d.Delete(10); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if _, err := c.Get(10, nil); store.Classify(err) != store.NotFound {
			t.Errorf("Get after Delete: %v, want class not_found", err)
		}
		if err := d.Delete(10); store.Classify(err) != store.NotFound {
			t.Errorf("Delete of a missing key: %v, want class not_found", err)
		}
	}
}

func testBatch(t T, st store.Store) {
	c := conn(t, st)
	b, ok := c.(store.Batcher)
	if !ok {
		t.Skip("engine does not batch")
	}
	if err := b.Begin(); err != nil {
		t.Fatalf("Begin: %v", err)
	}
	put(t, c, 1, []byte("kept"))
	if err := b.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	if err := b.Begin(); err != nil {
		t.Fatalf("Begin: %v", err)
	}
	put(t, c, 2, []byte("dropped"))
	if err := b.Rollback(); err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if err := b.Rollback(); err != nil {
		t.Errorf("Rollback with no transaction open: %v, want nil", err)
	}
	other := conn(t, st)
	wantValue(t, other, 1, []byte("kept"))
	if _, err := other.Get(2, nil); store.Classify(err) != store.NotFound {
		t.Errorf("rolled-back key: %v, want class not_found", err)
	}
}

// testConcurrentConns writes and reads from several connections at once.
// An op that found the database busy or locked is tried again: that is an
// engine's right under contention (SQLite's busy timeout can run out on a
// loaded machine); what must hold is that every write lands.
func testConcurrentConns(t T, st store.Store) {
	const workers, perWorker = 4, 50
	conns := make([]store.Conn, workers)
	for i := range conns {
		conns[i] = conn(t, st)
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for i, c := range conns {
		wg.Go(func() {
			for j := range perWorker {
				k := uint64(i*perWorker + j)
				if err := untilNotBusy(func() error { return c.Put(k, fmt.Appendf(nil, "%d", k)) }); err != nil {
					errs <- fmt.Errorf("worker %d Put(%d): %w", i, k, err)
					return
				}
				if err := untilNotBusy(func() error { _, err := c.Get(k, nil); return err }); err != nil {
					errs <- fmt.Errorf("worker %d Get(%d): %w", i, k, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("%v", err)
	}
	c := conn(t, st)
	for k := range uint64(workers * perWorker) {
		wantValue(t, c, k, fmt.Appendf(nil, "%d", k))
	}
}

// untilNotBusy runs op until it ends other than busy or locked, up to 100
// times (an engine busy for ever fails the check instead of hanging it).
func untilNotBusy(op func() error) error {
	var err error
	for range 100 {
		err = op()
		if c := store.Classify(err); c != store.Busy && c != store.Locked {
			return err
		}
	}
	return err
}

func testCloseTwice(t T, st store.Store) {
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatalf("Conn: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v, want nil", err)
	}
}

func testInsert(t T, st store.Store) {
	c := conn(t, st)
	ins, ok := c.(store.Inserter)
	if !ok {
		t.Skip("engine does not insert")
	}
	if err := ins.Insert(3, []byte("first")); err != nil {
		t.Fatalf("Insert of a new key: %v", err)
	}
	err := ins.Insert(3, []byte("second"))
	if store.Classify(err) != store.Constraint {
		t.Errorf("Insert of an existing key: %v (class %v), want class constraint", err, store.Classify(err))
	}
	wantValue(t, c, 3, []byte("first"))
}

func testScan(t T, st store.Store) {
	c := conn(t, st)
	sc, ok := c.(store.Scanner)
	if !ok {
		t.Skip("engine does not scan")
	}
	for _, k := range []uint64{10, 11, 12, 20, 30} {
		put(t, c, k, []byte("v"))
	}
	for _, tt := range []struct {
		from uint64
		n    int
		want int
	}{{0, 3, 3}, {11, 100, 4}, {13, 2, 2}, {31, 5, 0}, {10, 5, 5}} {
		got, err := sc.Scan(tt.from, tt.n)
		if err != nil || got != tt.want {
			t.Errorf("Scan(%d, %d) = %d, %v; want %d", tt.from, tt.n, got, err, tt.want)
		}
	}
}

// testLast holds a Latester to the highest key of each range, with its
// value, and not found for a range that holds none, keys near the top
// of what an append writes included.
func testLast(t T, st store.Store) {
	c := conn(t, st)
	l, ok := c.(store.Latester)
	if !ok {
		t.Skip("engine does not seek to the last key of a range")
	}
	const top = 1<<63 - 1
	for _, k := range []uint64{10, 11, 12, 20, 1 << 62, 1<<62 + 5, top} {
		put(t, c, k, []byte(fmt.Sprint("v", k)))
	}
	for _, tt := range []struct {
		lo, hi, want uint64 // want 0: none
	}{{0, 15, 12}, {11, 11, 11}, {13, 19, 0}, {0, 9, 0}, {21, 1<<62 - 1, 0}, {0, 1<<62 + 4, 1 << 62}, {1 << 62, top - 1, 1<<62 + 5}, {1 << 62, top, top}, {top, top, top}} {
		key, v, err := l.Last(tt.lo, tt.hi, []byte("old"))
		switch {
		case tt.want == 0 && (!errors.Is(err, store.ErrNotFound) || store.Classify(err) != store.NotFound):
			t.Errorf("Last(%d, %d) = %d, %q, %v; want not found", tt.lo, tt.hi, key, v, err)
		case tt.want != 0 && (err != nil || key != tt.want || string(v) != fmt.Sprint("v", tt.want)):
			t.Errorf("Last(%d, %d) = %d, %q, %v; want %d, %q", tt.lo, tt.hi, key, v, err, tt.want, fmt.Sprint("v", tt.want))
		}
	}
}
