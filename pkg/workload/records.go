package workload

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Records is a record workload: YCSB's core workload (CoreWorkload) on
// the plan's record table (Plan.Store.Table), keyed by YCSB's keynums.
// Keys.Count is the record count and Keys.Distribution the request
// distribution (uniform, zipfian, latest or hotspot); ValueSize is a
// record's size at most (fields × field length).
//
// A phase that visits each key (AccessEach, op insert) is YCSB's load:
// keynums InsertStart to InsertStart+InsertCount-1, worker w of W taking
// every W-th from InsertStart+w (a shared counter's interleaving, dealt
// in advance); its Ops, if set, says what the busiest worker inserts. A lottery phase is YCSB's run: ops dealt from the mix's
// deck, each drawing its keynum as CoreWorkload's nextKeynum does, a
// keynum above the counter's limit drawn again; an insert takes a fresh
// keynum from the run's Counter, from RecordCount up.
type Records struct {
	// RecordCount is YCSB's recordcount: the records of the table (the
	// key space), and the first keynum a run's inserts take.
	RecordCount uint64 `json:"record_count"`
	// InsertStart and InsertCount are the keynums this plan loads (all
	// of them unless split among several loaders), and those a run's
	// uniform, zipfian and hotspot draws fall on.
	InsertStart uint64 `json:"insert_start"`
	InsertCount uint64 `json:"insert_count"`
	// OperationCount is YCSB's operationcount: the ops of a run's
	// measured phase over every worker, split as evenly as can be (the
	// first workers one more); 0 when the phase runs for a duration.
	OperationCount uint64 `json:"operation_count,omitempty"`
	// FieldLength is a field's length (the most, for a varying length);
	// MinFieldLength the least; FieldLengthDistribution constant, uniform
	// or zipfian.
	FieldLength             int    `json:"field_length"`
	MinFieldLength          int    `json:"min_field_length"`
	FieldLengthDistribution string `json:"field_length_distribution"`
	// ReadAllFields reads every field (else one, at random);
	// WriteAllFields writes every field of an update (else one).
	ReadAllFields  bool `json:"read_all_fields"`
	WriteAllFields bool `json:"write_all_fields"`
	// Ordered names records by their keynum (insertorder=ordered), not
	// its hash; ZeroPadding pads the number to this many digits.
	Ordered     bool `json:"ordered,omitempty"`
	ZeroPadding int  `json:"zero_padding"`
	// HotData and HotOps are the hotspot distribution's: a share HotOps
	// of the draws falls on the first HotData of the keys.
	HotData float64 `json:"hot_data,omitempty"`
	HotOps  float64 `json:"hot_ops,omitempty"`
	// ExpectedInserts widens the zipfian distribution's range beyond the
	// loaded records, as YCSB does (operationcount × insertproportion ×
	// 2), so that records inserted during the run get drawn too.
	ExpectedInserts uint64 `json:"expected_inserts,omitempty"`
	// MinScanLength and MaxScanLength bound a scan's length, drawn
	// uniform or zipfian (ScanLengthDistribution).
	MinScanLength          int    `json:"min_scan_length"`
	MaxScanLength          int    `json:"max_scan_length"`
	ScanLengthDistribution string `json:"scan_length_distribution"`
	// Counter is the file holding the run's Counter, mapped by every
	// worker process; the coordinator sets it for the worker processes
	// of one run, and it is empty everywhere else.
	Counter string `json:"counter,omitempty"`
}

// Record workload limits.
const (
	// MaxScanLength bounds maxscanlength.
	MaxScanLength = 1_000_000
	// MaxZeroPadding bounds zeropadding: keys stay within
	// store.MaxRecordKey.
	MaxZeroPadding = 400
)

// recordTheta is the zipfian constant of YCSB's core workload: fixed,
// since ScrambledZipfianGenerator has zeta precomputed for it alone.
const recordTheta = scrambledTheta

