//go:build cgo

package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/store/sqlite"
)

func init() { loops["cloop"] = loopInC }

// loopInC is the child of -api cloop: gobench's capi engine, its op loop
// in C. It deals the same ops as the other children, from the same seed,
// -batch at a time in Go, runs each batch in one call into C
// (sqlite.RunInC), which times each op, and adds up the latencies C
// measured, as a harness would read them.
func loopInC(c config, ready func() error) (reads, writes int, err error) {
	o, err := openStoreOps(c)
	if err != nil {
		return 0, 0, err
	}
	conn := o.(*storeOps).c
	const vlen = 64
	batch := c.batch
	if batch <= 0 || batch > c.queries {
		batch = c.queries
	}
	ops := make([]sqlite.LoopOp, batch)
	values := make([]byte, batch*vlen)
	dst := make([]byte, 0, 4*vlen)
	if err := ready(); err != nil {
		return 0, 0, err
	}
	r := rand.New(rand.NewPCG(uint64(c.child), 1))
	var latency int64
	for left := c.queries; left > 0; left -= len(ops) {
		ops = ops[:min(batch, left)]
		for i := range ops {
			ops[i] = sqlite.LoopOp{Key: int64(r.IntN(c.keys)), Kind: sqlite.LoopRead}
			if r.IntN(100) < 5 {
				fill(r, values[i*vlen:(i+1)*vlen])
				ops[i].Kind = sqlite.LoopUpsert
			}
		}
		n, err := sqlite.RunInC(conn, ops, values, vlen, dst)
		if err != nil {
			return 0, 0, fmt.Errorf("op %d of a batch: %w", n-1, err)
		}
		for _, op := range ops {
			if op.RC == sqlite.LoopNoRow {
				return 0, 0, fmt.Errorf("key %d: no row", op.Key)
			}
			latency += op.T1 - op.T0
			if op.Kind == sqlite.LoopUpsert {
				writes++
			} else {
				reads++
			}
		}
	}
	if latency <= 0 {
		return 0, 0, fmt.Errorf("%d ops timed at %d ns in all", reads+writes, latency)
	}
	return reads, writes, nil
}
