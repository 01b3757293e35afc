package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// runText writes the human-readable report: a header with the settings that
// decide the numbers, then per phase a table of op kinds (count, ops/s,
// latency percentiles, errors by class) and a line on wall time and the
// spread between workers.
func runText(w io.Writer, r *result.Result, stats []*judge.Figure) error {
	tw := textWriter(w)
	if !r.Complete {
		tw.printf("INCOMPLETE RESULT: %s\n\n", strings.Join(r.Problems, "; "))
	}
	runHeader(tw, r)
	if line := r.WorkerShardLine(); line != "" {
		tw.printf("%s\n", line)
	}
	if line := failedRunWarning(r); line != "" {
		tw.printf("%s\n", line)
	}
	gatesText(tw, r.Gates)
	if line := machineStateText(r.Environment.Machine); line != "" {
		tw.printf("%s\n", line)
	}
	for _, line := range originLines(r) {
		tw.printf("%s\n", line)
	}
	if line := tracedText(r); line != "" {
		tw.printf("%s\n", line)
	}
	if d := r.Durability; d != nil {
		tw.printf("%s\n", durabilityText(d))
		for _, e := range durabilityLines(d) {
			tw.printf("  %s\n", e)
		}
		if note := dirSyncNote(r); note != "" {
			tw.printf("%s\n", note)
		}
	}
	if v := r.Verify; v != nil {
		if v.Invariants > 0 {
			tw.printf("check: integrity %s · %d TPC-B invariants checked after %d acknowledged transactions · %d violations\n", v.Integrity, v.Invariants, v.AckedWrites, v.Violations)
		} else {
			tw.printf("verify: integrity %s · %d keys checked against %d acknowledged writes · %d violations\n", v.Integrity, v.KeysChecked, v.AckedWrites, v.Violations)
		}
		for _, e := range v.Examples {
			tw.printf("  %s\n", e)
		}
	}
	for i, ph := range r.Phases {
		tw.printf("\n")
		if len(r.Phases) > 1 {
			tw.printf("phase %s\n", ph.Name)
		}
		kindTables(tw, r, ph, stats)
		openLoopTable(tw, ph, stats)
		lockWaitTable(tw, ph, r.Plan)
		phaseFooter(tw, ph)
		if line := walText(ph); line != "" {
			tw.printf("%s\n", line)
		}
		if line := ioText(r, i); line != "" {
			tw.printf("%s\n", line)
		}
		if line := ceilingText(r, i); line != "" {
			tw.printf("%s\n", line)
		}
		if r.Plan.Replay != nil {
			for _, line := range replayLines(r, ph) {
				tw.printf("%s\n", line)
			}
		}
	}
	for _, line := range []string{ioOutsideText(r), tracedSyncNote(r), figuresText(r)} {
		if line != "" {
			tw.printf("%s\n", line)
		}
	}
	for _, line := range statementLegend(r.Plan) {
		tw.printf("%s\n", line)
	}
	return tw.err
}

// steadyText says what --warmup auto chose: "warm-up cut at 3.84 s
// (MSER-5 put its end at 3.20 s, by read latency): 5120 ops left out ·
// ops, latencies and rates after it; wall, workers, CPU and timeline over
// the whole phase", "no steady state (MSER-5): throughput settles only in
// the run's second half; throughput +4.1%/s over that half · every op
// measured"; "" without it.
func steadyText(c *result.SteadyCut) string {
	switch {
	case c == nil:
		return ""
	case !c.Found && c.Series != "":
		return fmt.Sprintf("no steady state (%s): %s %s; throughput %s%%/s over that half · every op measured",
			c.Method, c.Series, c.Reason, signed(units.Fixed(100*c.TrendPerSecond, 1)))
	case !c.Found:
		return fmt.Sprintf("no steady state (%s): %s · every op measured", c.Method, c.Reason)
	case c.Seconds == 0:
		return fmt.Sprintf("warm-up: none (%s found the run steady from its start) · every op measured%s", c.Method, unsettledText(c))
	}
	return fmt.Sprintf("warm-up cut at %s s (%s put its end at %s s, by %s): %d ops left out · ops, latencies and rates after it; wall, workers, CPU and timeline over the whole phase%s",
		units.Fixed(c.Seconds, 2), c.Method, units.Fixed(c.ChosenSeconds, 2), c.Series, c.Ops, unsettledText(c))
}

// unsettledText names a series that did not settle in a phase found
// steady: " · throughput did not settle (-4.1%/s over the run's second
// half) while every latency did: the machine's doing, not the store's".
func unsettledText(c *result.SteadyCut) string {
	if c.Unsettled == "" {
		return ""
	}
	return fmt.Sprintf(" · %s did not settle (%s%%/s over the run's second half) while every latency did: the machine's doing, not the store's",
		c.Unsettled, signed(units.Fixed(100*c.TrendPerSecond, 1)))
}