// checkRecords checks a record workload: its table, counts and
// distributions, and that its phases deal record ops; a plan without one
// deals no read-modify-write.
func (p *Plan) checkRecords() error {
	r := p.Records
	if r == nil {
		for _, ph := range p.RunPhases() {
			for _, op := range ph.Mix.Ops() {
				if ph.Access == AccessLottery && !slices.Contains(MixOps(), op) && !op.IsScript() && !op.IsStatement() {
					return fmt.Errorf("phase %s: %v cannot be dealt by a lottery mix (want read, upsert, update or delete; a record workload's lottery deals insert, scan and read-modify-write too)", ph.Name, op)
				}
			}
		}
		return nil
	}
	t := p.Store.Table
	if t == nil {
		return errors.New("records: the store has no record table")
	}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	for _, check := range []func() error{r.checkCounts, r.checkFields, r.checkScans} {
		if err := check(); err != nil {
			return fmt.Errorf("records: %w", err)
		}
	}
	if p.Keys.Count != r.RecordCount {
		return fmt.Errorf("records: the key space of %d keys is not the record count %d", p.Keys.Count, r.RecordCount)
	}
	if want := uint64(t.Fields) * uint64(r.FieldLength); uint64(p.ValueSize) != want || p.ValueVariance != 0 {
		return fmt.Errorf("records: value size %d±%d is not the record's %d bytes (%d fields of %d)", p.ValueSize, p.ValueVariance, want, t.Fields, r.FieldLength)
	}
	if p.Preload != 0 && p.Preload != r.InsertCount {
		return fmt.Errorf("records: a preload of %d rows is not the %d records loaded", p.Preload, r.InsertCount)
	}
	if p.Verify {
		return errors.New("records: verify checks key-value writes, not records")
	}
	if err := r.checkDistribution(p.Keys); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	for _, ph := range p.RunPhases() {
		if err := r.checkPhase(p, ph); err != nil {
			return fmt.Errorf("records: phase %s: %w", ph.Name, err)
		}
	}
	return nil
}

func (r *Records) checkCounts() error {
	switch {
	case r.RecordCount < 1 || r.RecordCount > MaxKeys:
		return fmt.Errorf("record count %d is out of range (want 1 to %d)", r.RecordCount, uint64(MaxKeys))
	case r.InsertCount < 1:
		return errors.New("insert count is 0 (want at least 1 record)")
	case r.InsertStart > r.RecordCount || r.InsertCount > r.RecordCount-r.InsertStart:
		return fmt.Errorf("insert start %d and insert count %d reach past the record count %d", r.InsertStart, r.InsertCount, r.RecordCount)
	case r.OperationCount > MaxKeys:
		return fmt.Errorf("operation count %d is out of range (want up to %d)", r.OperationCount, uint64(MaxKeys))
	case r.ZeroPadding < 0 || r.ZeroPadding > MaxZeroPadding:
		return fmt.Errorf("zero padding %d is out of range (want 0 to %d)", r.ZeroPadding, MaxZeroPadding)
	}
	return nil
}

func (r *Records) checkFields() error {
	switch r.FieldLengthDistribution {
	case LengthConstant, LengthUniform, LengthZipfian:
	default:
		return fmt.Errorf("unknown field length distribution %q (want constant, uniform or zipfian)", r.FieldLengthDistribution)
	}
	if r.FieldLength < 1 || r.FieldLength > MaxValueSize {
		return fmt.Errorf("field length %d is out of range (want 1 to %d)", r.FieldLength, MaxValueSize)
	}
	if r.FieldLengthDistribution != LengthConstant && (r.MinFieldLength < 0 || r.MinFieldLength > r.FieldLength) {
		return fmt.Errorf("minimum field length %d is out of range (want 0 to the field length, %d)", r.MinFieldLength, r.FieldLength)
	}
	return nil
}

func (r *Records) checkScans() error {
	switch r.ScanLengthDistribution {
	case LengthUniform, LengthZipfian:
	default:
		return fmt.Errorf("unknown scan length distribution %q (want uniform or zipfian)", r.ScanLengthDistribution)
	}
	if r.MinScanLength < 1 || r.MaxScanLength < r.MinScanLength || r.MaxScanLength > MaxScanLength {
		return fmt.Errorf("scan lengths %d to %d are out of range (want 1 ≤ minimum ≤ maximum ≤ %d)", r.MinScanLength, r.MaxScanLength, MaxScanLength)
	}
	return nil
}

func (r *Records) checkDistribution(k KeySpace) error {
	switch k.Distribution {
	case Zipfian:
		if k.Theta != recordTheta {
			return fmt.Errorf("the zipfian constant of a record workload is YCSB's %v, not %v", recordTheta, k.Theta)
		}
		if r.ExpectedInserts > MaxKeys {
			return fmt.Errorf("expected inserts %d is out of range", r.ExpectedInserts)
		}
	case Hotspot:
		if !(r.HotData >= 0 && r.HotData <= 1 && r.HotOps >= 0 && r.HotOps <= 1) {
			return fmt.Errorf("hotspot fractions %v of the data and %v of the ops are out of range (want 0 to 1)", r.HotData, r.HotOps)
		}
		h := newHotspot(int64(r.InsertStart), int64(r.InsertStart+r.InsertCount-1), r.HotData, r.HotOps)
		if h.hot == 0 && r.HotOps > 0 {
			return fmt.Errorf("the hot set (%v of %d records) holds no record, yet %v of the ops go to it", r.HotData, r.InsertCount, r.HotOps)
		}
		if h.cold == 0 && r.HotOps < 1 {
			return fmt.Errorf("the cold set (%v of %d records) holds no record, yet %v of the ops go to it", 1-r.HotData, r.InsertCount, 1-r.HotOps)
		}
	}
	return nil
}

