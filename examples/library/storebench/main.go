// Command storebench measures a store of your own through gobench's
// library (docs/library.md) and writes the result as gobench's JSON, so
// that gobench compare, merge and report read it: the program a CI job
// builds at the base branch and at the pull request, and runs
// alternately (examples/github-actions/library.yml, docs/ci.md).
//
//	go run ./examples/library/storebench -ops 2000 -goroutines 4 -json run.json
//	gobench report run.json
//
// The store here is a stand-in: a map behind a lock. Put yours in its
// place (a store.Driver, store.Store and store.Conn around your code, as
// pkg/bench/example_test.go does around a bbolt file).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "storebench:", err)
		os.Exit(1)
	}
}

// run parses args, runs the plan against the store and writes the result.
func run(args []string) error {
	fs := flag.NewFlagSet("storebench", flag.ContinueOnError)
	ops := fs.Int64("ops", 2000, "ops per worker")
	goroutines := fs.Int("goroutines", 4, "workers, each a goroutine")
	out := fs.String("json", "storebench.json", "the result, as gobench's JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	plan := workload.DefaultPlan() // 95% read / 5% upsert, 10,000 keys preloaded, 64-byte values
	plan.Goroutines = *goroutines
	plan.Phases[0].Ops = *ops
	r, err := bench.Run(context.Background(), plan, &mapStore{})
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := r.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", *out, err)
	}
	return f.Close()
}

// mapStore is the store under test: a map behind a lock, its own
// driver, store and connection.
type mapStore struct {
	mu sync.RWMutex
	m  map[uint64][]byte
}

func (*mapStore) Name() string                                              { return "mapstore" }
func (s *mapStore) Open(context.Context, store.Config) (store.Store, error) { return s, nil }
func (s *mapStore) Conn(context.Context) (store.Conn, error)                { return s, nil }
func (*mapStore) Close() error                                              { return nil }

// Init empties the map before the run (and its preload).
func (s *mapStore) Init(context.Context) error {
	s.mu.Lock()
	s.m = map[uint64][]byte{}
	s.mu.Unlock()
	return nil
}

// Put keeps a copy of v: the caller's value is valid only during the call.
func (s *mapStore) Put(k uint64, v []byte) error {
	s.mu.Lock()
	s.m[k] = append([]byte(nil), v...)
	s.mu.Unlock()
	return nil
}

// Get appends k's value to dst[:0].
func (s *mapStore) Get(k uint64, dst []byte) ([]byte, error) {
	s.mu.RLock()
	v, ok := s.m[k]
	s.mu.RUnlock()
	if !ok {
		return dst, store.Wrap(store.NotFound, store.ErrNotFound)
	}
	return append(dst[:0], v...), nil
}
