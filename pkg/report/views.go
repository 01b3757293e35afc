package report

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// policyText says how a run scheduled its ops and who waited for locks,
// in one line each; none for a closed-loop run under the timeout policy.
func policyText(p workload.Plan) []string {
	var lines []string
	if p.Rate > 0 {
		arrival := workload.ArrivalConstant
		if p.Arrival != "" {
			arrival = p.Arrival
		}
		s := fmt.Sprintf("open loop: %s ops/s due over %d workers (%s arrivals); latency counts from each op's due time, so a stall counts for every op it delays; service time from the actual start is shown apart",
			units.Rate(p.Rate), p.Workers(), arrival)
		if p.LatencyLimit > 0 {
			s += fmt.Sprintf("; ops beginning over %v late are late", time.Duration(p.LatencyLimit))
			if p.SkipLate {
				s += " and skipped"
			}
		}
		lines = append(lines, s)
	}
	if p.Busy == workload.BusyRetry {
		lines = append(lines, fmt.Sprintf("busy: retry — the engine fails at once (busy_timeout 0) and gobench retries busy and locked ops with a backoff from %v to %v, for up to %v each, counting every retry and the time waited",
			100*time.Microsecond, 10*time.Millisecond, time.Duration(p.BusyBudget)))
	}
	return lines
}

// hasOpenLoop and hasLockWaits report whether a phase has the views.
func hasOpenLoop(ph result.Phase) bool {
	for _, o := range ph.Ops {
		if o.Service != nil {
			return true
		}
	}
	return false
}

func hasLockWaits(ph result.Phase) bool {
	for _, o := range ph.Ops {
		if o.LockWaits != nil || o.BusyBegins > 0 || o.BusyCommits > 0 {
			return true
		}
	}
	return false
}

// viewRows are the op kinds a view table shows: each kind but a script's
// statements, and the total when there are several data kinds.
func viewRows(ph result.Phase) []result.OpStats {
	var rows []result.OpStats
	for _, o := range ph.Ops {
		if !strings.Contains(o.Kind, "#") { // a script's statements are neither scheduled nor retried on their own
			rows = append(rows, o)
		}
	}
	if countData(ph.Ops) > 1 {
		rows = append(rows, ph.Total)
	}
	return rows
}

// openLoopTable writes, for an open-loop phase, the service time from each
// op's actual start (the uncorrected view), the schedule lag, and the late
// and skipped ops; the service time's statistics are stats (p50, p90,
// p99, p99.9, max unless asked).
func openLoopTable(w *errWriter, ph result.Phase, stats []*judge.Figure) {
	if !hasOpenLoop(ph) {
		return
	}
	stats = statsOr(stats, []string{"p50", "p90", "p99", "p99.9", "max"})
	w.printf("\nservice time from the actual start (uncorrected: what a closed-loop tool reports), and how late ops began\n")
	tw := w.aligned(tabwriter.AlignRight)
	cols := strings.Repeat("%s\t", len(stats))
	tw.printf("op\t"+cols+"lag p50\tlag p99\tlag max\tlate\tskipped\t\n", anys(statNames(stats))...)
	for _, o := range viewRows(ph) {
		if o.Service == nil || o.Lag == nil {
			continue
		}
		s, l := o.Service, o.Lag
		tw.printf("%s\t"+cols+"%s\t%s\t%s\t%d\t%d\t\n", append(append([]any{o.Kind}, anys(latencyCells(stats, *s))...),
			units.Micros(l.P50Micros), units.Micros(l.P99Micros), units.Micros(l.MaxMicros), o.Late, o.Skipped)...)
	}
	tw.flush()
}