// checkPhase checks that a phase is a load or a run of records.
func (r *Records) checkPhase(p *Plan, ph Phase) error {
	if ph.Access == AccessEach {
		if ops := ph.Mix.Ops(); len(ops) != 1 || ops[0] != OpInsert {
			return fmt.Errorf("a record workload's each-key phase is its load, of inserts, not %s", ph.Mix)
		}
		if ph.Order != OrderSequential {
			return errors.New("a record load inserts every record of its range in order")
		}
		return nil
	}
	for _, op := range ph.Mix.Ops() {
		if !slices.Contains(RecordOps(), op) {
			return fmt.Errorf("%v is not an op of a record workload (want read, update, insert, scan, read-modify-write)", op)
		}
	}
	return nil
}

// opShare returns the ops worker deals in a run phase of ops (the phase's
// own count) out of OperationCount: its even share, the first workers one
// more; 0 without an operation count.
func (r *Records) opShare(workers, worker int) int64 {
	if r.OperationCount == 0 || workers < 1 {
		return 0
	}
	w := uint64(workers)
	n := r.OperationCount / w
	if uint64(worker) < r.OperationCount%w {
		n++
	}
	return int64(n)
}

// OpsPerWorker returns the op count of a run phase's busiest worker for
// workers workers: what Phase.Ops says of a run whose OperationCount is
// split over them.
func (r *Records) OpsPerWorker(workers int) int64 {
	return r.opShare(workers, 0)
}

// AppendKey appends the name of record keynum, as YCSB builds it.
func (r *Records) AppendKey(dst []byte, keynum uint64) []byte {
	return appendKeyName(dst, int64(keynum), r.ZeroPadding, r.Ordered)
}

// loadShare returns the first keynum, the stride and the count of the
// keynums worker loads.
func (r *Records) loadShare(workers, worker int) (first, stride, n uint64) {
	w := uint64(workers)
	n = r.InsertCount / w
	if uint64(worker) < r.InsertCount%w {
		n++
	}
	return r.InsertStart + uint64(worker), w, n
}

// recShared is what the workers of one host share of a record workload:
// the run's counter and the generators that cost O(records) to build
// (each worker clones them).
type recShared struct {
	r       *Records
	fields  int
	counter *Counter
	keys    keyDraw // the request distribution's first draws
	latest  *ycsbZipf
	scanLen lengthGen
	lengths lengthGen
}

// keyDraw draws a keynum from the request distribution (but latest,
// which draws back from the counter's limit).
type keyDraw interface {
	next(r *rand.Rand) int64
}

type uniformDraw struct{ lb, n int64 }

func (u uniformDraw) next(r *rand.Rand) int64 { return u.lb + r.Int64N(u.n) }

// newRecShared builds the shared state of p's record workload on counter
// c (nil: one of its own, from RecordCount).
func newRecShared(p *Plan, c *Counter) *recShared {
	r := p.Records
	if c == nil {
		c = NewCounter(r.RecordCount)
	}
	s := &recShared{r: r, fields: p.Store.Table.Fields, counter: c}
	lb, n := int64(r.InsertStart), int64(r.InsertCount)
	switch p.Keys.Distribution {
	case Zipfian:
		s.keys = newScrambledZipf(lb, lb+n+int64(r.ExpectedInserts))
	case Latest:
		// SkewedLatestGenerator's zipfian is built over the acknowledged
		// limit at the start: RecordCount-1 items.
		s.latest = newYCSBZipf(0, int64(r.RecordCount)-2, recordTheta)
	case Hotspot:
		s.keys = newHotspot(lb, lb+n-1, r.HotData, r.HotOps)
	default:
		s.keys = uniformDraw{lb: lb, n: n}
	}
	s.scanLen = newLengthGen(r.ScanLengthDistribution, int64(r.MinScanLength), int64(r.MaxScanLength))
	s.lengths = newLengthGen(r.FieldLengthDistribution, int64(r.MinFieldLength), int64(r.FieldLength))
	return s
}

