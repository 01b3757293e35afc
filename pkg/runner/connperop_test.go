package runner

import (
	"context"
	"testing"

	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// With a connection per op every op runs on a connection of its own:
// total_changes(), which counts the rows a connection changed since it
// opened, reads 0 in every op; on the connection kept, it grows.
func TestConnPerOp(t *testing.T) {
	t.Parallel()
	for _, perOp := range []bool{true, false} {
		p := sqlPlan(t, 2, "log.sql", "INSERT INTO log VALUES (:client_id, total_changes());")
		p.Phases[0].Ops = 50
		p.ConnPerOp = perOp
		c := &classSink{samples: map[int][]workload.Sample{}}
		if err := Run(context.Background(), p, sqlite.Modernc(), c); err != nil {
			t.Fatal(err)
		}
		logged := countRows(t, p, "SELECT 1 FROM log", nil)
		fresh := countRows(t, p, "SELECT 1 FROM log WHERE x = 0", nil)
		switch {
		case logged != 100:
			t.Errorf("conn per op %v: %d rows logged, want 100", perOp, logged)
		case perOp && fresh != logged:
			t.Errorf("conn per op: %d of %d ops ran on a connection that had changed rows before", logged-fresh, logged)
		case !perOp && fresh != 2:
			t.Errorf("conn kept: %d ops ran on a fresh connection, want each worker's first alone", fresh)
		}
	}
}

// A connection per op is refused where an op is not its own transaction.
func TestConnPerOpRefused(t *testing.T) {
	p := sqlPlan(t, 2, "log.sql", "SELECT 1;")
	p.ConnPerOp = true
	if err := p.Validate(); err != nil {
		t.Fatalf("a connection per op of single ops: %v", err)
	}
	p.Phases[0].Batch = 10
	if err := p.Validate(); err == nil {
		t.Error("a connection per op of batches of 10 ops was let through")
	}
}
