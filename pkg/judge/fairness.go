package judge

import (
	"math"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// JainIndex is Jain's fairness index of shares xs: (Σx)² / (n·Σx²), 1
// when every share is equal, 1/n when one holds everything (R. Jain, D.
// Chiu, W. Hawe, "A Quantitative Measure of Fairness and Discrimination
// for Resource Allocation in Shared Computer Systems", DEC-TR-301, 1984).
// It is NaN for no shares, and 1 for shares that are all zero.
func JainIndex(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 1
	}
	return sum * sum / (float64(len(xs)) * sq)
}

// Fairness is how evenly a phase served its workers.
type Fairness struct {
	// Workers is how many workers finished having run a data op; Index
	// is Jain's index over their acknowledged ops per second (each over
	// its own time), and WriteIndex over their acknowledged writes per
	// second (NaN without writes). Idle counts the finished workers left
	// out, which ran none: a replay's worker with no connection, or a
	// captured connection that ran no statement, asked for nothing, and
	// is neither the worst served nor the longest without a completion.
	Workers           int
	Idle              int
	Index, WriteIndex float64
	// Worst is the worker served least: the lowest rate of acknowledged
	// ops. Its rate, the p99 and max of its own ops, its longest stretch
	// without a completion.
	Worst          result.Worker
	MaxGapMicros   float64 // the longest stretch any worker completed nothing
	GapWorker      int     // the worker that had it
	OthersCommits  float64 // writes the other workers acknowledged while Worst's slowest op waited (from the per-second timeline)
	HasGaps        bool    // the result keeps the workers' gaps (results written before do not)
	HasOwnLatency  bool    // the result keeps each worker's own latencies
	OthersMeasured bool    // OthersCommits could be read
}

// FairnessOf returns how evenly phase ph served its workers that ran a
// data op; ok is false with fewer than two of them finished.
func FairnessOf(ph *result.Phase) (f Fairness, ok bool) {
	var rates, writes []float64
	f.Worst.OpsPerSec = math.Inf(1)
	anyWrites := false
	for _, w := range ph.Workers {
		if !w.Finished {
			continue
		}
		if w.Ops == 0 {
			f.Idle++
			continue
		}
		f.Workers++
		rates = append(rates, w.OpsPerSec)
		wr := 0.0
		if w.Seconds > 0 {
			wr = float64(w.AckedWrites) / w.Seconds
		}
		anyWrites = anyWrites || w.AckedWrites > 0
		writes = append(writes, wr)
		if w.OpsPerSec < f.Worst.OpsPerSec {
			f.Worst = w
		}
		if w.MaxGapMicros > f.MaxGapMicros {
			f.MaxGapMicros, f.GapWorker = w.MaxGapMicros, w.ID
		}
		f.HasGaps = f.HasGaps || w.MaxGapMicros > 0
		f.HasOwnLatency = f.HasOwnLatency || w.MaxMicros > 0
	}
	if f.Workers < 2 {
		return Fairness{Idle: f.Idle}, false
	}
	f.Index, f.WriteIndex = JainIndex(rates), math.NaN()
	if anyWrites {
		f.WriteIndex = JainIndex(writes)
	}
	if f.HasOwnLatency && f.Worst.MaxMicros > 0 {
		f.OthersCommits, f.OthersMeasured = othersCommits(ph, f.Worst)
	}
	return f, true
}

// othersCommits estimates the writes the other workers acknowledged while
// worker w's slowest op ran: the acknowledged writes of the timeline's
// seconds over that op's span, each second's count taken in proportion to
// its overlap (w completes nothing while its op runs).
func othersCommits(ph *result.Phase, w result.Worker) (float64, bool) {
	start, end := w.SlowestStartMicros/1e6, (w.SlowestStartMicros+w.MaxMicros)/1e6
	if len(ph.Timeline) == 0 || end <= start {
		return 0, false
	}
	var n float64
	for _, s := range ph.Timeline {
		lo, hi := float64(s.Second), float64(s.Second)+s.Span()
		overlap := min(hi, end) - max(lo, start)
		if overlap <= 0 {
			continue
		}
		var wr int64
		for _, o := range s.Ops {
			if op, err := workload.ParseOp(o.Kind); err == nil && op.IsWrite() {
				wr += o.Count - o.Errors
			}
		}
		n += float64(wr) * overlap / s.Span()
	}
	return n, true
}