// next draws nothing: a record workload's keys come from its dealer.
// recShared is a keyChooser only to travel where the key-value lottery's
// chooser does.
func (s *recShared) next(*rand.Rand) uint64 { return 0 }

// Random streams of a record workload's dealer, besides the op deck's,
// the keys' and the values'.
const (
	streamFields  = 6 // which field a read or an update takes
	streamScans   = 7 // scan lengths
	streamRedraw  = 8 // keynums drawn again (above the limit)
	streamLengths = 9 // field lengths
)

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
	latest  *ycsbZipf
	scanLen lengthGen
	lengths lengthGen

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
	observe func(op Op, keynum, limit uint64)
}

// newRecDealer returns worker's dealer for phase ph (seeded as phase
// number phase); warmup says it is the warm-up's, whose length is its own.
func newRecDealer(p *Plan, ph *Phase, phase, worker int, s *recShared, warmup bool) *recDealer {
	d := &recDealer{
		s:       s,
		keyRng:  newRand(p.Seed, worker, phase, streamKeys),
		redraw:  newRand(p.Seed, worker, phase, streamRedraw),
		fldRng:  newRand(p.Seed, worker, phase, streamFields),
		scanRng: newRand(p.Seed, worker, phase, streamScans),
		lenRng:  newRand(p.Seed, worker, phase, streamLengths),
		valRng:  newRand(p.Seed, worker, phase, streamValues),
		scanLen: s.scanLen.clone(),
		lengths: s.lengths.clone(),
		values:  make([][]byte, s.fields),
		buf:     make([]byte, 0, s.fields*s.r.FieldLength),
	}
	if s.latest != nil {
		d.latest = s.latest.clone()
	}
	if ph.Access == AccessEach {
		d.load = true
		d.first, d.stride, d.n = s.r.loadShare(p.Workers(), worker)
	} else if ph.Ops > 0 && !warmup {
		d.share = s.r.opShare(p.Workers(), worker)
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
func (d *recDealer) deal(op Op) error {
	d.fromCount, d.readField, d.writeField, d.scanN = false, -1, -1, 0
	switch {
	case d.load:
		d.keynum = d.first + d.i*d.stride
		d.i++
	case op == OpInsert:
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
	case OpRead, OpScan:
		if !r.ReadAllFields {
			d.readField = d.field()
		}
		if op == OpScan {
			d.scanN = int(d.scanLen.next(d.scanRng))
		}
	case OpUpdate, OpReadModifyWrite:
		if op == OpReadModifyWrite && !r.ReadAllFields {
			d.readField = d.field()
		}
		if r.WriteAllFields {
			d.fill(d.s.fields)
		} else {
			d.writeField = d.field()
			d.fill(1)
		}
	case OpInsert:
		d.fill(d.s.fields)
	}
	return nil
}

// field draws a field, uniformly.
func (d *recDealer) field() int { return d.fldRng.IntN(d.s.fields) }

// fill draws n values: each a length, then its characters.
func (d *recDealer) fill(n int) {
	d.buf, d.lens = d.buf[:0], d.lens[:0]
	for range n {
		l := int(d.lengths.next(d.lenRng))
		at := len(d.buf)
		d.buf = slices.Grow(d.buf, l)[:at+l]
		fillYCSB(d.buf[at:], d.valRng)
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
func (d *recDealer) nextKeynum(op Op) (uint64, error) {
	rng := d.keyRng
	for range maxRedraws {
		limit := d.s.counter.Limit()
		var k int64
		if d.latest != nil {
			k = int64(limit) - d.latest.nextLong(int64(limit), rng.Float64())
		} else {
			k = d.s.keys.next(rng)
		}
		if k >= 0 && uint64(k) <= limit {
			if d.observe != nil {
				d.observe(op, uint64(k), limit)
			}
			return uint64(k), nil
		}
		rng = d.redraw
	}
	return 0, fmt.Errorf("%w: %d draws of the %s distribution in a row fell above the newest record", ErrOp, maxRedraws, op)
}

// InsertsDuringRun reports whether a record workload's lottery phases insert:
// their keynums come from the run's counter.
func (p *Plan) InsertsDuringRun() bool {
	if p.Records == nil {
		return false
	}
	for _, ph := range p.RunPhases() {
		if ph.Access == AccessLottery && slices.Contains(ph.Mix.Ops(), OpInsert) {
			return true
		}
	}
	return false
}
