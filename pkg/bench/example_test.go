package bench_test

import (
	"context"
	"fmt"
	"log"
	"sync"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// syncMap is a whole custom store: a sync.Map, with the two operations
// every engine has.
type syncMap struct{ m *sync.Map }

func (syncMap) Name() string                                              { return "syncmap" }
func (s syncMap) Open(context.Context, store.Config) (store.Store, error) { return s, nil }
func (syncMap) Init(context.Context) error                                { return nil }
func (s syncMap) Conn(context.Context) (store.Conn, error)                { return s, nil }
func (syncMap) Close() error                                              { return nil }

func (s syncMap) Put(k uint64, v []byte) error {
	s.m.Store(k, append([]byte(nil), v...)) // the caller reuses v: keep a copy
	return nil
}

func (s syncMap) Get(k uint64, dst []byte) ([]byte, error) {
	v, ok := s.m.Load(k)
	if !ok {
		return dst, store.Wrap(store.NotFound, store.ErrNotFound)
	}
	return append(dst[:0], v.([]byte)...), nil
}

// Run the 95/5 read/upsert mix with four goroutines against a store of
// your own, in one call.
func Example() {
	plan := workload.DefaultPlan() // 95% read / 5% upsert, 10,000 keys preloaded, 64-byte values
	plan.Goroutines = 4
	plan.Phases[0].Ops = 1000 // per worker

	r, err := bench.Run(context.Background(), plan, syncMap{&sync.Map{}})
	if err != nil {
		log.Fatal(err)
	}
	read, _ := r.Phases[0].Op("read")
	fmt.Println("driver:", r.Plan.Driver, "ops:", r.Phases[0].Total.Count, "reads:", read.Count, "errors:", r.Phases[0].Total.Errors.Total)
	fmt.Println("measured:", read.OpsPerSec > 0 && read.P99Micros > 0)
	// Output:
	// driver: syncmap ops: 4000 reads: 3800 errors: 0
	// measured: true
}
