package result

import (
	"fmt"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Latency summarises one latency distribution: percentiles in
// microseconds and the full histogram in nanoseconds (HdrHistogram V2
// compressed, base64).
type Latency struct {
	Count      int64   `json:"count"`
	MeanMicros float64 `json:"mean_us"`
	P50Micros  float64 `json:"p50_us"`
	P90Micros  float64 `json:"p90_us"`
	P99Micros  float64 `json:"p99_us"`
	P999Micros float64 `json:"p999_us"`
	MaxMicros  float64 `json:"max_us"`
	Histogram  string  `json:"histogram"`
}

// LockWaits is what the retry busy policy met: how often ops found the
// database busy or locked, and how long they waited for it.
type LockWaits struct {
	// Retries counts the attempts made again after a busy or locked
	// failure; OpsRetried the ops that needed at least one; GaveUp the ops
	// that failed busy or locked (counted as errors): under the retry
	// policy every one of them, retried until its budget ran out or not
	// retried at all (its first attempt spent the budget, or it failed
	// inside a batch, where a busy statement cannot be retried); under the
	// timeout policy, those the engine's busy handler waited for.
	Retries    int64 `json:"retries"`
	OpsRetried int64 `json:"ops_retried"`
	GaveUp     int64 `json:"gave_up"`
	// Wait is the time from each retried op's first attempt to its final
	// one, over the ops that retried.
	Wait Latency `json:"wait"`
}

// opAgg accumulates one op kind's measurement: the latency histogram and
// the outcomes, and where the plan asks for them, the open-loop views
// (service time from the actual start, schedule lag, late and skipped
// ops) and the lock waits of the retry policy.
type opAgg struct {
	lat    *hdr.Histogram
	counts [store.NumClasses]int64

	service, lag *hdr.Histogram // open loop only
	late         int64
	skipped      int64

	wait       *hdr.Histogram // retry policy only
	retry      bool           // the retry policy ran: every busy op gave up
	retries    int64
	opsRetried int64
	gaveUp     int64

	busyBegins, busyCommits int64 // ops whose BEGIN or COMMIT found the database busy

	// A replayed trace's statements: those that did something else than
	// when captured, those that failed where the capture's did not (new)
	// and succeeded where the capture's failed (lost), and the commits.
	diverged, newErrors, lostErrors, commits, uncompared int64
}

func newOpAgg(openLoop, retry bool) *opAgg {
	a := &opAgg{lat: newHistogram()}
	if openLoop {
		a.service, a.lag = newHistogram(), newHistogram()
	}
	if retry {
		a.wait, a.retry = newHistogram(), true
	}
	return a
}

// clamp bounds a duration to the histograms' range, reporting whether it
// had to.
func clamp(d int64) (int64, bool) {
	if d > HistogramMax {
		return HistogramMax, true
	}
	return max(d, 0), false
}

// record adds one sample; it returns how many values it clamped.
func (a *opAgg) record(s *workload.Sample) (clamped int64) {
	rec := func(h *hdr.Histogram, d int64) {
		v, c := clamp(d)
		if c {
			clamped++
		}
		_ = h.RecordValue(v) // in range by construction
	}
	if s.Flags&workload.FlagLate != 0 {
		a.late++
	}
	if s.Flags&workload.FlagSkipped != 0 {
		a.skipped++ // not run: no latency, no outcome
		return clamped
	}
	if s.Flags&workload.FlagBusyBegin != 0 {
		a.busyBegins++
	}
	if s.Flags&workload.FlagBusyCommit != 0 {
		a.busyCommits++
	}
	if s.Flags != 0 || s.Class.IsError() { // else replayed counts nothing: the mix's samples skip it
		a.replayed(s)
	}
	rec(a.lat, int64(s.Latency))
	a.counts[s.Class]++
	if a.service != nil {
		rec(a.service, int64(s.Latency-s.Lag))
		rec(a.lag, int64(s.Lag))
	}
	if s.Retries > 0 && a.wait == nil {
		a.wait = newHistogram() // an engine that counts its own busy handler
	}
	if a.wait != nil && s.Retries > 0 {
		a.retries += int64(s.Retries)
		a.opsRetried++
		rec(a.wait, int64(s.Wait))
	}
	if busy := s.Class == store.Busy || s.Class == store.Locked; busy && (a.retry || (a.wait != nil && s.Retries > 0)) {
		a.gaveUp++
	}
	return clamped
}

// replayed counts what a replayed statement's flags say.
func (a *opAgg) replayed(s *workload.Sample) {
	if s.Flags&workload.FlagDiverged != 0 {
		a.diverged++
	}
	captureFailed := s.Flags&workload.FlagCaptureError != 0
	switch {
	case s.Class.IsError() && !captureFailed:
		a.newErrors++
	case !s.Class.IsError() && captureFailed:
		a.lostErrors++
	}
	if s.Flags&workload.FlagCommitted != 0 {
		a.commits++
	}
	if s.Flags&workload.FlagUncertain != 0 {
		a.uncompared++
	}
}

// merge adds b's measurement to a's.
func (a *opAgg) merge(b *opAgg) {
	a.lat.Merge(b.lat)
	for i, n := range b.counts {
		a.counts[i] += n
	}
	a.late += b.late
	a.skipped += b.skipped
	a.retries += b.retries
	a.opsRetried += b.opsRetried
	a.gaveUp += b.gaveUp
	a.busyBegins += b.busyBegins
	a.busyCommits += b.busyCommits
	a.diverged += b.diverged
	a.newErrors += b.newErrors
	a.lostErrors += b.lostErrors
	a.commits += b.commits
	a.uncompared += b.uncompared
	for _, p := range []struct{ dst, src **hdr.Histogram }{{&a.service, &b.service}, {&a.lag, &b.lag}, {&a.wait, &b.wait}} {
		if *p.src == nil {
			continue
		}
		if *p.dst == nil {
			*p.dst = newHistogram()
		}
		(*p.dst).Merge(*p.src)
	}
}

// stats reports the measurement as OpStats; wall is the phase's wall time
// in seconds.
func (a *opAgg) stats(kind string, wall float64) OpStats {
	o := OpStats{Kind: kind, Latency: latencyOf(a.lat), NotFound: a.counts[store.NotFound], Late: a.late, Skipped: a.skipped,
		BusyBegins: a.busyBegins, BusyCommits: a.busyCommits,
		Diverged: a.diverged, NewErrors: a.newErrors, LostErrors: a.lostErrors, Commits: a.commits, Uncompared: a.uncompared}
	for c, n := range a.counts {
		o.Errors.add(store.Class(c), n)
	}
	if wall > 0 {
		o.OpsPerSec = float64(o.Count-o.Errors.Total) / wall
	}
	if a.service != nil {
		s, g := latencyOf(a.service), latencyOf(a.lag)
		o.Service, o.Lag = &s, &g
	}
	if a.wait != nil {
		o.LockWaits = &LockWaits{Retries: a.retries, OpsRetried: a.opsRetried, GaveUp: a.gaveUp, Wait: latencyOf(a.wait)}
	}
	return o
}

// latencyOf summarises a histogram.
func latencyOf(h *hdr.Histogram) Latency {
	l := Latency{Count: h.TotalCount()}
	if l.Count > 0 {
		l.MeanMicros = h.Mean() / 1e3
		l.P50Micros = micros(percentile.Value(h, 50))
		l.P90Micros = micros(percentile.Value(h, 90))
		l.P99Micros = micros(percentile.Value(h, 99))
		l.P999Micros = micros(percentile.Value(h, 99.9))
		l.MaxMicros = micros(h.Max())
	}
	enc, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		panic(fmt.Sprintf("result: encoding a histogram: %v", err)) // writes to memory only
	}
	l.Histogram = string(enc)
	return l
}

