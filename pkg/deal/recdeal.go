package deal

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/workload"
)

// Random streams of a record workload's dealer, besides the op deck's,
// the keys' and the values'.
const (
	streamFields  = 6 // which field a read or an update takes
	streamScans   = 7 // scan lengths
	streamRedraw  = 8 // keynums drawn again (above the limit)
	streamLengths = 9 // field lengths
)

// recShared is what the workers of one host share of a record workload:
// the run's counter and the generators that cost O(records) to build
// (each worker clones them).
type recShared struct {
	r       *workload.Records
	fields  int
	counter *generator.Counter
	keys    keyDraw // the request distribution's first draws
	latest  *generator.Zipf
	scanLen generator.Length
	lengths generator.Length
}

// keyDraw draws a keynum from the request distribution (but latest,
// which draws back from the counter's limit).
type keyDraw interface {
	Next(r *rand.Rand) int64
}

type uniformDraw struct{ lb, n int64 }

func (u uniformDraw) Next(r *rand.Rand) int64 { return u.lb + r.Int64N(u.n) }

// newRecShared builds the shared state of p's record workload on counter
// c (nil: one of its own, from RecordCount).
func newRecShared(p *workload.Plan, c *generator.Counter) *recShared {
	r := p.Records
	if c == nil {
		c = generator.NewCounter(r.RecordCount)
	}
	s := &recShared{r: r, fields: p.Store.Table.Fields, counter: c}
	lb, n := int64(r.InsertStart), int64(r.InsertCount)
	switch p.Keys.Distribution {
	case workload.Zipfian:
		s.keys = generator.NewScrambledZipf(lb, lb+n+int64(r.ExpectedInserts))
	case workload.Latest:
		// SkewedLatestGenerator's zipfian is built over the acknowledged
		// limit at the start: RecordCount-1 items.
		s.latest = generator.NewZipf(0, int64(r.RecordCount)-2, workload.RecordTheta)
	case workload.Hotspot:
		s.keys = generator.NewHotspot(lb, lb+n-1, r.HotData, r.HotOps)
	default:
		s.keys = uniformDraw{lb: lb, n: n}
	}
	s.scanLen = generator.NewLength(r.ScanLengthDistribution, int64(r.MinScanLength), int64(r.MaxScanLength))
	s.lengths = generator.NewLength(r.FieldLengthDistribution, int64(r.MinFieldLength), int64(r.FieldLength))
	return s
}

// next draws nothing: a record workload's keys come from its dealer.
// recShared is a keyChooser only to travel where the key-value lottery's
// chooser does.
func (s *recShared) next(*rand.Rand) uint64 { return 0 }

// maxRedraws bounds the draws of one keynum: a request distribution that
// keeps drawing above the limit is a defect, not a long wait.
const maxRedraws = 1 << 20

// recDealer deals one worker's record ops in one phase: the op, its
// record key, the fields it reads or writes, the values it writes, a
// scan's length.
type recDealer struct {
	s       *recShared
	load    bool
	first   uint64 // a load's keynums: first + i*stride
	stride  uint64
	n, i    uint64
	share   int64 // a run's ops, or 0 for the phase's own count
	keyRng  *rand.Rand
	redraw  *rand.Rand
	fldRng  *rand.Rand
	scanRng *rand.Rand
	lenRng  *rand.Rand
	valRng  *rand.Rand
	latest  *generator.Zipf
	scanLen generator.Length
	lengths generator.Length

	// The op dealt last.
	keynum     uint64
	fromCount  bool // its keynum came from the counter (an insert of a run)
	key        []byte
	readField  int // -1: every field
	writeField int // -1: every field
	scanN      int
	values     [][]byte
	buf        []byte
	lens       []int

	// observe, when set (by tests), sees every keynum drawn for a read,
	// update, scan or read-modify-write with the limit it was drawn
	// under.
	observe func(op workload.Op, keynum, limit uint64)
}

