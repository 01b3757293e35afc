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

// checkAppend checks the append order, that no phase that appends could
// run out of keys, and that a plan that reads the latest appends appends
// in increasing order: a role that reads the latest needs another that
// appends, since a latest read finds the newest appended key in the store
// (the highest, so appended in order), whoever appended it.
func (p *Plan) checkAppend() error {
	switch p.AppendOrder {
	case "", AppendSequential, AppendRandom:
	default:
		return fmt.Errorf("unknown append order %q (want %s or %s)", p.AppendOrder, AppendSequential, AppendRandom)
	}
	appends, latest := false, false
	for _, ph := range p.RunPhases() {
		appends = appends || ph.Mix.Share(OpAppend) > 0
		latest = latest || ph.Mix.Share(OpLatest) > 0
		if ph.Ops > MaxAppends && ph.Mix.Share(OpAppend) > 0 {
			return fmt.Errorf("phase %s: %d ops per worker could append more than the %d keys a worker may append in a phase", ph.Name, ph.Ops, int64(MaxAppends))
		}
	}
	switch {
	case p.AppendOrder == AppendRandom && !appends:
		return fmt.Errorf("append order %s: no phase of the plan appends (give append in --mix or a --role's mix)", AppendRandom)
	case latest && !appends:
		return fmt.Errorf("latest reads the newest appended records, and no phase of the plan appends (give append in --mix, or in another --role's mix: --role writer:2:append=100 --role reader:1:latest=100)")
	case latest && p.AppendOrder == AppendRandom:
		return fmt.Errorf("latest reads the newest appends as the highest appended keys, which append order %s scatters (drop --append-order %s)", AppendRandom, AppendRandom)
	}
	return nil
}

// LastAppendKey is the highest key an append could write (the highest a
// SQLite INTEGER PRIMARY KEY holds): a latest read looks for the newest
// appended key in [AppendKeys, LastAppendKey].
const LastAppendKey uint64 = 1<<63 - 1

// AppendPosition returns where an appended key lies in its phase's slot:
// n×Workers()+worker of the worker's n-th append (see AppendKey), so
// that the keys appended before it in the phase, by any worker, lie in
// the AppendPosition(key) keys below it.
func AppendPosition(key uint64) uint64 { return key & (1<<appendSlotBits - 1) }
