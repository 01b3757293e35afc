package deal

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// recordPlan returns a record workload of n records run with mix over
// dist by workers goroutines, ops in all: YCSB's defaults otherwise (10
// fields of 100 bytes, hashed keys, scans up to 1000 long).
func recordPlan(mix string, dist workload.Distribution, n uint64, workers int, ops uint64) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver = "map"
	p.Mode = workload.ModeGoroutine
	p.Procs = workers
	p.Store.Table = &store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 10}
	p.Keys = workload.KeySpace{Count: n, Distribution: dist, Theta: workload.RecordTheta}
	p.ValueSize = 1000
	p.Preload = n
	m, err := workload.ParseMix(mix)
	if err != nil {
		panic(err)
	}
	r := &workload.Records{RecordCount: n, InsertCount: n, OperationCount: ops, FieldLength: 100, MinFieldLength: 1,
		FieldLengthDistribution: workload.LengthConstant, ReadAllFields: true, ZeroPadding: 1, HotData: 0.2, HotOps: 0.8,
		MinScanLength: 1, MaxScanLength: 1000, ScanLengthDistribution: workload.LengthUniform}
	if dist == workload.Zipfian {
		r.ExpectedInserts = uint64(float64(ops) * m.Share(workload.OpInsert) / 100 * 2)
	}
	p.Records = r
	p.Phases = []workload.Phase{{Name: "run", Mix: m, Ops: r.OpsPerWorker(workers), Batch: 1}}
	return &p
}

