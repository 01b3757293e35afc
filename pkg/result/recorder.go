package result

import (
	"fmt"
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Recorder takes one worker's samples for one phase: it counts them and
// passes them on, a buffer at a time, to the phase's latency histograms,
// outcome counts and timeline, which every worker's samples go to (one
// lock per buffer, never per sample: a few sets of histograms per op kind,
// one per processor, and one per open second of the timeline, stay in the
// processor's caches, where a set per worker would not). When the worker moves on to a later
// second, its buffer goes first, so that the timeline can close the
// seconds every worker has left. It implements workload.Sink.
type Recorder struct {
	ps     *phaseState
	worker int
	phase  int
	ledger WriteLedger
	writes uint64 // write ops seen: the next write's sequence number

	// inBatch is set from a BEGIN that succeeded until its COMMIT (or
	// the next BEGIN); held are the ledger records of the batch's writes,
	// which its COMMIT acknowledges, waiting for it (see holdWrite).
	inBatch bool
	held    []workload.WriteRecord

	// pending are samples not yet in the phase's histograms and
	// timeline, and the second each completed in (-1: never run).
	pending  []workload.Sample
	secs     []int64
	sec      int64 // the latest second the worker completed an op in
	ops      int64 // data ops run, and those that failed
	errors   int64
	samples  int64
	first    time.Duration // start offset of the first op run
	started  bool          // an op has run
	end      time.Duration
	finished bool
	reported int64

	// The worker's own latencies and gaps (see Worker): its data ops'
	// histogram (made at its first), its slowest op, its last
	// completion, the longest it completed nothing, its acknowledged
	// writes.
	lat     *hdr.Histogram
	slowest time.Duration
	slowAt  time.Duration
	lastEnd time.Duration
	maxGap  time.Duration
	ackedWr int64
}

// pendingSamples is how many samples a Recorder holds before it adds them
// to the phase's histograms and timeline.
const pendingSamples = 256

var _ workload.Sink = (*Recorder)(nil)

// Record adds one sample.
func (r *Recorder) Record(s workload.Sample) error {
	if !s.Op.Valid() || int(s.Class) >= store.NumClasses {
		return fmt.Errorf("worker %d: invalid sample op %d class %d", r.worker, s.Op, s.Class)
	}
	r.samples++
	if s.Flags&workload.FlagSkipped != 0 {
		r.hold(s, -1) // counted, never run: no latency, no completion
		return nil
	}
	end := s.Start + s.Latency
	if r.ps.isData(s.Op) {
		r.ops++
		if s.Class.IsError() {
			r.errors++
		} else if s.Op.IsWrite() {
			r.ackedWr++
		}
		r.own(s, end)
	}
	if !r.started || s.Start < r.first {
		r.first, r.started = s.Start, true
	}
	r.end = max(r.end, end)
	switch {
	case s.Op.IsWrite():
		if r.ledger != nil {
			r.holdWrite(workload.WriteRecord{Worker: r.worker, Phase: r.phase, Seq: r.writes, Start: s.Start, End: end, Acked: s.Class == store.OK})
		}
		r.writes++
	case s.Op == workload.OpBegin:
		r.releaseWrites(0) // a batch that failed before its COMMIT: its writes were never acknowledged
		r.inBatch = !s.Class.IsError()
	case s.Op == workload.OpCommit:
		r.releaseWrites(end)
		r.inBatch = false
	}
	// Completions of one closed-loop worker arrive in order; a sample from
	// an earlier second still counts (see timeline.add).
	sec := int64(end / time.Second)
	if sec > r.sec {
		r.flush()
		r.ps.tl.moveOn(r.worker, sec, r.end)
		r.sec = sec
	}
	r.hold(s, sec)
	return nil
}

// holdWrite logs one write in the ledger, or, inside a batch, holds it
// for the batch's COMMIT. A batch's ops are recorded once its COMMIT has
// decided their outcome, but each with its own start and latency, ending
// long before the COMMIT returned; it is the COMMIT that acknowledges
// them. Logged with their own ends, a write that another worker's batch
// overwrote, committing after, looked lost to a write that began after it
// ended and committed before (Verify's rule: no acknowledged write to the
// key began after the surviving one ended). A worker process that dies
// between its batch's ops and its COMMIT's sample leaves them out of the
// ledger: they are its last writes, which VerifyDied counts in doubt.
func (r *Recorder) holdWrite(w workload.WriteRecord) {
	if !r.inBatch {
		r.ledger.Add(w)
		return
	}
	r.held = append(r.held, w)
}

// releaseWrites logs the held writes of the batch that just ended, each
// ending no earlier than commitEnd (the COMMIT's end, or 0 for a batch
// that ended without one).
func (r *Recorder) releaseWrites(commitEnd time.Duration) {
	for _, w := range r.held {
		w.End = max(w.End, commitEnd)
		r.ledger.Add(w)
	}
	r.held = r.held[:0]
}

// own notes a data op in the worker's own figures: its latency, and the
// gap since the worker's previous completion (from START for the first;
// completions of one worker arrive in order, but for a batch's, whose ops
// end together).
func (r *Recorder) own(s workload.Sample, end time.Duration) {
	if r.lat == nil {
		r.lat = newWorkerHistogram()
	}
	_ = r.lat.RecordValue(min(max(int64(s.Latency), HistogramMin), HistogramMax))
	if s.Latency > r.slowest {
		r.slowest, r.slowAt = s.Latency, s.Start
	}
	if end > r.lastEnd {
		r.maxGap = max(r.maxGap, end-r.lastEnd)
		r.lastEnd = end
	}
}

// hold keeps a sample for the next flush, flushing when the buffer is full.
func (r *Recorder) hold(s workload.Sample, sec int64) {
	if r.pending == nil {
		r.pending, r.secs = make([]workload.Sample, 0, pendingSamples), make([]int64, 0, pendingSamples)
	}
	r.pending, r.secs = append(r.pending, s), append(r.secs, sec)
	if len(r.pending) == cap(r.pending) {
		r.flush()
	}
}

// flush adds the pending samples to the phase's histograms, counts and
// timeline.
func (r *Recorder) flush() {
	if len(r.pending) == 0 {
		return
	}
	r.ps.add(r.worker, r.pending)
	r.ps.tl.add(r.pending, r.secs)
	r.pending, r.secs = r.pending[:0], r.secs[:0]
}

// Done ends the worker's phase. It fails when the worker's own count of
// samples differs from the number recorded: a sample went missing.
func (r *Recorder) Done(st workload.WorkerStats) error {
	r.flush()
	r.releaseWrites(0) // a batch left without its COMMIT acknowledged nothing
	r.ps.tl.moveOn(r.worker, math.MaxInt64, r.end)
	r.finished = true
	r.reported = st.Samples
	if st.Samples != r.samples {
		return fmt.Errorf("worker %d sent %d samples but %d arrived", r.worker, st.Samples, r.samples)
	}
	return nil
}

// ownFigures sets the worker's own latencies and its longest gap so far
// (build adds the one to the phase's end).
func (r *Recorder) ownFigures(w *Worker) {
	w.AckedWrites = r.ackedWr
	if r.lat == nil {
		return
	}
	w.P99Micros = micros(percentile.Value(r.lat, 99))
	w.MaxMicros = micros(int64(r.slowest))
	w.SlowestStartMicros = micros(int64(r.slowAt))
	w.MaxGapMicros = micros(int64(r.maxGap))
}