// fairnessText says how evenly the phase served its workers, and names
// the one served least: "fairness 0.42 (Jain's index over 25 workers'
// ops/s; writes 0.31) · served least: worker 7, 0.8 ops/s, p99 4.90s, max
// 5.00s, while the others committed about 1234 writes · longest without a
// completion: worker 7, 5.00s"; "" with fewer than two workers.
func fairnessText(ph *result.Phase) string {
	f, ok := judge.FairnessOf(ph)
	if !ok {
		return ""
	}
	s := fmt.Sprintf("fairness %s (Jain's index over %d workers' ops/s", units.Fixed(f.Index, 2), f.Workers)
	if f.Idle > 0 {
		s += fmt.Sprintf(", not the %d that ran nothing", f.Idle)
	}
	if !math.IsNaN(f.WriteIndex) {
		s += "; writes " + units.Fixed(f.WriteIndex, 2)
	}
	w := f.Worst
	s += fmt.Sprintf(") · served least: worker %d, %s ops/s", w.ID, units.Rate(w.OpsPerSec))
	if f.HasOwnLatency {
		s += fmt.Sprintf(", p99 %s, max %s", units.Micros(w.P99Micros), units.Micros(w.MaxMicros))
		if f.OthersMeasured {
			s += fmt.Sprintf(", the others committing about %s writes during its slowest op", units.Rate(f.OthersCommits))
		}
	}
	if f.HasGaps {
		s += fmt.Sprintf(" · longest without a completion: worker %d, %s", f.GapWorker, units.Micros(f.MaxGapMicros))
	}
	return s
}

// runHeader writes the lines that head a run's text report: what ran,
// on which engine, how many workers and how they were scheduled, where
// the database lay and on what machine, and the warm-up.
func runHeader(w *errWriter, r *result.Result) {
	p := r.Plan
	env := r.Environment
	fact := env.StoreFact
	title := fmt.Sprintf("gobench %s · driver %s", r.Command, p.Driver)
	if e := fact(store.FactEngine); e != "" {
		title += " (" + e + ")"
	}
	if h := fact(store.FactHeadline); h != "" {
		title += " · " + h
	} else {
		for _, f := range env.Store {
			if f.Name != "driver" && f.Name != store.FactEngine && f.Name != store.FactSyncs {
				title += fmt.Sprintf(" · %s %s", strings.ReplaceAll(f.Name, "_", " "), f.Value)
			}
		}
	}
	if prim := env.SyncPrimitive; prim != "" {
		title += " · syncs by " + prim
	}
	w.printf("%s\n", title)

	w.printf("%s × %d %s (%s) · seed %d · %s\n",
		procsText(p), p.Goroutines, plural(p.Goroutines, "goroutine", "goroutines"),
		modeText(p.Mode, env.Sharing, p.Driver), p.Seed, p.Describe(true))
	if line := pinText(p.Pin); line != "" {
		w.printf("%s\n", line)
	}
	w.printf("db %s on %s · %s · %s %s, %s\n",
		dbPath(p), filesystemText(env), machineText(env), r.Tool.Name, r.Tool.Version, r.Tool.GoVersion)
	if line := warmupText(r); line != "" {
		w.printf("%s\n", line)
	}
	for _, line := range policyText(p) {
		w.printf("%s\n", line)
	}
}

// procsText says how many worker processes ran: "8 procs", or for a
// shard of a run's workers "4 of 8 procs (shard 1/2)".
func procsText(p workload.Plan) string {
	if p.Shard == nil {
		return fmt.Sprintf("%d %s", p.Procs, plural(p.Procs, "proc", "procs"))
	}
	return fmt.Sprintf("%d of %d procs (shard %s)", len(p.ProcIndexes()), p.Procs, p.Shard)
}

// modeText names the worker mode, and why it is goroutines where the
// driver allows one process only: "goroutine mode: bbolt allows one
// process".
func modeText(mode, sharing, driver string) string {
	if sharing == "" || sharing == "processes" {
		return mode + " mode"
	}
	return fmt.Sprintf("%s mode: %s allows %s", mode, driver, sharing)
}

// statementLegend says which statement each SCRIPT#LINE row times, in a
// sql workload run with per-statement latencies: its SQL on one line,
// shortened to fit.
func statementLegend(p workload.Plan) []string {
	if p.SQL == nil || !p.SQL.PerStatement {
		return nil
	}
	scripts, err := p.SQL.Parse()
	if err != nil {
		return nil
	}
	var names, texts []string
	width := 0
	for _, sc := range scripts {
		for _, c := range sc.Commands {
			if c.SQL == nil {
				continue
			}
			name := fmt.Sprintf("%s#%d", sc.Name, c.Line)
			text := strings.Join(strings.Fields(c.SQL.Text), " ")
			if r := []rune(text); len(r) > 72 {
				text = string(r[:71]) + "…"
			}
			names, texts = append(names, name), append(texts, text)
			width = max(width, len(name))
		}
	}
	lines := []string{"statements:"}
	for i, name := range names {
		lines = append(lines, fmt.Sprintf("  %-*s  %s", width, name, texts[i]))
	}
	return lines
}