// lockWaitTable writes, under the retry busy policy, how often each op
// kind found the database busy or locked and how long it waited.
func lockWaitTable(w *errWriter, ph result.Phase, p workload.Plan) {
	if !hasLockWaits(ph) {
		return
	}
	tw := w.aligned(tabwriter.AlignRight)
	const busySteps = "busy BEGIN, busy COMMIT: ops whose BEGIN or COMMIT found the database locked at least once"
	if p.Busy == workload.BusyRetry {
		w.printf("\nlock waits (busy or locked, retried by gobench; wait: first attempt to final attempt, over the ops that retried)\n%s\n", busySteps)
		tw.printf("op\tretries\tops retried\tgave up\twait p50\twait p99\twait max\tbusy BEGIN\tbusy COMMIT\t\n")
	} else {
		w.printf("\nlock waits inside ops (SQLite's busy handler, counted through the driver where it can be: its calls, and the time it waited, over the ops that waited)\n%s\n", busySteps)
		tw.printf("op\thandler calls\tops waited\tgave up\twait p50\twait p99\twait max\tbusy BEGIN\tbusy COMMIT\t\n")
	}
	uncounted := !waitsCounted(ph)
	for _, o := range viewRows(ph) {
		lw := o.LockWaits
		if lw == nil && !uncounted {
			lw = &result.LockWaits{}
		}
		if lw == nil {
			tw.printf("%s\t–\t–\t–\t–\t–\t–\t%d\t%d\t\n", o.Kind, o.BusyBegins, o.BusyCommits)
			continue
		}
		tw.printf("%s\t%d\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t\n", o.Kind, lw.Retries, lw.OpsRetried, lw.GaveUp, units.Micros(lw.Wait.P50Micros), units.Micros(lw.Wait.P99Micros), units.Micros(lw.Wait.MaxMicros), o.BusyBegins, o.BusyCommits)
	}
	tw.flush()
	if uncounted {
		w.printf("–: not counted: this engine's busy handler waits inside the driver, out of gobench's sight (its waits are in the latency; --busy retry, or the capi and ncruces drivers, count them)\n")
	}
}

// waitsCounted reports whether the phase's lock waits were counted: under
// the retry policy, or by an engine that counts its own busy handler
// (store.LockWaitCounter). Such a phase has LockWaits on some op kind (the
// kinds that never waited have none); a phase with busy BEGINs or COMMITs
// and no LockWaits anywhere waited inside a driver that cannot say how
// long: not zero, unknown.
func waitsCounted(ph result.Phase) bool {
	for _, o := range ph.Ops {
		if o.LockWaits != nil {
			return true
		}
	}
	return ph.Total.LockWaits != nil
}

// walText summarises a phase's write-ahead log in one line: its peak size,
// how often it was restarted after a checkpoint, and its size second by
// second (the first 30); "" for a phase without one.
func walText(ph result.Phase) string {
	l := ph.WAL
	if l == nil {
		return ""
	}
	s := fmt.Sprintf("wal: peak %s, %d %s after a complete checkpoint", bytesize.Units{}.Round(l.MaxBytes), l.Resets, plural(int(l.Resets), "restart", "restarts"))
	if len(l.Seconds) > 0 {
		var sizes []string
		for i, sec := range l.Seconds {
			if i == 30 {
				sizes = append(sizes, "…")
				break
			}
			sizes = append(sizes, bytesize.Units{}.Round(sec.Bytes))
		}
		s += " · size by second: " + strings.Join(sizes, ", ")
	}
	return s
}

// originLines says where each shard of a merged run ran, then what the
// merge warned about; none for a run that was not merged.
func originLines(r *result.Result) []string {
	var out []string
	if len(r.Shards) > 0 {
		out = append(out, fmt.Sprintf("merged from %d shards:", len(r.Shards)))
	}
	for _, o := range r.Shards {
		host := o.Host
		if host == "" {
			host = "unknown host"
		}
		ids := make([]string, len(o.Workers))
		for i, w := range o.Workers {
			ids[i] = strconv.Itoa(w)
		}
		out = append(out, fmt.Sprintf("  shard %s: %s · db %s · started %s · workers %s", o.Shard, host, o.Database, o.StartedAt.UTC().Format("2006-01-02 15:04:05.000Z"), strings.Join(ids, ", ")))
	}
	for _, w := range r.Warnings {
		out = append(out, "WARNING: "+w)
	}
	return out
}
