package cli

import (
	"fmt"
	"io"
	"math"
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
	out     io.Writer
	tty     bool
	every   int64 // seconds between progress lines; 0: none
	label   string
	plan    *workload.Plan
	hlogOut io.Writer // nil: no interval log
	hlog    *hdr.HistogramLogWriter
	started time.Time // when the run began: the log's base if no START is known

	ch   chan result.Interval
	done chan struct{}
	err  error

	// accumulated for the progress line
	phase      int
	lastSecond int64
	lastSpan   float64 // the span of the last second seen: under one for a partial last second
	opsDone    int64   // data ops finished in the current phase
	errors     int64
	window     counts // since the last progress line
	whole      counts // since the phase's START
	printed    bool
}

// counts are the ops and latencies of a stretch of a phase, per op kind.
type counts struct {
	ops   map[string]int64
	hists map[string]*hdr.Histogram
	secs  float64
}

func newCounts() counts {
	return counts{ops: map[string]int64{}, hists: map[string]*hdr.Histogram{}}
}

// add adds one second of the timeline.
func (c *counts) add(iv result.Interval) {
	for _, o := range iv.Second.Ops {
		c.ops[o.Kind] += o.Count
		if h := iv.Histograms[o.Kind]; h != nil {
			if c.hists[o.Kind] == nil {
				c.hists[o.Kind] = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
			}
			c.hists[o.Kind].Merge(h)
		}
	}
	c.secs += iv.Second.Span()
}

// newWatcher starts a watcher; every is the progress interval (0: none),
// hlog the interval log's destination (nil: none).
func newWatcher(out io.Writer, tty bool, every time.Duration, label string, plan *workload.Plan, hlog io.Writer, started time.Time) *watcher {
	w := &watcher{
		out: out, tty: tty, label: label, plan: plan, hlogOut: hlog, started: started,
		every:  int64(every / time.Second),
		ch:     make(chan result.Interval, 1024),
		done:   make(chan struct{}),
		window: newCounts(), whole: newCounts(),
	}
	if every > 0 && w.every == 0 {
		w.every = 1
	}
	go w.run()
	return w
}

// hlogHeader starts the interval log at base, the first measured phase's
// START. The header lines are written here, not by hdrhistogram-go, whose
// writer cuts StartTime and BaseTime to whole seconds: the log would then
// be up to a second off START.
func (w *watcher) hlogHeader(base time.Time) error {
	w.hlog = hdr.NewHistogramLogWriter(w.hlogOut)
	if err := w.hlog.OutputLogFormatVersion(); err != nil {
		return err
	}
	if err := w.hlog.OutputComment("gobench interval histograms: one per second and op kind (tag), latency in nanoseconds, 2 significant digits; times count from the first measured phase's START"); err != nil {
		return err
	}
	ms := base.UnixMilli()
	secs := float64(ms) / 1000
	if _, err := fmt.Fprintf(w.hlogOut, "#[StartTime: %.3f (seconds since epoch), %s]\n", secs, time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00")); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w.hlogOut, "#[BaseTime: %.3f (seconds since epoch)]\n", secs); err != nil {
		return err
	}
	w.hlog.SetBaseTime(ms)
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

func (w *watcher) run() {
	defer close(w.done)
	for iv := range w.ch {
		if iv.Phase != w.phase {
			w.phase, w.opsDone, w.lastSecond = iv.Phase, 0, 0
			w.window, w.whole = newCounts(), newCounts()
		}
		w.lastSecond, w.lastSpan = iv.Second.Second, iv.Second.Span()
		if w.hlogOut != nil && w.err == nil && !w.plan.IsWarmup(iv.Phase) { // the warm-up is not measured
			w.err = w.logInterval(iv)
		}
		for _, o := range iv.Second.Ops {
			if op, err := workload.ParseOp(o.Kind); err == nil && op.IsData() {
				w.opsDone += o.Count
			}
			w.errors += o.Errors
		}
		w.window.add(iv)
		w.whole.add(iv)
		switch {
		case w.every == 0:
		case iv.Second.Partial():
			// The phase ended inside this second: its few ops would read
			// as a fall in throughput. The phase's last line gives the
			// phase's own rates instead.
			w.print(w.whole, " · phase average")
			w.window = newCounts()
		case w.window.secs >= float64(w.every):
			w.print(w.window, "")
			w.window = newCounts()
		}
	}
}

// logInterval writes one interval histogram per op kind, tagged by kind
// (and phase, when there are several), timed from the phase's own START
// to the millisecond, and as long as the second lasted.
func (w *watcher) logInterval(iv result.Interval) error {
	start := iv.Start
	if start.IsZero() {
		start = w.started
	}
	if w.hlog == nil {
		if err := w.hlogHeader(start); err != nil {
			return fmt.Errorf("writing --hlog: %w", err)
		}
	}
	kinds := make([]string, 0, len(iv.Histograms))
	for k := range iv.Histograms {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	from := start.UnixMilli() + iv.Second.Second*1000
	to := from + int64(math.Round(iv.Second.Span()*1000))
	for _, k := range kinds {
		h := iv.Histograms[k]
		h.SetStartTimeMs(from)
		h.SetEndTimeMs(to)
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

// print writes one progress line with the rates and p99s of c, followed
// by note.
func (w *watcher) print(c counts, note string) {
	ph := w.plan.RunPhases()[w.phase]
	elapsed := (time.Duration(w.lastSecond)*time.Second + time.Duration(w.lastSpan*float64(time.Second))).Round(time.Millisecond)
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
	if frac > 0 {
		frac = min(frac, 1) // the last op of a timed phase ends a little after its time
		eta := time.Duration(float64(elapsed) * (1 - frac) / frac).Round(time.Second)
		fmt.Fprintf(&b, " · %.0f%% · ETA %s", 100*frac, eta)
	}
	kinds := make([]string, 0, len(c.ops))
	for k := range c.ops {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		rate := float64(c.ops[k]) / c.secs
		fmt.Fprintf(&b, " · %s %s/s", k, report.Rate(rate))
		if h := c.hists[k]; h != nil && h.TotalCount() > 0 {
			fmt.Fprintf(&b, " p99 %s", report.Micros(float64(percentile.Value(h, 99))/1e3))
		}
	}
	fmt.Fprintf(&b, " · errors %d%s", w.errors, note)
	if w.tty {
		fmt.Fprintf(w.out, "\r\033[K%s", b.String())
	} else {
		fmt.Fprintln(w.out, b.String())
	}
	w.printed = true
}
