package cli

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// watcher consumes the finished seconds of a run: it prints progress
// lines (every `every` seconds of run time) and writes the HdrHistogram
// interval log. It runs on its own goroutine; the run hands it intervals
// through a channel, so neither slows the workers.
type watcher struct {
	out   io.Writer
	tty   bool
	width func() int // the terminal's columns; 0 or nil: unknown
	every int64      // seconds between progress lines; 0: none
	pos   *matrixPos // where the run stands in its matrix; nil: alone
	plan  *workload.Plan
	hlog  *report.IntervalLog // nil: no interval log

	ch   chan result.Interval
	done chan struct{}
	err  error

	// accumulated for the progress line
	phase      int
	lastSecond int64
	lastSpan   float64 // the span of the last second seen: under one for a partial last second
	opsDone    int64   // data ops finished in the current phase
	errors     int64
	window     *result.Window // since the last progress line
	whole      *result.Window // since the phase's START
	printed    bool
}

// newWatcher starts a watcher; every is the progress interval (0: none),
// pos where the run stands in its matrix (nil: alone), hlog the interval
// log's destination (nil: none). On a terminal (tty), width gives its
// columns.
func newWatcher(out io.Writer, tty bool, width func() int, every time.Duration, pos *matrixPos, plan *workload.Plan, hlog io.Writer, started time.Time) *watcher {
	w := &watcher{
		out: out, tty: tty, width: width, pos: pos, plan: plan,
		every:  int64(every / time.Second),
		ch:     make(chan result.Interval, 1024),
		done:   make(chan struct{}),
		window: result.NewWindow(), whole: result.NewWindow(),
	}
	if hlog != nil {
		w.hlog = report.NewIntervalLog(hlog, plan, started)
	}
	if every > 0 && w.every == 0 {
		w.every = 1
	}
	go w.run()
	return w
}

// observe is the run's hook: it hands the interval to the watcher.
func (w *watcher) observe(iv result.Interval) { w.ch <- iv }

// close waits for every interval to be handled and ends the progress line.
func (w *watcher) close() error {
	close(w.ch)
	<-w.done
	if w.printed && w.tty {
		// The line may be ended already: a message (an interrupt's)
		// ends an open progress line before it is printed.
		if e, ok := w.out.(interface{ endLine() error }); ok {
			_ = e.endLine() // as Fprintln's: stderr's errors are not the run's
		} else {
			fmt.Fprintln(w.out)
		}
	}
	return w.err
}

func (w *watcher) run() {
	defer close(w.done)
	for iv := range w.ch {
		if iv.Phase != w.phase {
			w.phase, w.opsDone, w.lastSecond = iv.Phase, 0, 0
			w.window, w.whole = result.NewWindow(), result.NewWindow()
		}
		w.lastSecond, w.lastSpan = iv.Second.Second, iv.Second.Span()
		if w.hlog != nil && w.err == nil {
			if err := w.hlog.Write(iv); err != nil {
				w.err = fmt.Errorf("writing --hlog: %w", err)
			}
		}
		for _, o := range iv.Second.Ops {
			if !workload.IsMarkerKind(o.Kind) {
				w.opsDone += o.Count
			}
			w.errors += o.Errors
		}
		w.window.Add(iv)
		w.whole.Add(iv)
		switch {
		case w.every == 0:
		case iv.Second.Partial():
			// The phase ended inside this second: its few ops would read
			// as a fall in throughput. The phase's last line gives the
			// phase's own rates instead.
			w.print(w.whole, "phase average")
			w.window = result.NewWindow()
		case w.window.Seconds() >= float64(w.every):
			w.print(w.window, "")
			w.window = result.NewWindow()
		}
	}
}

// print writes one progress line with the rates and p99s of c, followed
// by note; on a terminal, fitted to its width.
func (w *watcher) print(c *result.Window, note string) {
	fs := w.fields(c, note)
	for i := range fs {
		fs[i].text = report.Line(fs[i].text) // an op kind, a phase's name: the user's
	}
	if !w.tty {
		fmt.Fprintln(w.out, joinFields(fs))
		w.printed = true
		return
	}
	width := 0
	if w.width != nil {
		width = w.width()
	}
	if width <= 0 {
		width = defaultWidth
	}
	// One column short of the width: some terminals wrap as soon as the
	// last column is written.
	fmt.Fprintf(w.out, "\r\033[K%s", fitLine(fs, width-1))
	w.printed = true
}

