package deal

import (
	"fmt"
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/workload"
)

// Schedule deals the due times of one worker's ops in an open-loop phase,
// as nanosecond offsets from START: Rate/Workers ops per second, evenly
// spaced or with exponential (Poisson) gaps, the first at a seeded offset
// within the first gap so that workers do not all start at once. It
// depends only on the plan, the phase and the worker.
type Schedule struct {
	gap     float64 // mean nanoseconds between ops
	t       float64 // the next due offset
	poisson bool
	r       *rand.Rand
}

// NewSchedule returns the schedule of worker in run phase run (an index
// of p.RunPhases()) of an open-loop plan (p.Rate > 0), or of a worker
// whose role has a rate.
func NewSchedule(p *workload.Plan, run, worker int) *Schedule {
	return newSchedule(p, p.SeedPhase(run), worker)
}

func newSchedule(p *workload.Plan, phase, worker int) *Schedule {
	gap := 1e9 * float64(p.Workers()) / p.Rate
	if r := p.RoleOf(worker); r >= 0 {
		gap = 1e9 * float64(p.Roles[r].Workers) / p.Roles[r].Rate
	}
	s := &Schedule{gap: gap, poisson: p.Arrival == workload.ArrivalPoisson, r: newRand(p.Seed, worker, phase, streamArrivals)}
	if s.poisson {
		s.t = s.r.ExpFloat64() * s.gap
	} else {
		s.t = s.r.Float64() * s.gap
	}
	return s
}

// Next returns the next due offset.
func (s *Schedule) Next() int64 {
	d := s.t
	if s.poisson {
		s.t += s.r.ExpFloat64() * s.gap
	} else {
		s.t += s.gap
	}
	return int64(d)
}

// deck deals ops in exact proportions: a deck holds every op as many times
// as its share (reduced by the shares' greatest common divisor, so 95/5 is
// a deck of 19 reads and 1 upsert), shuffled anew each time it runs out.
// Every full deck dealt has the mix's exact proportions.
type deck struct {
	r     *rand.Rand
	cards []workload.Op
	next  int
}