// warmupText says what the warm-up ran, or "" without one.
func warmupText(r *result.Result) string {
	wp, wr := r.Plan.Warmup, r.Warmup
	if wp == nil || wr == nil {
		return ""
	}
	what := fmt.Sprintf("%d ops/worker", wp.Ops)
	if wp.Ops == 0 {
		what = fmt.Sprintf("%v/worker", wp.Duration)
	}
	return fmt.Sprintf("warm-up: %s, not measured · %d ops in %s s (%s ops/s), %d errors", what, wr.Ops, units.Fixed(wr.WallSeconds, 3), units.Rate(wr.OpsPerSec), wr.Errors.Total)
}

func dbPath(p workload.Plan) string {
	if p.Store.Path == "" {
		return "(none)"
	}
	return p.Store.Path
}

// kindTables writes phase ph's tables of op kinds: a replay's, or the
// kinds' and, for a run with roles, each role's.
func kindTables(w *errWriter, r *result.Result, ph result.Phase, stats []*judge.Figure) {
	if r.Plan.Replay != nil {
		replayTable(w, r, ph)
		return
	}
	phaseTable(w, ph, statsOr(stats, textStats))
	if t := roleTable(ph, statsOr(stats, textStats), errorText); t != nil {
		w.printf("\nper role:\n")
		t.writeText(w)
	}
}

// phaseTable writes a phase's table of op kinds: count, ops/s, the
// latency statistics stats, errors.
func phaseTable(w *errWriter, ph result.Phase, stats []*judge.Figure) {
	// A script's statements (SCRIPT#LINE) come after the total they are
	// no part of.
	var rows, statements []result.OpStats
	for _, o := range ph.Ops {
		if strings.Contains(o.Kind, "#") {
			statements = append(statements, o)
		} else {
			rows = append(rows, o)
		}
	}
	if countData(ph.Ops) > 1 {
		rows = append(rows, ph.Total)
	}
	rows = append(rows, statements...)
	opTable(rows, stats, errorText).writeText(w)
}

func phaseFooter(w *errWriter, ph result.Phase) {
	w.printf("wall %s s from the common start to the last completion · last worker began %s after the start", units.Fixed(ph.WallSeconds, 3), units.Micros(ph.LastFirstOpMicros))
	sp := ph.WorkerSpread
	w.printf(" · per-worker ops/s min %s / median %s / max %s\n", units.Rate(sp.MinOpsPerSec), units.Rate(sp.MedianOpsPerSec), units.Rate(sp.MaxOpsPerSec))
	if line := steadyText(ph.Steady); line != "" {
		w.printf("%s\n", line)
	}
	if line := fairnessText(&ph); line != "" {
		w.printf("%s\n", line)
	}
	if line := cpuText(ph); line != "" {
		w.printf("%s\n", line)
	}
	if len(ph.Timeline) > 0 {
		stalls, worst, worstN, whole := 0, int64(0), int64(-1), 0
		var p99Sec int64
		var p99Kind string
		var p99Max float64
		for _, s := range ph.Timeline {
			var n int64
			for _, o := range s.Ops {
				n += o.Count
				if o.P99Micros > p99Max {
					p99Sec, p99Kind, p99Max = s.Second, o.Kind, o.P99Micros
				}
			}
			if n == 0 {
				stalls++
			}
			// The last second is partial: fewer ops in it say nothing.
			if s.Partial() {
				continue
			}
			if whole++; worstN < 0 || n < worstN {
				worst, worstN = s.Second, n
			}
		}
		w.printf("timeline: %d s", len(ph.Timeline))
		if whole > 1 {
			w.printf(" · slowest second %d (%d ops)", worst, worstN)
		}
		if len(ph.Timeline) > 1 {
			w.printf(" · worst p99: second %d, %s %s · seconds with no completions: %d", p99Sec, p99Kind, units.Micros(p99Max), stalls)
		}
		w.printf("\n")
	}
	if ph.ClampedSamples > 0 {
		w.printf("%d latencies above %v were recorded as %v\n", ph.ClampedSamples, units.Micros(float64(result.HistogramMax)/1e3), units.Micros(float64(result.HistogramMax)/1e3))
	}
	w.printf("latency over every attempt, failed ones included; ops/s counts ops that did not fail\n")
}

// pinText says where a run's processes were pinned, "" when nowhere.
func pinText(p *workload.Pin) string {
	if p == nil {
		return ""
	}
	var parts []string
	if len(p.Workers) > 0 {
		cpus := make([]string, len(p.Workers))
		for i, c := range p.Workers {
			cpus[i] = strconv.Itoa(c)
		}
		parts = append(parts, "worker processes to CPUs "+strings.Join(cpus, ",")+" (round-robin)")
	}
	if p.Coordinator != nil {
		parts = append(parts, "the coordinator to CPU "+strconv.Itoa(*p.Coordinator))
	}
	return "pinned: " + strings.Join(parts, " · ")
}

// durabilityLines are the lines under a run's durability: every state,
// named by its persistence point (--crash exhaustive), or the first
// problems found.
func durabilityLines(d *result.Durability) []string {
	if len(d.Points) > 0 {
		return d.Points
	}
	return d.Examples
}
