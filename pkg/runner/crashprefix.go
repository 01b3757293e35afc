package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A sql workload's crash states are judged by their content: the state a
// power cut leaves must equal the database after some prefix of the
// run's commits, in the order they committed, that holds every
// transaction acknowledged before the cut. The content is column sums
// (see ContentSums): the prefixes' are rebuilt by running the
// acknowledged transactions again on a copy of the database as it was at
// START, each state's are read from the state.

// prefixes are the column sums of the database after each prefix of the
// run's commits: sums[k] after the first k (sums[0], at START).
type prefixes struct {
	cols []string // "table.column"
	sums [][]uint64
	// commits[k-1] is the acknowledgement of commit k (an index into the
	// index's acks) and whether it changed anything.
	commits []prefixCommit
	// compare says which columns are compared: those the rebuild
	// reproduced (its last prefix equals the run's end).
	compare []bool
}

// prefixCommit is one commit of the rebuilt order.
type prefixCommit struct {
	ack     int
	changed bool
}

// sameOn reports whether a and b agree on the compared columns.
func (p *prefixes) sameOn(a, b []uint64) bool {
	for i := range a {
		if p.compare[i] && a[i] != b[i] {
			return false
		}
	}
	return true
}

// match returns the longest prefix whose sums equal state's on the
// compared columns, or false where none does.
func (p *prefixes) match(state []uint64) (int, bool) {
	for k := len(p.sums) - 1; k >= 0; k-- {
		if p.sameOn(p.sums[k], state) {
			return k, true
		}
	}
	return 0, false
}

// reproduce compares the rebuild's last prefix with end, the sums of the
// database the run ended with: the columns that differ are not compared
// (a value the statements draw from the clock or chance: CURRENT_TIMESTAMP,
// random()), and are returned.
func (p *prefixes) reproduce(end []uint64) []string {
	last := p.sums[len(p.sums)-1]
	p.compare = make([]bool, len(p.cols))
	var not []string
	for i := range p.cols {
		p.compare[i] = last[i] == end[i]
		if !p.compare[i] {
			not = append(not, p.cols[i])
		}
	}
	return not
}

// lostAfter returns the commits after prefix k that were acknowledged
// before the cut (acked says which acks were) and changed something:
// those a state equal to prefix k lost, in commit order.
func (p *prefixes) lostAfter(k int, acked func(ack int) bool) []int {
	var lost []int
	for j := k + 1; j <= len(p.commits); j++ {
		c := p.commits[j-1]
		if c.changed && acked(c.ack) {
			lost = append(lost, j)
		}
	}
	return lost
}

// tablesOf returns the tables commits (numbers of prefixes) changed,
// sorted.
func (p *prefixes) tablesOf(commits []int) []string {
	var tables []string
	for _, j := range commits {
		before, after := p.sums[j-1], p.sums[j]
		for i := range p.cols {
			if before[i] != after[i] {
				t, _, _ := strings.Cut(p.cols[i], ".")
				if !slices.Contains(tables, t) {
					tables = append(tables, t)
				}
			}
		}
	}
	slices.Sort(tables)
	return tables
}

// rebuildOnce rebuilds the prefixes of a sql workload whose index judges
// states by their content, before the first state is judged.
func (x *CrashIndex) rebuildOnce(ctx context.Context) error {
	if !transactional(x.plan) || x.content == nil || x.prefixes != nil || x.noPrefixes != "" {
		return nil
	}
	why, err := x.rebuild(ctx)
	if err != nil {
		return fmt.Errorf("--crash: rebuilding the run's commits: %w", err)
	}
	x.noPrefixes = why
	return nil
}

// judgeContent judges a state that opened by its content: the longest
// prefix of the run's commits it equals, and the acknowledged commits
// after that prefix, lost; a state equal to none is corrupt (a
// transaction half applied, or commits kept out of their order).
func (x *CrashIndex) judgeContent(ctx context.Context, st store.CrashState, res *workload.CrashResult) error {
	p := x.prefixes
	if p == nil {
		return nil
	}
	sums, err := x.content.Sums(st.Path, p.cols)
	if err != nil {
		*res, err = verdict(ctx, st, *res, "reading its content", err)
		return err
	}
	k, ok := p.match(sums)
	if !ok {
		res.NoPrefix = true
		*res = corrupt(*res, "its content equals no prefix of the run's commits (a transaction half applied, or commits kept out of their order)")
		return nil
	}
	res.Prefix, res.Commits = int64(k), int64(len(p.commits))
	lost := p.lostAfter(k, func(i int) bool { return x.acks[i].event <= st.Event })
	if len(lost) == 0 {
		return nil
	}
	res.Lost = int64(len(lost))
	res.LostTables = p.tablesOf(lost)
	oldest, newest := x.acks[p.commits[lost[0]-1].ack], x.acks[p.commits[lost[0]-1].ack]
	for _, j := range lost {
		a := x.acks[p.commits[j-1].ack]
		if a.at < oldest.at {
			oldest = a
		}
		if a.event > newest.event {
			newest = a
		}
	}
	res.OldestLost = time.Duration(st.At - oldest.at)
	when := "as the crash came"
	if age := time.Duration(st.At - newest.at).Round(time.Microsecond); age > 0 {
		when = age.String() + " before the crash"
	}
	what := "script"
	if x.plan.Replay != nil {
		what = "statement"
	}
	res.NewestLost = fmt.Sprintf("worker %d's %s %d, acknowledged %s", newest.worker, what, newest.seq, when)
	res.Examples = append(res.Examples, fmt.Sprintf("held the first %d of the run's %d commits; lost %d acknowledged, the newest %s, touching %s",
		k, len(p.commits), len(lost), res.NewestLost, strings.Join(res.LostTables, ", ")))
	return nil
}

// transactional reports whether plan's writes are transactions of SQL
// (a sql workload's scripts, a replay's statements), judged by the
// content of the states, not by key.
func transactional(plan *workload.Plan) bool { return plan.SQL != nil || plan.Replay != nil }

// checkReplayState counts a replay's commits acknowledged before st's
// cut; its content is judged after (judgeContent), or, where the commits
// could not be rebuilt, not at all.
func checkReplayState(plan *workload.Plan, st store.CrashState, x *CrashIndex) workload.CrashResult {
	var res workload.CrashResult
	for _, a := range x.acks {
		if a.event <= st.Event {
			res.Checked++
		}
	}
	if x.prefixes == nil {
		res.NotChecked = "the replay's commits could not be rebuilt: only each state's integrity is checked"
		if x.noPrefixes != "" {
			res.NotChecked = "the replay's commits could not be rebuilt (" + x.noPrefixes + "): only each state's integrity is checked"
		}
	}
	return res
}
