package workload

import (
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// CRUD returns the phases of the classic embedded-database benchmark:
// insert every key, query every key (rounds times), update every key
// (rounds times), scan every key in 100-key runs (when scan is true: the
// engine keeps keys in order), and delete every key. Every phase visits
// each worker's share of the key space once in order (OrderSequential or
// OrderRandom; random deals a new permutation each phase); writes run
// writeBatch to a transaction, reads one.
func CRUD(rounds int, order string, writeBatch int, scan bool) []Phase {
	each := func(name string, op Op, batch int) Phase {
		return Phase{Name: name, Mix: Mix{{op, 100}}, Access: AccessEach, Order: order, Batch: batch}
	}
	phases := []Phase{each("insert", OpInsert, writeBatch)}
	for r := 1; r <= rounds; r++ {
		phases = append(phases, each(fmt.Sprintf("query %d", r), OpRead, 1))
	}
	for r := 1; r <= rounds; r++ {
		phases = append(phases, each(fmt.Sprintf("update %d", r), OpUpdate, writeBatch))
	}
	if scan {
		s := each("scan", OpScan, 1)
		s.Optional = true // engines that keep no key order skip it
		phases = append(phases, s)
	}
	return append(phases, each("delete", OpDelete, writeBatch))
}

// SetWriteBatch sets the batch of the phases of p that write.
func SetWriteBatch(p *Plan, n int) {
	for i := range p.Phases {
		if op := p.Phases[i].Mix.Ops()[0]; op.IsWrite() {
			p.Phases[i].Batch = n
		}
	}
}

// FitWriteBatches gives the plans of drivers without transactions (files,
// map, btree: store.IsTransactional is false) a write batch of 1: each of
// their ops stands alone, and their settings say so.
func FitWriteBatches(plans []*Plan, reg *store.Registry) error {
	for _, p := range plans {
		d, err := reg.Lookup(p.Driver)
		if err != nil {
			return err
		}
		if !store.IsTransactional(d) {
			SetWriteBatch(p, 1)
		}
	}
	return nil
}
