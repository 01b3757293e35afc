package result

import (
	"math"
	"slices"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/workload"
)

// timeline collects the per-second activity of all workers of a phase.
// Seconds stay open, as mergeable histograms, until every worker has moved
// past them (its watermark); then each is reduced to a summary.
type timeline struct {
	phase     int
	observe   func(Interval) // may be nil
	mu        sync.Mutex
	open      map[int64]*openSecond
	watermark []int64 // per worker: every second below it is handed in
	maxSec    int64
	next      int64 // every second below next is final
	final     []Second
	// end is the latest completion handed in: once every worker is done,
	// the phase's end, which makes its last second partial.
	end time.Duration
	// start is the wall-clock instant of the phase's START, for observers.
	start time.Time
	// flushing is set once the run is over: the last second is final.
	flushing bool
	// names are the ops' names in the result (see workload.Plan.OpNames).
	names *[workload.MaxOp]string
}

type openSecond struct {
	hists [workload.MaxOp]*hdr.Histogram
	cnt   [workload.MaxOp][3]int64 // ops, errors, busy retries
}

func (t *timeline) init(workers int) {
	t.open = map[int64]*openSecond{}
	t.watermark = make([]int64, workers)
	t.maxSec = -1
}

func (t *timeline) second(sec int64) *openSecond {
	s := t.open[sec]
	if s == nil {
		s = &openSecond{}
		t.open[sec] = s
	}
	t.maxSec = max(t.maxSec, sec)
	return s
}

// add records samples, from any worker, each in the second it completed
// in (secs[i], negative for a sample that was never run): in that second's
// histograms while it is open, in its counts alone once it was summarised
// (percentiles stay as they were).
func (t *timeline) add(samples []workload.Sample, secs []int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range samples {
		sec := secs[i]
		if sec < 0 {
			continue
		}
		s := &samples[i]
		isErr, retries := int64(0), int64(s.Retries)
		if s.Class.IsError() {
			isErr = 1
		}
		if sec < t.next {
			t.lateCount(sec, s.Op, isErr, retries)
			continue
		}
		o := t.second(sec)
		h := o.hists[s.Op]
		if h == nil {
			h = newTimelineHistogram()
			o.hists[s.Op] = h
		}
		lat, _ := clamp(int64(s.Latency))
		_ = h.RecordValue(lat)
		o.cnt[s.Op][0]++
		o.cnt[s.Op][1] += isErr
		o.cnt[s.Op][2] += retries
	}
}

// lateCount counts a sample of a second already summarised.
func (t *timeline) lateCount(sec int64, op workload.Op, isErr, retries int64) {
	e := &t.final[sec]
	for i := range e.Ops {
		if e.Ops[i].Kind == t.names[op] {
			e.Ops[i].Count++
			e.Ops[i].Errors += isErr
			e.Ops[i].Retries += retries
			return
		}
	}
	e.Ops = append(e.Ops, SecondOps{Kind: t.names[op], Count: 1, Errors: isErr, Retries: retries})
}

// moveOn notes that worker's samples from now on all complete in second
// next or after (every earlier one was added), and that its latest
// completion is end; seconds every worker has moved past are summarised.
func (t *timeline) moveOn(worker int, next int64, end time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.end = max(t.end, end)
	t.watermark[worker] = max(t.watermark[worker], next)
	t.advance()
}

// advance summarises every second that all workers have moved past.
func (t *timeline) advance() {
	low := slices.Min(t.watermark)
	for t.next < low && t.next <= t.maxSec {
		t.summarise(t.next)
	}
}

func (t *timeline) summarise(sec int64) {
	e := Second{Second: sec, Ops: []SecondOps{}}
	if sec == t.maxSec && (t.flushing || slices.Min(t.watermark) == math.MaxInt64) {
		e.Length = partialLength(sec, t.end) // the phase's last second
	}
	var iv Interval
	if t.observe != nil {
		iv = Interval{Phase: t.phase, Start: t.start, Histograms: map[string]*hdr.Histogram{}}
	}
	if s := t.open[sec]; s != nil {
		for op, h := range s.hists {
			if h == nil || s.cnt[op][0] == 0 {
				continue
			}
			e.Ops = append(e.Ops, SecondOps{
				Kind:      t.names[op],
				Count:     s.cnt[op][0],
				Errors:    s.cnt[op][1],
				Retries:   s.cnt[op][2],
				P50Micros: micros(percentile.Value(h, 50)),
				P99Micros: micros(percentile.Value(h, 99)),
				MaxMicros: micros(h.Max()),
			})
			if iv.Histograms != nil {
				iv.Histograms[t.names[op]] = h // the open second is dropped below: hand it over
			}
		}
		delete(t.open, sec)
	}
	t.final = append(t.final, e)
	t.next = sec + 1
	if t.observe != nil {
		iv.Second = e
		t.observe(iv)
	}
}

// flush summarises every remaining second and returns the timeline.
func (t *timeline) flush() []Second {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushing = true
	for t.next <= t.maxSec {
		t.summarise(t.next)
	}
	return slices.Clone(t.final)
}
