package result

import (
	"slices"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
)

// Window accumulates finished seconds of a phase's timeline, as Observe
// hands them out: ops and merged latency histograms per op kind, and the
// time they cover. A progress display keeps one per stretch it reports.
// Its memory is bounded by the number of op kinds.
type Window struct {
	ops     map[string]int64
	hists   map[string]*hdr.Histogram
	seconds float64
}

// NewWindow returns an empty window.
func NewWindow() *Window {
	return &Window{ops: map[string]int64{}, hists: map[string]*hdr.Histogram{}}
}

// Add adds one second of the timeline.
func (w *Window) Add(iv Interval) {
	for _, o := range iv.Second.Ops {
		w.ops[o.Kind] += o.Count
		if h := iv.Histograms[o.Kind]; h != nil {
			if w.hists[o.Kind] == nil {
				w.hists[o.Kind] = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
			}
			w.hists[o.Kind].Merge(h)
		}
	}
	w.seconds += iv.Second.Span()
}

// Seconds is the time the window covers: its seconds' spans, a partial
// last second counting for its share.
func (w *Window) Seconds() float64 { return w.seconds }

// Kinds lists the op kinds seen, sorted.
func (w *Window) Kinds() []string {
	kinds := make([]string, 0, len(w.ops))
	for k := range w.ops {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// Rate is kind's ops per second over the window; 0 for an empty window.
func (w *Window) Rate(kind string) float64 {
	if w.seconds <= 0 {
		return 0
	}
	return float64(w.ops[kind]) / w.seconds
}

// Percentile is kind's latency at percentile q (nearest rank), and false
// when no latency of kind was recorded.
func (w *Window) Percentile(kind string, q float64) (time.Duration, bool) {
	h := w.hists[kind]
	if h == nil || h.TotalCount() == 0 {
		return 0, false
	}
	return time.Duration(percentile.Value(h, q)), true
}