func newDeck(m workload.Mix, r *rand.Rand) *deck {
	ops, steps := m.Steps()
	g := 0
	for _, u := range steps {
		g = gcd(g, u)
	}
	d := &deck{r: r}
	for i, op := range ops {
		for range steps[i] / max(g, 1) {
			d.cards = append(d.cards, op)
		}
	}
	d.next = len(d.cards)
	return d
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (d *deck) deal() workload.Op {
	if d.next == len(d.cards) {
		d.r.Shuffle(len(d.cards), func(i, j int) { d.cards[i], d.cards[j] = d.cards[j], d.cards[i] })
		d.next = 0
	}
	op := d.cards[d.next]
	d.next++
	return op
}

// perm is a seeded permutation of [0, n) that needs no memory: a bijective
// mix of k-bit integers (multiply by odd, add, xorshift, multiply, add),
// with cycle-walking for values at or above n. Each at(i) takes fewer
// than two mixes on average.
type perm struct {
	n, mask        uint64
	a1, b1, a2, b2 uint64
	shift          uint
}

func newPerm(n uint64, r *rand.Rand) *perm {
	k := uint(1)
	for uint64(1)<<k < n {
		k++
	}
	return &perm{n: n, mask: 1<<k - 1, a1: r.Uint64() | 1, b1: r.Uint64(), a2: r.Uint64() | 1, b2: r.Uint64(), shift: max(k/2, 1)}
}

func (p *perm) mix(x uint64) uint64 {
	x = (x*p.a1 + p.b1) & p.mask
	x ^= x >> p.shift
	return (x*p.a2 + p.b2) & p.mask
}

func (p *perm) at(i uint64) uint64 {
	x := p.mix(i)
	for x >= p.n {
		x = p.mix(x)
	}
	return x
}

// eachKeys visits a worker's share of keys once, unit by unit (a key, or
// a scan's run of ScanLength keys), in order or permuted.
type eachKeys struct {
	lo, hi, unit, units, next uint64
	limit                     uint64 // units dealt: all, or Phase.Ops
	perm                      *perm
}

func (e *eachKeys) deal() (key uint64, n int) {
	u := e.next
	if e.perm != nil {
		u = e.perm.at(u)
	}
	e.next++
	key = e.lo + u*e.unit
	return key, int(min(e.unit, e.hi-key))
}

// Lottery is the seeded sequence of operations one worker runs in one
// phase: which op, on which key, with which value. Two Lotteries built
// from the same plan, phase and worker id deal the same sequence.
type Lottery struct {
	plan          *workload.Plan
	tag           bool // Plan.Verify, or a record workload's Crash: values carry their Tag
	random        bool // Plan.RandomValues
	worker, phase int
	writes        uint64
	scripts       uint64 // the scripts dealt (a sql workload's)
	deck          *deck
	keys          keyChooser
	app           *appender // the keys of appends (nil: the mix appends nothing)
	recency       *Recency  // the steps back of latest reads (nil: the mix reads no latest)
	each          *eachKeys
	op            workload.Op // the single op of an each-key phase
	scanN         int
	keyRng        *rand.Rand
	valRng        *rand.Rand
	value         []byte
	// rec deals a record workload's ops (nil for key-value ops); err is
	// why it could not deal the last one.
	rec *recDealer
	err error
}

// NewLottery returns the lottery of worker in phase of plan. The plan must
// be valid.
//
// A record workload's inserts take keynums from a Counter of the
// lottery's own; workers share the run's (see Host).
func NewLottery(plan *workload.Plan, phase, worker int) *Lottery {
	return newLottery(plan, phase, worker, planKeys(plan, nil))
}

// planKeys returns the key chooser of plan's workers on one host; a
// record workload's is its shared state, on counter c (nil: one of its
// own).
func planKeys(plan *workload.Plan, c *generator.Counter) keyChooser {
	if plan.Records != nil {
		return newRecShared(plan, c)
	}
	return newKeyChooser(plan.Keys)
}

func newLottery(plan *workload.Plan, phase, worker int, keys keyChooser) *Lottery {
	return lotteryOf(plan, &plan.Phases[phase], phase, worker, keys)
}

// lotteryOf builds the lottery of phase spec ph, its streams seeded as
// phase number phase.
func lotteryOf(plan *workload.Plan, ph *workload.Phase, phase, worker int, keys keyChooser) *Lottery {
	l := &Lottery{
		plan:   plan,
		tag:    plan.Verify,
		random: plan.RandomValues,
		worker: worker,
		phase:  phase,
		deck:   newDeck(plan.MixOf(ph, worker), newRand(plan.Seed, worker, phase, streamOps)),
		keys:   keys,
		keyRng: newRand(plan.Seed, worker, phase, streamKeys),
		valRng: newRand(plan.Seed, worker, phase, streamValues),
		value:  make([]byte, plan.ValueSize+plan.ValueVariance),
	}
	if plan.Records != nil {
		l.rec = newRecDealer(plan, ph, phase, worker, keys.(*recShared), phase == workload.WarmupSeedPhase)
		l.value, l.tag = nil, plan.Crash != nil
		return l
	}
	if plan.MixOf(ph, worker).Share(workload.OpAppend) > 0 {
		l.app = newAppender(plan, phase, worker)
	}
	if plan.MixOf(ph, worker).Share(workload.OpLatest) > 0 {
		l.recency = newRecency(plan, phase, worker)
	}
	if ph.Access == workload.AccessEach {
		l.op = ph.Mix.Ops()[0]
		lo, hi := plan.Share(worker)
		unit := uint64(1)
		if l.op == workload.OpScan {
			unit = workload.ScanLength
		}
		l.each = &eachKeys{lo: lo, hi: hi, unit: unit, units: (hi - lo + unit - 1) / unit}
		if ph.Order == workload.OrderRandom && l.each.units > 1 {
			l.each.perm = newPerm(l.each.units, l.keyRng)
		}
		l.each.limit = l.each.units
		if ph.Ops > 0 {
			l.each.limit = min(l.each.units, uint64(ph.Ops))
		}
	}
	return l
}

// Len returns how many ops the lottery deals in all: the units of the
// worker's share in an each-key phase, or 0 (no limit of its own) for a
// lottery phase.
func (l *Lottery) Len() int64 {
	if l.rec != nil {
		return l.rec.Len()
	}
	if l.each == nil {
		return 0
	}
	return int64(l.each.limit)
}

// Next deals the next op and its key. For a write, Value returns the value
// to write; for a scan, ScanLen the number of keys to read.
//
// In a record workload the key is the record's keynum; Record returns
// the rest of what was dealt, and Err why an op could not be dealt.
func (l *Lottery) Next() (workload.Op, uint64) {
	if l.rec != nil {
		op := workload.OpInsert // a load's
		if !l.rec.load {
			op = l.deck.deal()
		}
		l.err = l.rec.deal(op)
		if op.IsWrite() && l.err == nil {
			if l.tag {
				l.rec.tag(l.worker, l.phase, l.writes)
			}
			l.writes++
		}
		return op, l.rec.keynum
	}
	op, key := l.dealKey()
	if op == workload.OpUpsert || op == workload.OpUpdate || op == workload.OpInsert || op == workload.OpAppend {
		l.value = l.value[:l.plan.ValueSizeOf(key)]
		if l.random {
			fillRandom(l.value, l.valRng)
		} else {
			fillValue(l.value, l.valRng)
		}
		if l.tag {
			PutTag(l.value, l.worker, l.phase, l.writes)
		}
	}
	if op.IsWrite() {
		l.writes++
	}
	return op, key
}

// Writes returns how many write ops the lottery dealt: the last write's
// sequence number (its tag's) is one less.
func (l *Lottery) Writes() uint64 { return l.writes }

// Deal deals the next op into d (see Dealer): Next, with what goes with
// the op.
func (l *Lottery) Deal(d *Deal) error {
	op, key := l.Next()
	d.Op, d.Key, d.ScanLen, d.Claimed, d.Args, d.Err = op, key, l.ScanLen(), false, nil, nil
	d.Recency = nil
	if op == workload.OpLatest {
		d.Recency = l.recency
	}
	switch {
	case op.IsWrite():
		d.Seq = l.writes - 1
	case op.IsScript():
		d.Seq = l.scripts
		l.scripts++
	}
	if r := l.rec; r != nil {
		d.Record, d.ReadField, d.WriteField, d.Values = r.key, r.readField, r.writeField, r.values
		d.Claimed, d.Value = r.fromCount, nil
		r.fromCount = false // the worker releases it (Release)
	} else {
		d.Value = l.value
	}
	return l.err
}

// Release acknowledges keynum, an insert's that the lottery claimed from
// the run's counter, once the insert is over.
func (l *Lottery) Release(keynum uint64) error {
	if l.rec == nil {
		return fmt.Errorf("keynum %d was not claimed: the lottery deals no records", keynum)
	}
	return l.rec.s.counter.Ack(keynum)
}

// ScanLen returns how many consecutive keys the last scan op reads.
func (l *Lottery) ScanLen() int {
	if l.rec != nil {
		return l.rec.scanN
	}
	return l.scanN
}

// Err returns why the last op could not be dealt (a record workload's
// request distribution that kept drawing above the newest record), or
// nil.
func (l *Lottery) Err() error { return l.err }

// Record returns what was dealt with a record workload's last op: its
// record key, the field it reads and the one it writes (-1: every field),
// and the values it writes (valid until the next Next).
func (l *Lottery) Record() (key []byte, readField, writeField int, values [][]byte) {
	d := l.rec
	return d.key, d.readField, d.writeField, d.values
}

// dealKey deals the next op and key, without the value a write would
// carry (which comes from a stream of its own).
func (l *Lottery) dealKey() (op workload.Op, key uint64) {
	if l.each != nil {
		key, l.scanN = l.each.deal()
		return l.op, key
	}
	switch op = l.deck.deal(); op {
	case workload.OpAppend:
		return op, l.app.next()
	case workload.OpLatest:
		return op, 0 // the key is found when the op runs (Recency)
	case workload.OpScan:
		l.scanN = l.plan.ScanLen()
	}
	return op, l.keys.next(l.keyRng)
}

// Value returns the value dealt with the last write op. The slice is reused
// by the next call to Next.
func (l *Lottery) Value() []byte { return l.value }

// PhaseValueBytes returns the bytes of values an each-key phase reads or
// writes over all the plan's workers (its shard's): the sum of
// ValueSizeOf over the keys it visits, exact because the keys are dealt
// from the seed. A lottery phase of reads or updates alone, of a fixed
// number of ops, on a key space preloaded whole (so that no read misses
// and no update adds a key) counts the same way, keys drawn as its
// workers draw them. ok is false for any other phase, and for scans.
func PhaseValueBytes(p *workload.Plan, phase int) (n int64, ok bool) {
	ph := &p.Phases[phase]
	ops := ph.Mix.Ops()
	switch {
	case p.Records != nil:
		return 0, false
	case ph.Access == workload.AccessEach && ops[0] != workload.OpScan:
	case ph.Access == workload.AccessLottery && len(ops) == 1 && (ops[0] == workload.OpRead || ops[0] == workload.OpUpdate) &&
		ph.Ops > 0 && p.Preload >= p.Keys.Count:
	default:
		return 0, false
	}
	keys := newKeyChooser(p.Keys)
	for _, w := range p.WorkerIDs() {
		l := newLottery(p, phase, w, keys)
		deals := l.Len()
		if l.each == nil {
			deals = ph.Ops
		}
		for range deals {
			_, key := l.dealKey()
			n += int64(p.ValueSizeOf(key))
		}
	}
	return n, true
}
