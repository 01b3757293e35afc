package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// IntervalLog writes a run's timeline as an HdrHistogram interval log
// (.hlog), readable by HdrHistogram's tools in every language: one
// interval histogram per second and op kind, tagged by kind (and by phase
// when the plan has several), timed from the phase's own START to the
// millisecond and as long as the second lasted. The warm-up is left out:
// it is not measured.
type IntervalLog struct {
	out     io.Writer
	plan    *workload.Plan
	started time.Time
	log     *hdr.HistogramLogWriter // nil until the header is written
}

// NewIntervalLog returns a log of plan's run on out. started is the log's
// base time should an interval carry no START (Builder.SetStart unset).
func NewIntervalLog(out io.Writer, plan *workload.Plan, started time.Time) *IntervalLog {
	return &IntervalLog{out: out, plan: plan, started: started}
}

// Write logs one finished second (see Builder.Observe); the first one
// measured writes the header, based at its phase's START.
func (l *IntervalLog) Write(iv result.Interval) error {
	if l.plan.IsWarmup(iv.Phase) {
		return nil
	}
	start := iv.Start
	if start.IsZero() {
		start = l.started
	}
	if l.log == nil {
		if err := l.header(start); err != nil {
			return err
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
		if len(l.plan.Phases) > 1 {
			tag = strings.ReplaceAll(l.plan.RunPhases()[iv.Phase].Name, " ", "") + ":" + k
		}
		h.SetTag(hlogTag(tag))
		if err := l.log.OutputIntervalHistogram(h); err != nil {
			return err
		}
	}
	return nil
}

// header starts the log at base. The header lines are written here, not
// by hdrhistogram-go, whose writer cuts StartTime and BaseTime to whole
// seconds: the log would then be up to a second off START.
func (l *IntervalLog) header(base time.Time) error {
	l.log = hdr.NewHistogramLogWriter(l.out)
	if err := l.log.OutputLogFormatVersion(); err != nil {
		return err
	}
	if err := l.log.OutputComment("gobench interval histograms: one per second and op kind (tag), latency in nanoseconds, 2 significant digits; times count from the first measured phase's common start"); err != nil {
		return err
	}
	ms := base.UnixMilli()
	secs := float64(ms) / 1000
	if _, err := fmt.Fprintf(l.out, "#[StartTime: %.3f (seconds since epoch), %s]\n", secs, time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00")); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(l.out, "#[BaseTime: %.3f (seconds since epoch)]\n", secs); err != nil {
		return err
	}
	l.log.SetBaseTime(ms)
	return l.log.OutputLegend()
}