// Percentile returns the p-th percentile (0 < p < 100) of the latencies,
// in µs, read from the histogram by the nearest-rank rule as the stored
// percentiles are (pkg/percentile): any percentile, p99.99 as well as
// p99. False when there were none, or the summary keeps no histogram
// that decodes.
func (l Latency) Percentile(p float64) (float64, bool) {
	if l.Count == 0 || l.Histogram == "" || !(p > 0 && p < 100) {
		return 0, false
	}
	h, err := decodeLatency("latency", l)
	if err != nil {
		return 0, false
	}
	return micros(percentile.Value(h, p)), true
}

// decodeLatency decodes a Latency's histogram, checking its geometry and
// its count.
func decodeLatency(what string, l Latency) (*hdr.Histogram, error) {
	if err := checkGeometry(l.Histogram); err != nil {
		return nil, fmt.Errorf("decoding the %s histogram: %w", what, err)
	}
	h, err := hdr.Decode([]byte(l.Histogram))
	if err != nil {
		return nil, fmt.Errorf("decoding the %s histogram: %w", what, err)
	}
	if h.TotalCount() != l.Count {
		return nil, fmt.Errorf("the %s histogram holds %d samples but its count is %d", what, h.TotalCount(), l.Count)
	}
	return h, nil
}

// aggOf recovers the measurement of a result's op kind, for merging.
func aggOf(o OpStats) (*opAgg, error) {
	lat, err := o.DecodeHistogram()
	if err != nil {
		return nil, err
	}
	a := &opAgg{lat: lat, counts: classCounts(o), late: o.Late, skipped: o.Skipped, busyBegins: o.BusyBegins, busyCommits: o.BusyCommits,
		diverged: o.Diverged, newErrors: o.NewErrors, lostErrors: o.LostErrors, commits: o.Commits, uncompared: o.Uncompared}
	if o.Service != nil && o.Lag != nil {
		if a.service, err = decodeLatency(o.Kind+" service-time", *o.Service); err != nil {
			return nil, err
		}
		if a.lag, err = decodeLatency(o.Kind+" schedule-lag", *o.Lag); err != nil {
			return nil, err
		}
	}
	if w := o.LockWaits; w != nil {
		if a.wait, err = decodeLatency(o.Kind+" lock-wait", w.Wait); err != nil {
			return nil, err
		}
		a.retries, a.opsRetried, a.gaveUp = w.Retries, w.OpsRetried, w.GaveUp
	}
	return a, nil
}
