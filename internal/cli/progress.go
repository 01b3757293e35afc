package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// watcher consumes the finished seconds of a run: it prints progress
// lines (every `every` seconds of run time) and writes the HdrHistogram
// interval log. It runs on its own goroutine; the run hands it intervals
// through a channel, so neither slows the workers.
type watcher struct {
	out   io.Writer
	tty   bool
	every int64 // seconds between progress lines; 0: none
	label string
	plan  *workload.Plan
	hlog  *hdr.HistogramLogWriter
	base  int64 // the hlog's base time, ms since the epoch

	ch   chan result.Interval
	done chan struct{}
	err  error

	// accumulated for the progress line
	phase      int
	phaseStart int64 // second offset of the current phase in the hlog
	lastSecond int64
	opsDone    int64 // data ops finished in the current phase
	errors     int64
	window     map[string]*hdr.Histogram
	windowOps  map[string]int64
	windowSecs int64
	printed    bool
}

// newWatcher starts a watcher; every is the progress interval (0: none),
// hlog the interval log's destination (nil: none).
func newWatcher(out io.Writer, tty bool, every time.Duration, label string, plan *workload.Plan, hlog io.Writer, started time.Time) *watcher {
	w := &watcher{
		out: out, tty: tty, label: label, plan: plan,
		every: int64(every / time.Second),
		ch:    make(chan result.Interval, 1024),
		done:  make(chan struct{}),
	}
	if every > 0 && w.every == 0 {
		w.every = 1
	}
	if hlog != nil {
		w.hlog = hdr.NewHistogramLogWriter(hlog)
		w.base = started.UnixMilli()
		w.err = w.hlogHeader()
	}
	w.reset()
	go w.run()
	return w
}

func (w *watcher) hlogHeader() error {
	if err := w.hlog.OutputLogFormatVersion(); err != nil {
		return err
	}
	if err := w.hlog.OutputComment("gobench interval histograms: one per second and op kind (tag), latency in nanoseconds, 2 significant digits"); err != nil {
		return err
	}
	if err := w.hlog.OutputStartTime(w.base); err != nil {
		return err
	}
	w.hlog.SetBaseTime(w.base)
	if err := w.hlog.OutputBaseTime(w.base); err != nil {
		return err
	}
	return w.hlog.OutputLegend()
}

// observe is the run's hook: it hands the interval to the watcher.
func (w *watcher) observe(iv result.Interval) { w.ch <- iv }

// close waits for every interval to be handled and ends the progress line.
func (w *watcher) close() error {
	close(w.ch)
	<-w.done
	if w.printed && w.tty {
		fmt.Fprintln(w.out)
	}
	return w.err
}

func (w *watcher) reset() {
	w.window = map[string]*hdr.Histogram{}
	w.windowOps = map[string]int64{}
	w.windowSecs = 0
}

func (w *watcher) run() {
	defer close(w.done)
	for iv := range w.ch {
		if iv.Phase != w.phase {
			w.phaseStart += w.lastSecond + 1
			w.phase, w.opsDone, w.lastSecond = iv.Phase, 0, 0
		}
		w.lastSecond = iv.Second.Second
		if w.hlog != nil && w.err == nil && !w.plan.IsWarmup(iv.Phase) { // the warm-up is not measured
			w.err = w.logInterval(iv)
		}
		for _, o := range iv.Second.Ops {
			if op, err := workload.ParseOp(o.Kind); err == nil && op.IsData() {
				w.opsDone += o.Count
			}
			w.errors += o.Errors
			w.windowOps[o.Kind] += o.Count
			if h := iv.Histograms[o.Kind]; h != nil {
				if w.window[o.Kind] == nil {
					w.window[o.Kind] = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
				}
				w.window[o.Kind].Merge(h)
			}
		}
		w.windowSecs++
		if w.every > 0 && w.windowSecs >= w.every {
			w.print()
			w.reset()
		}
	}
}

// logInterval writes one interval histogram per op kind, tagged by kind
// (and phase, when there are several), timed from the run's start.
func (w *watcher) logInterval(iv result.Interval) error {
	kinds := make([]string, 0, len(iv.Histograms))
	for k := range iv.Histograms {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	start := w.base + (w.phaseStart+iv.Second.Second)*1000
	for _, k := range kinds {
		h := iv.Histograms[k]
		h.SetStartTimeMs(start)
		h.SetEndTimeMs(start + 1000)
		tag := k
		if len(w.plan.Phases) > 1 {
			tag = strings.ReplaceAll(w.plan.RunPhases()[iv.Phase].Name, " ", "") + ":" + k
		}
		h.SetTag(tag)
		if err := w.hlog.OutputIntervalHistogram(h); err != nil {
			return fmt.Errorf("writing --hlog: %w", err)
		}
	}
	return nil
}

// print writes one progress line.
func (w *watcher) print() {
	ph := w.plan.RunPhases()[w.phase]
	elapsed := time.Duration(w.lastSecond+1) * time.Second
	var b strings.Builder
	b.WriteString("gobench: ")
	if w.label != "" {
		b.WriteString(w.label + " · ")
	}
	if len(w.plan.RunPhases()) > 1 {
		fmt.Fprintf(&b, "%s · ", ph.Name)
	}
	fmt.Fprintf(&b, "%s", elapsed)
	var frac float64
	switch {
	case ph.Duration > 0:
		frac = float64(elapsed) / float64(ph.Duration)
	case ph.Ops > 0:
		frac = float64(w.opsDone) / float64(ph.Ops*int64(len(w.plan.WorkerIDs())))
	case ph.Access == workload.AccessEach:
		frac = float64(w.opsDone) / float64(w.plan.Keys.Count) // close enough for scans, whose ops are 100 keys
	}
	if frac > 0 && frac <= 1 {
		eta := time.Duration(float64(elapsed) * (1 - frac) / frac).Round(time.Second)
		fmt.Fprintf(&b, " · %.0f%% · ETA %s", 100*frac, eta)
	}
	kinds := make([]string, 0, len(w.windowOps))
	for k := range w.windowOps {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		rate := float64(w.windowOps[k]) / float64(w.windowSecs)
		fmt.Fprintf(&b, " · %s %s/s", k, report.Rate(rate))
		if h := w.window[k]; h != nil && h.TotalCount() > 0 {
			fmt.Fprintf(&b, " p99 %s", report.Micros(float64(percentile.Value(h, 99))/1e3))
		}
	}
	fmt.Fprintf(&b, " · errors %d", w.errors)
	if w.tty {
		fmt.Fprintf(w.out, "\r\033[K%s", b.String())
	} else {
		fmt.Fprintln(w.out, b.String())
	}
	w.printed = true
}
