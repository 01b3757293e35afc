package result

import (
	"fmt"
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Recorder takes one worker's samples for one phase: it counts them, keeps
// the current second of the timeline (handed to the shared timeline when
// the worker moves on to the next second), and passes them on, a buffer
// at a time, to the phase's latency histograms and outcome counts, which
// every worker's samples go to (one lock per buffer, never per sample:
// one set of histograms per op kind stays in the processor's caches,
// where a set per worker would not). It implements workload.Sink.
type Recorder struct {
	ps     *phaseState
	worker int
	phase  int
	ledger WriteLedger
	writes uint64 // write ops seen: the next write's sequence number

	pending  []workload.Sample // samples not yet in the phase's histograms
	ops      int64             // data ops run, and those that failed
	errors   int64
	samples  int64
	first    time.Duration // start offset of the first op run
	started  bool          // an op has run
	end      time.Duration
	finished bool
	reported int64

	sec    int64
	cur    [workload.MaxOp]*hdr.Histogram
	curCnt [workload.MaxOp][3]int64 // ops, errors, busy retries
	curAny bool
}

// pendingSamples is how many samples a Recorder holds before it adds them
// to the phase's histograms.
const pendingSamples = 256

var _ workload.Sink = (*Recorder)(nil)

// Record adds one sample.
func (r *Recorder) Record(s workload.Sample) error {
	if !s.Op.Valid() || int(s.Class) >= store.NumClasses {
		return fmt.Errorf("worker %d: invalid sample op %d class %d", r.worker, s.Op, s.Class)
	}
	if r.pending == nil {
		r.pending = make([]workload.Sample, 0, pendingSamples)
	}
	r.pending = append(r.pending, s)
	if len(r.pending) == cap(r.pending) {
		r.flush()
	}
	r.samples++
	if s.Flags&workload.FlagSkipped != 0 {
		return nil // counted, never run: no latency, no completion
	}
	if s.Op.IsData() {
		r.ops++
		if s.Class.IsError() {
			r.errors++
		}
	}
	lat, _ := clamp(int64(s.Latency))
	if !r.started || s.Start < r.first {
		r.first, r.started = s.Start, true
	}
	end := s.Start + s.Latency
	r.end = max(r.end, end)
	if s.Op.IsWrite() {
		if r.ledger != nil {
			r.ledger.Add(workload.WriteRecord{Worker: r.worker, Phase: r.phase, Seq: r.writes, Start: s.Start, End: end, Acked: s.Class == store.OK})
		}
		r.writes++
	}

	sec := int64(end / time.Second)
	isErr := int64(0)
	if s.Class.IsError() {
		isErr = 1
	}
	switch {
	case sec < r.sec:
		// Completions of one closed-loop worker arrive in order; a sample
		// from an earlier second still counts, straight into the timeline.
		r.ps.tl.late(sec, s.Op, lat, isErr, int64(s.Retries))
		return nil
	case sec > r.sec:
		r.handOff(sec)
		r.sec = sec
	}
	c := r.cur[s.Op]
	if c == nil {
		c = newTimelineHistogram()
		r.cur[s.Op] = c
	}
	_ = c.RecordValue(lat)
	r.curCnt[s.Op][0]++
	r.curCnt[s.Op][1] += isErr
	r.curCnt[s.Op][2] += int64(s.Retries)
	r.curAny = true
	return nil
}

// flush adds the pending samples to the phase's histograms and counts.
func (r *Recorder) flush() {
	if len(r.pending) == 0 {
		return
	}
	r.ps.add(r.pending)
	r.pending = r.pending[:0]
}

// handOff gives the current second to the shared timeline; the worker's
// later samples all complete in second next or after.
func (r *Recorder) handOff(next int64) {
	r.ps.tl.handOff(r.worker, r.sec, &r.cur, &r.curCnt, r.curAny, next, r.end)
	for op := range r.cur {
		if r.cur[op] != nil {
			r.cur[op].Reset()
		}
		r.curCnt[op] = [3]int64{}
	}
	r.curAny = false
}

// Done ends the worker's phase. It fails when the worker's own count of
// samples differs from the number recorded: a sample went missing.
func (r *Recorder) Done(st workload.WorkerStats) error {
	r.flush()
	r.handOff(math.MaxInt64)
	r.finished = true
	r.reported = st.Samples
	if st.Samples != r.samples {
		return fmt.Errorf("worker %d sent %d samples but %d arrived", r.worker, st.Samples, r.samples)
	}
	return nil
}
