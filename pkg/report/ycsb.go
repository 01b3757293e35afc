package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// The ycsb format writes YCSB's own summary (its TextMeasurementsExporter,
// with the HdrHistogram measurement's default percentiles, 95 and 99), so
// that scripts written for YCSB's output read gobench's:
//
//	[OVERALL], RunTime(ms), 1503
//	[OVERALL], Throughput(ops/sec), 665.33599467731
//	[READ], Operations, 496
//	[READ], AverageLatency(us), 512.63
//	[READ], MinLatency(us), 118
//	[READ], MaxLatency(us), 9871
//	[READ], 95thPercentileLatency(us), 1409
//	[READ], 99thPercentileLatency(us), 3261
//	[READ], Return=OK, 496
//
// As YCSB's output does, it begins with the command line that ran
// ("Command line: gobench ycsb run a"), which also tells the file for
// gobench's own. An op kind is its name in capitals (read-modify-write is YCSB's
// READ-MODIFY-WRITE). As in YCSB, latencies are whole microseconds
// (truncated), the average a double, and the throughput counts every op
// attempted; unlike YCSB, which keeps failed ops' latencies apart
// ([READ-FAILED]), an op kind's latencies cover every attempt, failed ones
// included, as gobench's do everywhere. Return= counts OK, NOT_FOUND and
// ERROR. The warm-up is not in it; transaction markers (begin, commit)
// are not YCSB ops and are left out. A run of several phases writes a
// block per phase, a suite a block per run, each after a line starting
// with #.

// ycsbPercentiles are YCSB's default hdrhistogram.percentiles.
var ycsbPercentiles = []float64{95, 99}

// runYCSB writes the run's YCSB summary, after its command line.
func runYCSB(w io.Writer, r *result.Result, _ []*judge.Figure) error {
	ew := textWriter(w)
	commandLine(ew, r)
	return runYCSBBlocks(ew, r)
}

// commandLine writes YCSB's first line, the command line that ran.
func commandLine(w *errWriter, r *result.Result) {
	args := strings.Join(r.Args, " ")
	if args == "" {
		args = "(" + r.Command + ")"
	}
	w.printf("Command line: gobench %s\n", args)
}

// runYCSBBlocks writes a block per phase of the run.
func runYCSBBlocks(ew *errWriter, r *result.Result) error {
	for i, ph := range r.Phases {
		if len(r.Phases) > 1 {
			ew.printf("# phase %s\n", ph.Name)
		}
		if err := ycsbPhase(ew, &r.Phases[i]); err != nil {
			return err
		}
	}
	return ew.err
}

// suiteYCSB writes every run's summary, each under a line naming its cell
// and repeat.
func suiteYCSB(w io.Writer, s *judge.Summary) error {
	ew := textWriter(w)
	if len(s.Suite.Cells) > 0 && len(s.Suite.Cells[0].Runs) > 0 {
		commandLine(ew, s.Suite.Cells[0].Runs[0])
	}
	for _, c := range s.Suite.Cells {
		var set result.Settings // the cell's own: an engine's options are no other engine's
		for _, st := range c.Settings {
			if st.Value != "" {
				set = append(set, st)
			}
		}
		for i, r := range c.Runs {
			ew.printf("# cell %s, run %d of %d\n", set, i+1, len(c.Runs))
			if err := runYCSBBlocks(ew, r); err != nil {
				return err
			}
		}
	}
	return ew.err
}

// ycsbPhase writes one phase's [OVERALL] lines and a block per op kind.
func ycsbPhase(w *errWriter, ph *result.Phase) error {
	ms := ph.WallSeconds * 1000
	w.printf("[OVERALL], RunTime(ms), %d\n", int64(math.Round(ms)))
	tput := 0.0
	if ms > 0 {
		tput = 1000 * float64(ph.Total.Count) / ms
	}
	w.printf("[OVERALL], Throughput(ops/sec), %s\n", javaDouble(tput))
	for i := range ph.Ops {
		o := &ph.Ops[i]
		if workload.IsMarkerKind(o.Kind) || o.Count == 0 {
			continue
		}
		if err := ycsbOp(w, o); err != nil {
			return err
		}
	}
	return nil
}

// ycsbOp writes one op kind's lines.
func ycsbOp(w *errWriter, o *result.OpStats) error {
	h, err := o.DecodeHistogram()
	if err != nil {
		return fmt.Errorf("%s: %w", o.Kind, err)
	}
	name := "[" + strings.ToUpper(o.Kind) + "]"
	us := func(ns int64) int64 { return ns / 1000 }
	w.printf("%s, Operations, %d\n", name, o.Count)
	w.printf("%s, AverageLatency(us), %s\n", name, javaDouble(o.MeanMicros))
	w.printf("%s, MinLatency(us), %d\n", name, us(h.Min()))
	w.printf("%s, MaxLatency(us), %d\n", name, us(h.Max()))
	for _, p := range ycsbPercentiles {
		w.printf("%s, %dthPercentileLatency(us), %d\n", name, int(p), us(percentile.Value(h, p)))
	}
	ok := o.Count - o.Errors.Total - o.NotFound
	w.printf("%s, Return=OK, %d\n", name, ok)
	if o.NotFound > 0 {
		w.printf("%s, Return=NOT_FOUND, %d\n", name, o.NotFound)
	}
	if o.Errors.Total > 0 {
		w.printf("%s, Return=ERROR, %d\n", name, o.Errors.Total)
	}
	return nil
}

// javaDouble formats f as Java's Double.toString does, as YCSB prints its
// doubles: the shortest decimal that reads back as f, with at least one
// digit after the point, in scientific notation ("1.0E7") from 10^7 up
// and below 10^-3.
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1.2345e+07
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
