package report

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/units"
)

// The one-line sentences about a run that both the text and the markdown
// report write: the disk's sync ceiling against the phase's syncs, the
// processor time per op, the figures no other line shows.

// ceilingText says how phase i's syncs compare with the disk's fsync rate
// measured before the run: its commits per second times the syncs each
// made, as counted (one each, said so, where the engine does not trace
// its I/O); "" when there is no ceiling or no write. A run whose commits
// waited for their syncs cannot sync faster than the disk did in the
// probe: such a run is flagged as impossible.
func ceilingText(r *result.Result, i int) string {
	c := r.Environment.Ceiling
	commits, ok := r.CommitsPerSec(i)
	if c == nil || !ok || c.FsyncPerSec <= 0 {
		return ""
	}
	what := "write commits"
	if r.Plan.Phases[i].Batch > 1 {
		what = "commits (read-only transactions included)"
	}
	s := fmt.Sprintf("ceiling: this disk (%s) made %s durable %d-byte writes/s (fdatasync p50 %s, p99 %s); %s: %s/s",
		c.Filesystem, units.Rate(c.FsyncPerSec), c.WriteSize, units.Micros(c.P50Micros), units.Micros(c.P99Micros), what, units.Rate(commits))
	syncs, traced := r.SyncsPerSec(i)
	if !traced {
		frac := commits / c.FsyncPerSec
		s += fmt.Sprintf(", %s%% of that, taking one sync per commit (the I/O was not traced)", units.Sig3(100*frac))
		if frac > 1 {
			s += ": above the ceiling, so commits did not each wait for an fsync (WAL with synchronous NORMAL, sync off, or group commit)"
		}
		return s
	}
	frac := syncs / c.FsyncPerSec
	s += fmt.Sprintf(" × %s syncs each (counted) = %s syncs/s, %s%% of that", units.Fixed(r.Phases[i].IO.SyncsPerCommit, 2), units.Rate(syncs), units.Sig3(100*frac))
	durable := r.Environment.StoreFact(store.FactSyncs) != "false"
	if frac > 1 && durable {
		s += ": IMPOSSIBLE for commits that each waited for their syncs: the disk synced faster during the run than in the probe (its speed changed, or its cache acknowledges syncs it has not made durable)"
	}
	return s
}

// figuresText lists the run's figures that the table of figures puts on
// this line (judge.Figure.Line: those no other line shows) and that the
// run has: "figures: fairness 0.97 · worker max gap 12ms"; "" when none.
func figuresText(r *result.Result) string {
	if len(r.Phases) == 0 {
		return ""
	}
	var parts []string
	for _, f := range judge.Figures {
		if !f.Line || f.PerKind {
			continue
		}
		if v, ok := f.Read(r, ""); ok {
			parts = append(parts, f.Name+" "+f.Tag(v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "figures: " + strings.Join(parts, " · ")
}

// cpuText is the phase's processor time per op and whose it is; "" when
// it was not measured.
func cpuText(ph result.Phase) string {
	c := ph.CPU
	if c == nil {
		return ""
	}
	whose := c.Scope
	if c.Scope == result.CPUWorkers {
		whose = fmt.Sprintf("%d worker %s, START to last op", c.Processes, plural(c.Processes, "process", "processes"))
	}
	line := fmt.Sprintf("cpu: %s per op (user %s s, system %s s: %s)", units.Micros(c.MicrosPerOp), units.Fixed(c.UserSeconds, 3), units.Fixed(c.SystemSeconds, 3), whose)
	if co := c.Coordinator; co != nil {
		line += fmt.Sprintf("; coordinator %s per op", units.Micros(co.MicrosPerOp))
	}
	return line
}
