package replay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Order is the shared state of a replay in the captured order of
// commits (workload.ReplayCommit), across every worker of the run: the state the
// database has reached (how many of the captured commits the replay has
// made), and for each state how many statements that began a transaction
// there have yet to run, and how many transactions that took the write
// lock there and committed nothing have yet to end. A statement that
// began a transaction at state k runs once the database reached k; the
// commit that makes state k+1 runs once every statement that began a
// transaction at k has run (and only then can a later one), so every
// transaction sees what it saw when captured. The write lock is one
// holder's at a time: a transaction that took it at state k and
// committed nothing held it before the one that committed k+1 took it,
// so that one takes it once every such transaction of state k ended
// (else each waits for the other, until a busy time-out).
//
// Its memory is operated on with atomics only, so that worker processes
// share it by mapping one file, as they share a record workload's
// Counter: a header (magic, states, the state reached, the progress,
// workers), an int32 per state for the statements pending, then one per
// state for the idle writers, then each worker's turn (see Turn).
type Order struct {
	reached  *atomic.Int64
	progress *atomic.Int64
	pending  counts
	idle     counts
	turns    []turnSlot
	mem      []byte
}

// turnSlot is where a worker says what it waits for: its connection's
// process (stream) and id, what (a Turn) and at which state.
type turnSlot struct{ stream, conn, what, state atomic.Int64 }

// Layout of a replay order's memory, in bytes.
const (
	replayOrderMagic  = 0x3330306472726267 // "gbrrd003"
	replayOrderHeader = 40                 // magic, states, reached, progress, workers
	turnSlotSize      = 32
)

// OrderSize is the size of the memory of a replay order of states
// states, for workers workers.
func OrderSize(states int64, workers int) int {
	return replayOrderHeader + 8*int(states) + turnSlotSize*workers
}

// InitOrder writes a fresh replay order of states states for workers
// workers into mem (of OrderSize bytes): nothing reached, no statement
// counted, no worker waiting.
func InitOrder(mem []byte, states int64, workers int) error {
	if states < 1 || workers < 0 || len(mem) < OrderSize(states, workers) {
		return fmt.Errorf("a replay order of %d states for %d workers takes %d bytes, not %d", states, workers, OrderSize(states, workers), len(mem))
	}
	clear(mem[:OrderSize(states, workers)])
	binary.NativeEndian.PutUint64(mem[8:], uint64(states))
	binary.NativeEndian.PutUint64(mem[32:], uint64(workers))
	binary.NativeEndian.PutUint64(mem, replayOrderMagic)
	return nil
}

// OpenOrder returns the replay order InitOrder wrote into mem,
// which must stay mapped while it is used and be 8-byte aligned (a
// mapping of a file is).
func OpenOrder(mem []byte) (*Order, error) {
	if len(mem) < replayOrderHeader || uintptr(unsafe.Pointer(unsafe.SliceData(mem)))%8 != 0 {
		return nil, errors.New("a replay order's memory is too short or not 8-byte aligned")
	}
	if binary.NativeEndian.Uint64(mem) != replayOrderMagic {
		return nil, errors.New("not a replay order")
	}
	states, workers := int64(binary.NativeEndian.Uint64(mem[8:])), binary.NativeEndian.Uint64(mem[32:])
	if states < 1 || workers > uint64(len(mem)) || len(mem) < OrderSize(states, int(workers)) {
		return nil, fmt.Errorf("a replay order of %d states and %d workers in %d bytes", states, workers, len(mem))
	}
	o := &Order{reached: (*atomic.Int64)(unsafe.Pointer(&mem[16])), progress: (*atomic.Int64)(unsafe.Pointer(&mem[24])), mem: mem}
	o.pending = counts(unsafe.Slice((*atomic.Int32)(unsafe.Pointer(&mem[replayOrderHeader])), states))
	o.idle = counts(unsafe.Slice((*atomic.Int32)(unsafe.Pointer(&mem[replayOrderHeader+4*int(states)])), states))
	if workers > 0 {
		o.turns = unsafe.Slice((*turnSlot)(unsafe.Pointer(&mem[replayOrderHeader+8*int(states)])), workers)
	}
	return o, nil
}

// newOrder returns a replay order of its own memory (for the
// workers of one process).
func newOrder(states int64, workers int) (*Order, error) {
	mem := make([]uint64, (OrderSize(states, workers)+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(mem))), len(mem)*8)
	if err := InitOrder(b, states, workers); err != nil {
		return nil, err
	}
	return OpenOrder(b)
}

// States returns how many states the order has.
func (o *Order) States() int64 { return int64(len(o.pending)) }

// Reached returns the state the database has reached.
func (o *Order) Reached() int64 { return o.reached.Load() }

// Count counts one statement that begins a transaction at state k (the
// setup, before any worker starts).
func (o *Order) Count(k int64) { o.pending.add(k, 1) }

// Pending returns how many statements that begin a transaction at state k
// have yet to run.
func (o *Order) Pending(k int64) int32 { return o.pending.load(k) }

// Ran notes that a statement that began a transaction at state k ran.
func (o *Order) Ran(k int64) {
	o.pending.add(k, -1)
	o.progress.Add(1)
}

// Progress returns a count that grows with every step of the order (a
// statement of a state run, a commit made, an idle writer ended): while
// it grows, a worker waiting for its turn is not stalled, however long
// it waits.
func (o *Order) Progress() int64 { return o.progress.Load() }

// CountIdle counts one transaction that took the write lock at state k
// and committed nothing (the setup, before any worker starts).
func (o *Order) CountIdle(k int64) { o.idle.add(k, 1) }

// Idle returns how many transactions that took the write lock at state k
// and commit nothing have yet to end.
func (o *Order) Idle(k int64) int32 { return o.idle.load(k) }

// IdleEnded notes that a transaction that took the write lock at state k
// and committed nothing ended.
func (o *Order) IdleEnded(k int64) {
	o.idle.add(k, -1)
	o.progress.Add(1)
}

// counts are one count per state of the order, shared by the processes
// that map them; a state outside them counts nothing.
type counts []atomic.Int32

// add adds d to state k's count.
func (c counts) add(k int64, d int32) {
	if k >= 0 && k < int64(len(c)) {
		c[k].Add(d)
	}
}

// load returns state k's count (0 outside the states).
func (c counts) load(k int64) int32 {
	if k < 0 || k >= int64(len(c)) {
		return 0
	}
	return c[k].Load()
}

// Committed notes that the commit that makes state k happened (or, having
// failed, will not: the order goes on).
func (o *Order) Committed(k int64) {
	o.progress.Add(1)
	for {
		cur := o.reached.Load()
		if cur >= k || o.reached.CompareAndSwap(cur, k) {
			return
		}
	}
}