// defaultWidth is the terminal's width when it does not say.
const defaultWidth = 80

// fields returns the progress line's fields: where a matrix stands, the
// phase, the time into it, the share done and the ETA, then per op kind
// the rate and p99 of c, the errors and note.
func (w *watcher) fields(c *result.Window, note string) []field {
	ph := w.plan.RunPhases()[w.phase]
	elapsed := (time.Duration(w.lastSecond)*time.Second + time.Duration(w.lastSpan*float64(time.Second))).Round(time.Millisecond)
	frac := w.share(ph, elapsed)
	phases := len(w.plan.RunPhases())
	fs := w.pos.fields((float64(w.phase)+frac)/float64(phases), time.Now()) // the run's share: its phases count alike
	if phases > 1 {
		fs = append(fs, field{text: ph.Name, rank: rankETA})
	}
	fs = append(fs, field{text: elapsed.String(), rank: rankRun})
	if frac > 0 {
		fs = append(fs, field{text: fmt.Sprintf("%.0f%%", 100*frac), rank: rankRun})
		if w.pos == nil || w.pos.total <= 1 { // a matrix gives its own ETA
			eta := time.Duration(float64(elapsed) * (1 - frac) / frac).Round(time.Second)
			fs = append(fs, field{text: "ETA " + eta.String(), rank: rankETA})
		}
	}
	kinds, more := progressKinds(c)
	for _, k := range kinds {
		fs = append(fs, field{text: fmt.Sprintf("%s %s/s", k, units.Rate(c.Rate(k))), rank: rankRate})
		if p99, ok := c.Percentile(k, 99); ok {
			fs = append(fs, field{text: "p99 " + units.Micros(float64(p99)/1e3), rank: rankLatency, glued: true})
		}
	}
	if more > 0 {
		fs = append(fs, field{text: fmt.Sprintf("+%d more", more), rank: rankRate})
	}
	fs = append(fs, field{text: fmt.Sprintf("errors %d", w.errors), rank: rankRun})
	if note != "" {
		fs = append(fs, field{text: note, rank: rankNote})
	}
	return fs
}

// maxProgressKinds is how many op kinds a progress line gives: a
// replay's statements, by fingerprint, are many more.
const maxProgressKinds = 8

// progressKinds returns the op kinds of c a progress line gives, and how
// many more it leaves out: all of them, by name, up to maxProgressKinds;
// else that many of the busiest, by rate in the window. Markers (a
// batch's begin and commit, a script's statements) are left out
// uncounted: their ops are counted already.
func progressKinds(c *result.Window) ([]string, int) {
	var kinds []string
	for _, k := range c.Kinds() {
		if !workload.IsMarkerKind(k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) <= maxProgressKinds {
		return kinds, 0
	}
	busiest := slices.Clone(kinds)
	slices.SortStableFunc(busiest, func(a, b string) int { return cmp.Compare(c.Rate(b), c.Rate(a)) })
	return busiest[:maxProgressKinds], len(kinds) - maxProgressKinds
}

// share returns the share of the phase's work done at elapsed, 0 when
// unknown.
func (w *watcher) share(ph workload.Phase, elapsed time.Duration) float64 {
	var frac float64
	switch {
	case ph.Duration > 0:
		frac = float64(elapsed) / float64(ph.Duration)
	case ph.Ops > 0:
		frac = float64(w.opsDone) / float64(ph.Ops*int64(len(w.plan.WorkerIDs())))
	case ph.Access == workload.AccessEach:
		frac = float64(w.opsDone) / float64(w.plan.Keys.Count) // close enough for scans, whose ops are 100 keys
	}
	return min(frac, 1) // the last op of a timed phase ends a little after its time
}
