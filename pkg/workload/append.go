package workload

import "fmt"

// AppendKeys is the lowest key an append writes. Appended keys lie above
// every key space (keys below MaxKeys), so an append never rewrites a
// preloaded key or one another op drew; a key at or above it is an
// appended one (see IsAppended).
const AppendKeys uint64 = 1 << 62

// appendSlotBits is where an appended key's phase slot begins: below it,
// the worker's n-th append is n×Workers()+worker.
const appendSlotBits = 52

// MaxAppends bounds the appends one worker makes in one phase, so that
// appended keys of different workers and phases never meet.
const MaxAppends = 1<<appendSlotBits/MaxWorkers - 1

// Append orders (Plan.AppendOrder).
const (
	// AppendSequential appends each worker's keys in increasing order
	// (the default): every append lands at the end of the key order.
	AppendSequential = "sequential"
	// AppendRandom scatters each worker's appended keys over its range
	// by a seeded permutation of the append number.
	AppendRandom = "random"
)

// AppendKey returns the key of worker's append number n (from 0) in the
// phase seeded as seedPhase (see Plan.SeedPhase): distinct for every
// worker, phase and n of the plan, whatever process runs the worker.
// Keys of one worker in one phase increase with n; a later phase's lie
// above an earlier one's, the warm-up's below every measured phase's.
func (p *Plan) AppendKey(seedPhase, worker int, n uint64) uint64 {
	slot := uint64(seedPhase) + 1
	if seedPhase == WarmupSeedPhase {
		slot = 0
	}
	return AppendKeys | slot<<appendSlotBits | (n*uint64(p.Workers()) + uint64(worker))
}

// IsAppended reports whether key is one an append writes.
func IsAppended(key uint64) bool { return key >= AppendKeys }

// checkAppend checks the append order, and that no phase that appends
// could run out of keys.
func (p *Plan) checkAppend() error {
	switch p.AppendOrder {
	case "", AppendSequential, AppendRandom:
	default:
		return fmt.Errorf("unknown append order %q (want %s or %s)", p.AppendOrder, AppendSequential, AppendRandom)
	}
	appends := false
	for _, ph := range p.RunPhases() {
		appends = appends || ph.Mix.Share(OpAppend) > 0
		if ph.Ops > MaxAppends && ph.Mix.Share(OpAppend) > 0 {
			return fmt.Errorf("phase %s: %d ops per worker could append more than the %d keys a worker may append in a phase", ph.Name, ph.Ops, int64(MaxAppends))
		}
	}
	if p.AppendOrder == AppendRandom && !appends {
		return fmt.Errorf("append order %s: no phase of the plan appends (give append in --mix or a --role's mix)", AppendRandom)
	}
	return nil
}
