package generator

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Counter is YCSB's AcknowledgedCounterGenerator, shared by every worker
// of a run: inserts take fresh keynums from it (Next), and acknowledge
// each when its insert is over (Ack); Limit is the newest keynum below
// which every insert is over, what the latest distribution draws back
// from and what no read may pass. An insert is over when its COMMIT
// succeeded or when it failed (YCSB acknowledges in a finally block; a
// read of a failed insert's key finds nothing and is counted so), never
// while it may still commit.
//
// Its state is a small block of memory operated on with atomics only, so
// that worker processes can share it by mapping one file (the
// coordinator's job; see CounterSize and OpenCounter): next, limit, a
// lock for moving the limit, and a window of 2^20 acknowledgement bits,
// as YCSB's.
type Counter struct {
	next, limit *atomic.Uint64
	lock        *atomic.Uint32
	window      []atomic.Uint32
	mem         []uint64 // keeps memory the counter allocated itself
}

// Layout of a counter's memory, in bytes.
const (
	counterMagic   = 0x3130307274636267 // "gbctr001"
	counterHeader  = 64                 // magic, start, next, limit, lock
	counterWindow  = 1 << 20            // acknowledgement bits, as YCSB's WINDOW_SIZE
	counterMask    = counterWindow - 1
	offStart       = 8
	offNext        = 16
	offLimit       = 24
	offLock        = 32
	windowWordBits = 32
)

// CounterSize is the size of a counter's memory.
const CounterSize = counterHeader + counterWindow/8

// ErrCounterWindow is an insert acknowledged more than the window's
// 2^20 keynums ahead of the limit: as many inserts are still in flight
// (or one never ended), YCSB's "Too many unacknowledged insertion keys".
var ErrCounterWindow = errors.New("too many unacknowledged insertion keys (more than 2^20 ahead of the oldest one still in flight)")

// InitCounter writes a fresh counter whose first keynum is start into
// mem, of at least CounterSize bytes: its limit is start-1 (every keynum
// below start exists, as after a load). start must be at least 1.
func InitCounter(mem []byte, start uint64) error {
	if len(mem) < CounterSize {
		return fmt.Errorf("a counter takes %d bytes, not %d", CounterSize, len(mem))
	}
	if start < 1 {
		return errors.New("a counter starts at keynum 1 or above")
	}
	clear(mem[:CounterSize])
	binary.NativeEndian.PutUint64(mem[offStart:], start)
	binary.NativeEndian.PutUint64(mem[offNext:], start)
	binary.NativeEndian.PutUint64(mem[offLimit:], start-1)
	binary.NativeEndian.PutUint64(mem, counterMagic)
	return nil
}

// OpenCounter returns the counter whose state InitCounter wrote into mem,
// which must stay mapped while the counter is used and be 8-byte aligned
// (a mapping of a file is). Every Counter opened on the same memory is
// the same counter.
func OpenCounter(mem []byte) (*Counter, error) {
	if len(mem) < CounterSize {
		return nil, fmt.Errorf("a counter takes %d bytes, not %d", CounterSize, len(mem))
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(mem)))%8 != 0 {
		return nil, errors.New("a counter's memory must be 8-byte aligned")
	}
	if binary.NativeEndian.Uint64(mem) != counterMagic {
		return nil, errors.New("not a counter (InitCounter writes one)")
	}
	at := func(off int) unsafe.Pointer { return unsafe.Pointer(&mem[off]) }
	return &Counter{
		next:   (*atomic.Uint64)(at(offNext)),
		limit:  (*atomic.Uint64)(at(offLimit)),
		lock:   (*atomic.Uint32)(at(offLock)),
		window: unsafe.Slice((*atomic.Uint32)(at(counterHeader)), counterWindow/windowWordBits),
	}, nil
}

// NewCounter returns a counter in this process's memory whose first
// keynum is start (at least 1): for workers that are goroutines of one
// process.
func NewCounter(start uint64) *Counter {
	words := make([]uint64, CounterSize/8)
	mem := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), CounterSize)
	if err := InitCounter(mem, max(start, 1)); err != nil {
		panic(err) // the size is right by construction
	}
	c, err := OpenCounter(mem)
	if err != nil {
		panic(err)
	}
	c.mem = words
	return c
}

// Next hands out a fresh keynum.
func (c *Counter) Next() uint64 { return c.next.Add(1) - 1 }

// Limit returns the newest keynum below which every insert is over.
func (c *Counter) Limit() uint64 { return c.limit.Load() }

// Issued returns how many keynums Next handed out before the next one:
// the next keynum.
func (c *Counter) Issued() uint64 { return c.next.Load() }

// bit returns the word and the bit of keynum v's slot.
func (c *Counter) bit(v uint64) (*atomic.Uint32, uint32) {
	slot := v & counterMask
	return &c.window[slot/windowWordBits], 1 << (slot % windowWordBits)
}

// Ack acknowledges keynum v, handed out by Next, once its insert is over,
// and moves the limit over every keynum acknowledged without a gap.
func (c *Counter) Ack(v uint64) error {
	if v <= c.limit.Load() {
		return fmt.Errorf("keynum %d acknowledged twice (the limit is past it)", v)
	}
	if v-c.limit.Load() > counterWindow {
		return ErrCounterWindow
	}
	w, b := c.bit(v)
	if w.Or(b)&b != 0 {
		return fmt.Errorf("keynum %d acknowledged twice", v)
	}
	c.advance()
	return nil
}

// advance moves the limit over the acknowledged keynums that follow it,
// clearing their bits: one mover at a time (the lock), and a mover that
// let go checks again for a bit set while it held the lock, whose owner
// could not take it.
func (c *Counter) advance() {
	for c.lock.CompareAndSwap(0, 1) {
		limit := c.limit.Load()
		next := limit + 1
		for next-limit <= counterWindow {
			w, b := c.bit(next)
			if w.Load()&b == 0 {
				break
			}
			w.And(^b)
			next++
		}
		c.limit.Store(next - 1)
		c.lock.Store(0)
		if w, b := c.bit(next); w.Load()&b == 0 {
			return
		}
	}
}