// newRecDealer returns worker's dealer for phase ph (seeded as phase
// number phase); warmup says it is the warm-up's, whose length is its own.
func newRecDealer(p *workload.Plan, ph *workload.Phase, phase, worker int, s *recShared, warmup bool) *recDealer {
	d := &recDealer{
		s:       s,
		keyRng:  newRand(p.Seed, worker, phase, streamKeys),
		redraw:  newRand(p.Seed, worker, phase, streamRedraw),
		fldRng:  newRand(p.Seed, worker, phase, streamFields),
		scanRng: newRand(p.Seed, worker, phase, streamScans),
		lenRng:  newRand(p.Seed, worker, phase, streamLengths),
		valRng:  newRand(p.Seed, worker, phase, streamValues),
		scanLen: s.scanLen.Clone(),
		lengths: s.lengths.Clone(),
		values:  make([][]byte, s.fields),
		buf:     make([]byte, 0, s.fields*s.r.FieldLength),
	}
	if s.latest != nil {
		d.latest = s.latest.Clone()
	}
	if ph.Access == workload.AccessEach {
		d.load = true
		d.first, d.stride, d.n = s.r.LoadShare(p.Workers(), worker)
	} else if ph.Ops > 0 && !warmup {
		d.share = s.r.OpShare(p.Workers(), worker)
	}
	return d
}

// Len returns the ops the dealer deals in all: a load's records, a run's
// share of the operation count, or 0 for the phase's own count.
func (d *recDealer) Len() int64 {
	if d.load {
		return int64(d.n)
	}
	return d.share
}

// deal deals op (from the deck; a load's is insert): its keynum, key,
// fields and values.
func (d *recDealer) deal(op workload.Op) error {
	d.fromCount, d.readField, d.writeField, d.scanN = false, -1, -1, 0
	switch {
	case d.load:
		d.keynum = d.first + d.i*d.stride
		d.i++
	case op == workload.OpInsert:
		d.keynum, d.fromCount = d.s.counter.Next(), true
	default:
		k, err := d.nextKeynum(op)
		if err != nil {
			return err
		}
		d.keynum = k
	}
	d.key = d.s.r.AppendKey(d.key[:0], d.keynum)
	r := d.s.r
	switch op {
	case workload.OpRead, workload.OpScan:
		if !r.ReadAllFields {
			d.readField = d.field()
		}
		if op == workload.OpScan {
			d.scanN = int(d.scanLen.Next(d.scanRng))
		}
	case workload.OpUpdate, workload.OpReadModifyWrite:
		if op == workload.OpReadModifyWrite && !r.ReadAllFields {
			d.readField = d.field()
		}
		if r.WriteAllFields {
			d.fill(d.s.fields)
		} else {
			d.writeField = d.field()
			d.fill(1)
		}
	case workload.OpInsert:
		d.fill(d.s.fields)
	}
	return nil
}

// tag writes the Tag of worker's write seq in phase at the start of
// every value the write dealt last writes (each at least
// workload.MinVerifyValueSize bytes: a --crash plan's fields are), so
// that each field a crash state holds names the write that put it there.
func (d *recDealer) tag(worker, phase int, seq uint64) {
	for _, v := range d.values {
		PutTag(v, worker, phase, seq)
	}
}

// field draws a field, uniformly.
func (d *recDealer) field() int { return d.fldRng.IntN(d.s.fields) }

// fill draws n values: each a length, then its characters.
func (d *recDealer) fill(n int) {
	d.buf, d.lens = d.buf[:0], d.lens[:0]
	for range n {
		l := int(d.lengths.Next(d.lenRng))
		at := len(d.buf)
		d.buf = slices.Grow(d.buf, l)[:at+l]
		generator.FillValue(d.buf[at:], d.valRng)
		d.lens = append(d.lens, l)
	}
	d.values = d.values[:n]
	at := 0
	for i, l := range d.lens {
		d.values[i] = d.buf[at : at+l]
		at += l
	}
}

// nextKeynum is CoreWorkload.nextKeynum: a draw of the request
// distribution (the latest one back from the counter's limit), drawn
// again while above the limit: no op reads a record whose insert is not
// over. The first draw comes from the key stream, the others from a
// stream of their own, so that every op takes one draw of the key stream
// whatever the counter did.
func (d *recDealer) nextKeynum(op workload.Op) (uint64, error) {
	rng := d.keyRng
	for range maxRedraws {
		limit := d.s.counter.Limit()
		var k int64
		if d.latest != nil {
			k = int64(limit) - d.latest.NextLong(int64(limit), rng.Float64())
		} else {
			k = d.s.keys.Next(rng)
		}
		if k >= 0 && uint64(k) <= limit {
			if d.observe != nil {
				d.observe(op, uint64(k), limit)
			}
			return uint64(k), nil
		}
		rng = d.redraw
	}
	return 0, fmt.Errorf("%w: %d draws of the %s distribution in a row fell above the newest record", workload.ErrOp, maxRedraws, op)
}