// The canonical workloads' op shares are dealt exactly: every full deck
// holds each op as often as its proportion says.
func TestRecordOpShares(t *testing.T) {
	for _, tt := range []struct {
		name, mix string
		dist      workload.Distribution
	}{
		{"a", "read=50,update=50", workload.Zipfian},
		{"b", "read=95,update=5", workload.Zipfian},
		{"c", "read=100", workload.Zipfian},
		{"d", "read=95,insert=5", workload.Latest},
		{"e", "scan=95,insert=5", workload.Zipfian},
		{"f", "read=50,read-modify-write=50", workload.Zipfian},
		{"quarters", "read=33.25,update=33.25,scan=33.5", workload.Uniform},
	} {
		t.Run(tt.name, func(t *testing.T) {
			const ops = 200_000 // 500 full decks of the quarters (400 cards), 10,000 of 95/5
			p := recordPlan(tt.mix, tt.dist, 1000, 1, ops)
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			l := NewLottery(p, 0, 0)
			counts := map[workload.Op]int{}
			var d Deal
			for range ops {
				if err := l.Deal(&d); err != nil {
					t.Fatal(err)
				}
				counts[d.Op]++
				if d.Claimed {
					if err := l.Release(d.Key); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, w := range p.Phases[0].Mix {
				if want := int(math.Round(ops * w.Percent / 100)); counts[w.Op] != want {
					t.Errorf("%v: dealt %d, want exactly %d", w.Op, counts[w.Op], want)
				}
			}
		})
	}
}

// grayProbabilities returns, by rank k from 0 to K-1, the probability
// that YCSB's ZipfianGenerator (Gray's algorithm) returns base+k: a zipf
// built for items items, zeta zetan, asked for itemcount. Rank 0 takes
// u < 1/zetan, rank 1 the next 0.5^θ/zetan, and the rest of [0, 1) maps
// to floor(itemcount × (eta·u − eta + 1)^α), inverted here interval by
// interval.
func grayProbabilities(items, itemcount int64, zetan, theta float64, K int) []float64 {
	// Gray's constants, as ZipfianGenerator computes them.
	alpha := 1 / (1 - theta)
	eta := (1 - math.Pow(2/float64(items), 1-theta)) / (1 - generator.Zeta(0, 2, theta, 0)/zetan)
	p := make([]float64, K)
	p[0] = 1 / zetan
	if K > 1 {
		p[1] = math.Pow(0.5, theta) / zetan
	}
	u1 := (1 + math.Pow(0.5, theta)) / zetan
	uOf := func(x float64) float64 {
		return (math.Pow(x/float64(itemcount), 1/alpha)-1)/eta + 1
	}
	for k := range K {
		lo, hi := max(uOf(float64(k)), u1), min(uOf(float64(k+1)), 1)
		if hi > lo {
			p[k] += hi - lo
		}
	}
	return p
}

// chiSquare returns the statistic of observed counts against expected
// probabilities over the same categories (which sum to 1), n draws.
func chiSquare(observed []int, expected []float64, n int) float64 {
	var x float64
	for i, o := range observed {
		e := expected[i] * float64(n)
		x += (float64(o) - e) * (float64(o) - e) / e
	}
	return x
}

// chiLimit is a bound no correct generator's statistic reaches with df
// degrees of freedom: the mean plus 8 standard deviations (χ² has mean df
// and variance 2·df); the draws are seeded, and a wrong distribution's
// statistic is larger by orders of magnitude (each test checks that
// too).
func chiLimit(df int) float64 { return float64(df) + 8*math.Sqrt(2*float64(df)) }

// topCategories keeps the k likeliest values of expected, and one
// category for all the others: categories with enough expected draws.
func topCategories(expected map[int64]float64, k int) (keys []int64, probs []float64) {
	for key := range expected {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool { return expected[keys[i]] > expected[keys[j]] })
	keys = keys[:min(k, len(keys))]
	rest := 1.0
	for _, key := range keys {
		probs = append(probs, expected[key])
		rest -= expected[key]
	}
	return keys, append(probs, rest)
}

// categorize counts draws into the categories of keys, the last for
// every other value.
func categorize(draws []int64, keys []int64) []int {
	at := map[int64]int{}
	for i, k := range keys {
		at[k] = i
	}
	obs := make([]int, len(keys)+1)
	for _, d := range draws {
		if i, ok := at[d]; ok {
			obs[i]++
		} else {
			obs[len(keys)]++
		}
	}
	return obs
}

// drawKeys deals n read keynums from p's first worker.
func drawKeys(t *testing.T, p *workload.Plan, n int) []int64 {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	l := NewLottery(p, 0, 0)
	out := make([]int64, n)
	for i := range out {
		_, k := l.Next()
		if err := l.Err(); err != nil {
			t.Fatal(err)
		}
		out[i] = int64(k)
	}
	return out
}

// The zipfian request distribution is YCSB's ScrambledZipfianGenerator
// over insertstart to insertstart+insertcount+expectednewkeys inclusive
// (one more than the records: YCSB's range, whose top keynum is drawn
// again, being above the newest record): the ranks of a zipfian over ten
// billion items, with zeta YCSB's constant, each hashed onto the range.
// Each record's expected frequency sums the probabilities of the ranks
// hashed onto it (ranks below two million computed one by one; the
// remaining ~45% of the mass, spread over ten billion ranks, evenly),
// conditioned on falling on a record. The hottest record takes about 4%:
// a uniform choice gives every record 0.1%.
func TestZipfianFrequencies(t *testing.T) {
	const records, draws, ranks = 1000, 400_000, 2_000_000
	const itemcount = records + 1
	probs := grayProbabilities(generator.ScrambledItems+1, generator.ScrambledItems+1, generator.ScrambledZetan, generator.ScrambledTheta, ranks)
	expected := map[int64]float64{}
	covered := 0.0
	for k, pk := range probs {
		expected[generator.FNVHash64(int64(k))%itemcount] += pk
		covered += pk
	}
	for key := range int64(itemcount) {
		expected[key] += (1 - covered) / itemcount
	}
	above := expected[records] // drawn again
	delete(expected, records)
	for key := range expected {
		expected[key] /= 1 - above
	}
	keys, cats := topCategories(expected, 40)
	if top := cats[0]; top < 0.03 {
		t.Fatalf("the hottest record's expected share is %.4f: the expectation is wrong", top)
	}
	p := recordPlan("read=100", workload.Zipfian, records, 1, draws)
	obs := categorize(drawKeys(t, p, draws), keys)
	x := chiSquare(obs, cats, draws)
	t.Logf("zipfian: χ² %.1f (limit %.1f, df %d); hottest record %d expected %.4f, observed %.4f", x, chiLimit(len(keys)), len(keys), keys[0], cats[0], float64(obs[0])/draws)
	if x > chiLimit(len(keys)) {
		t.Errorf("χ² = %.1f over the %d hottest records and the rest, above %.1f: not YCSB's scrambled zipfian", x, len(keys), chiLimit(len(keys)))
	}
	// The check tells a uniform draw from it.
	p = recordPlan("read=100", workload.Uniform, records, 1, draws)
	if x := chiSquare(categorize(drawKeys(t, p, draws), keys), cats, draws); x < 100*chiLimit(len(keys)) {
		t.Errorf("χ² of a uniform draw = %.1f: the check cannot tell it from zipfian", x)
	}
}

// The latest distribution draws back from the counter's limit by
// YCSB's ZipfianGenerator over the records (SkewedLatestGenerator): the
// newest record takes 1/ζ(n) of the draws. A record handed out by the
// counter but not acknowledged is never drawn; once acknowledged, it is
// the newest.
func TestLatestFrequencies(t *testing.T) {
	const records, draws = 1000, 300_000
	p := recordPlan("read=100", workload.Latest, records, 1, draws)
	items := int64(records - 1)
	zetan := generator.Zeta(0, items, workload.RecordTheta, 0)
	probs := grayProbabilities(items, items, zetan, workload.RecordTheta, records)
	expected := map[int64]float64{}
	for off, pk := range probs {
		expected[items-int64(off)] += pk
	}
	keys, cats := topCategories(expected, 40)
	if keys[0] != records-1 {
		t.Fatalf("the likeliest record is %d, not the newest", keys[0])
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	l := NewLottery(p, 0, 0)
	counter := l.rec.s.counter
	pending := counter.Next() // an insert under way: keynum 1000, not acknowledged
	got := make([]int64, draws)
	for i := range got {
		_, k := l.Next()
		got[i] = int64(k)
		if k >= pending {
			t.Fatalf("draw %d is record %d, whose insert is not acknowledged (limit %d)", i, k, counter.Limit())
		}
	}
	if x := chiSquare(categorize(got, keys), cats, draws); x > chiLimit(len(keys)) {
		t.Errorf("χ² = %.1f over the %d newest records and the rest, above %.1f: not YCSB's latest", x, len(keys), chiLimit(len(keys)))
	}
	// Acknowledged, the pending record is the newest, and the likeliest.
	if err := counter.Ack(pending); err != nil {
		t.Fatal(err)
	}
	hits := 0
	for range 100_000 {
		if _, k := l.Next(); k == pending {
			hits++
		}
	}
	// Its share is 1/ζ(1000) now (the zipfian grows with the limit), within
	// 8 standard deviations.
	want := 100_000 / generator.Zeta(0, records, workload.RecordTheta, 0)
	if sd := math.Sqrt(want); math.Abs(float64(hits)-want) > 8*sd {
		t.Errorf("the newest record, once acknowledged, drawn %d times in 100000, want %.0f", hits, want)
	}
	// The check tells a uniform draw from latest.
	uni := recordPlan("read=100", workload.Uniform, records, 1, draws)
	if x := chiSquare(categorize(drawKeys(t, uni, draws), keys), cats, draws); x < 100*chiLimit(len(keys)) {
		t.Errorf("χ² of a uniform draw = %.1f: the check cannot tell it from latest", x)
	}
}

// The hotspot distribution sends 80% of the draws to the first 20% of the
// records, evenly, and the rest evenly to the others: over ten buckets of
// 100 records, two of them hot (40% each) and eight cold (2.5% each).
func TestHotspotFrequencies(t *testing.T) {
	const records, draws = 1000, 200_000
	p := recordPlan("read=100", workload.Hotspot, records, 1, draws)
	buckets := make([]int, 10)
	for _, k := range drawKeys(t, p, draws) {
		buckets[k/100]++
	}
	want := []float64{0.4, 0.4, 0.025, 0.025, 0.025, 0.025, 0.025, 0.025, 0.025, 0.025}
	if x := chiSquare(buckets, want, draws); x > chiLimit(9) {
		t.Errorf("χ² = %.1f over %v, above %.1f: not 80%% of the draws on 20%% of the records", x, buckets, chiLimit(9))
	}
	uniform := make([]float64, 10)
	for i := range uniform {
		uniform[i] = 0.1
	}
	if x := chiSquare(buckets, uniform, draws); x < 100*chiLimit(9) {
		t.Errorf("the hotspot draws pass for uniform (χ² %.1f): the check cannot tell them apart", x)
	}
}

// A uniform draw gives every record the same share, over the records
// loaded (insertstart on).
func TestUniformFrequencies(t *testing.T) {
	const records, draws = 1000, 200_000
	p := recordPlan("read=100", workload.Uniform, records, 1, draws)
	p.Records.InsertStart, p.Records.InsertCount, p.Preload = 500, 500, 500
	buckets := make([]int, 10)
	for _, k := range drawKeys(t, p, draws) {
		if k < 500 {
			t.Fatalf("drew record %d, below insertstart 500", k)
		}
		buckets[(k-500)/50]++
	}
	want := slices.Repeat([]float64{0.1}, 10)
	if x := chiSquare(buckets, want, draws); x > chiLimit(9) {
		t.Errorf("χ² = %.1f over %v: not uniform", x, buckets)
	}
}

// Scan lengths are uniform from minscanlength to maxscanlength, or
// zipfian from the minimum (YCSB's ZipfianGenerator(min, max), computed
// rank by rank).
func TestScanLengths(t *testing.T) {
	const draws = 200_000
	lengths := func(dist string) []int64 {
		p := recordPlan("scan=100", workload.Uniform, 1000, 1, draws)
		p.Records.ScanLengthDistribution = dist
		p.Records.MaxScanLength = 100
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		l := NewLottery(p, 0, 0)
		out := make([]int64, draws)
		for i := range out {
			l.Next()
			out[i] = int64(l.ScanLen())
			if out[i] < 1 || out[i] > 100 {
				t.Fatalf("scan length %d outside 1 to 100", out[i])
			}
		}
		return out
	}
	uni := lengths(workload.LengthUniform)
	buckets := make([]int, 10)
	for _, n := range uni {
		buckets[(n-1)/10]++
	}
	if x := chiSquare(buckets, slices.Repeat([]float64{0.1}, 10), draws); x > chiLimit(9) {
		t.Errorf("uniform scan lengths: χ² = %.1f over %v", x, buckets)
	}
	probs := grayProbabilities(100, 100, generator.Zeta(0, 100, workload.RecordTheta, 0), workload.RecordTheta, 100)
	expected := map[int64]float64{}
	for k, pk := range probs {
		expected[int64(k)+1] += pk
	}
	keys, cats := topCategories(expected, 30)
	if keys[0] != 1 {
		t.Fatalf("the likeliest zipfian scan length is %d, not the shortest", keys[0])
	}
	if x := chiSquare(categorize(lengths(workload.LengthZipfian), keys), cats, draws); x > chiLimit(len(keys)) {
		t.Errorf("zipfian scan lengths: χ² = %.1f, above %.1f", x, chiLimit(len(keys)))
	}
	if x := chiSquare(categorize(uni, keys), cats, draws); x < 100*chiLimit(len(keys)) {
		t.Errorf("uniform scan lengths pass for zipfian (χ² %.1f)", x)
	}
}

// Same seed, same streams: two dealers of one plan deal the same ops,
// keys, fields, scan lengths and values; a dealer of another worker does
// not.
func TestRecordLotteryDeterministic(t *testing.T) {
	p := recordPlan("read=40,update=20,insert=10,scan=10,read-modify-write=20", workload.Zipfian, 1000, 2, 4000)
	p.Records.ReadAllFields, p.Records.FieldLengthDistribution = false, workload.LengthUniform
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	trace := func(worker int) string {
		var b bytes.Buffer
		l := NewLottery(p, 0, worker)
		var d Deal
		for range 2000 {
			if err := l.Deal(&d); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%v %d %s %d %d %d %q\n", d.Op, d.Key, d.Record, d.ReadField, d.WriteField, d.ScanLen, d.Values)
			if d.Claimed {
				if err := l.Release(d.Key); err != nil {
					t.Fatal(err)
				}
			}
		}
		return b.String()
	}
	a, b := trace(0), trace(0)
	if a != b {
		t.Error("one seed and worker dealt two different sequences")
	}
	if a == trace(1) {
		t.Error("two workers dealt the same sequence")
	}
}

// Values are YCSB's random printable bytes, each field as long as the
// field length distribution says.
func TestRecordValues(t *testing.T) {
	p := recordPlan("update=100", workload.Uniform, 1000, 1, 1000)
	p.Records.WriteAllFields = true
	p.Records.FieldLengthDistribution, p.Records.MinFieldLength = workload.LengthUniform, 10
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	l := NewLottery(p, 0, 0)
	seen := map[int]bool{}
	for range 1000 {
		l.Next()
		_, _, wf, vals := l.Record()
		if wf != -1 || len(vals) != 10 {
			t.Fatalf("an update of every field wrote field %d, %d values", wf, len(vals))
		}
		for _, v := range vals {
			if len(v) < 10 || len(v) > 100 {
				t.Fatalf("a value of %d bytes, outside 10 to 100", len(v))
			}
			seen[len(v)] = true
			for _, c := range v {
				if c < ' ' || c > ' '+95 {
					t.Fatalf("value byte %d is not one of YCSB's characters", c)
				}
			}
		}
	}
	if len(seen) < 80 {
		t.Errorf("only %d distinct field lengths in 10,000 uniform draws from 10 to 100", len(seen))
	}
}

// Under --crash every field a record write writes starts with the
// write's Tag (worker, phase, its number among the worker's writes), so
// that a crash state's fields name the writes behind them; the deal's
// Seq is that number, which the acknowledgement names. Without --crash
// the values stay YCSB's own.
func TestRecordWritesTagged(t *testing.T) {
	for _, crash := range []bool{false, true} {
		p := recordPlan("read=25,update=25,insert=25,read-modify-write=25", workload.Uniform, 100, 2, 400)
		p.Records.WriteAllFields = false
		if crash {
			p.Crash = &workload.Crash{States: 1, Model: store.CrashLose, RecordLimit: 1 << 30}
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		l := NewLottery(p, 0, 1)
		var d Deal
		var writes uint64
		for range 200 {
			if err := l.Deal(&d); err != nil {
				t.Fatal(err)
			}
			if d.Claimed {
				if err := l.Release(d.Key); err != nil {
					t.Fatal(err)
				}
			}
			if !d.Op.IsWrite() {
				continue
			}
			if d.Seq != writes {
				t.Fatalf("%v: seq %d, want %d", d.Op, d.Seq, writes)
			}
			want := 1
			if d.Op == workload.OpInsert {
				want = 10
			}
			if len(d.Values) != want {
				t.Fatalf("%v wrote %d fields, want %d", d.Op, len(d.Values), want)
			}
			for _, v := range d.Values {
				tag, ok := ParseTag(v)
				switch {
				case !crash && ok:
					t.Fatalf("%v tagged a field without --crash: %q", d.Op, v)
				case crash && (!ok || tag != Tag{Worker: 1, Phase: 0, Seq: writes}):
					t.Fatalf("%v's field %q: tag %+v, %v; want worker 1's write %d", d.Op, v, tag, ok, writes)
				}
			}
			writes++
		}
		if writes < 100 {
			t.Fatalf("only %d writes in 200 ops", writes)
		}
	}
}
