package bench_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// Run the 95/5 read/upsert mix in-process against a SQLite file in WAL
// mode with four goroutines, then read throughput and p99 from the
// result.
func ExampleRun_sqlite() {
	dir, err := os.MkdirTemp("", "gobench-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	plan := workload.DefaultPlan() // 95% read / 5% upsert, 10,000 keys, 64-byte values
	plan.Driver = "modernc"
	plan.Store = store.Config{
		Path:    filepath.Join(dir, "kv.db"),
		Options: sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 5000}.Encode(),
	}
	plan.Goroutines = 4
	plan.Phases[0].Ops = 1000 // per worker

	r, err := bench.Run(context.Background(), plan, sqlite.Modernc())
	if err != nil {
		log.Fatal(err)
	}
	ph := r.Phases[0]
	read, _ := ph.Op("read")
	upsert, _ := ph.Op("upsert")
	fmt.Println("ops:", ph.Total.Count, "reads:", read.Count, "upserts:", upsert.Count)
	fmt.Println("errors:", ph.Total.Errors.Total)
	fmt.Println("settings:", r.Plan.Store.Settings)
	fmt.Println("measured:", read.OpsPerSec > 0 && read.P99Micros > 0)
	// Output:
	// ops: 4000 reads: 3800 upserts: 200
	// errors: 0
	// settings: [{journal wal} {sync normal} {busy-timeout 5s}]
	// measured: true
}
