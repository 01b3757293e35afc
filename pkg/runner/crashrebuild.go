package runner

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/workload"
)

// ContentSums reads a SQLite database's content as column sums, for
// judging a sql workload's crash states by their content (the
// coordinator hands it: package dbdigest, which this package does not
// link). Without it the states of the built-in TPC-B are judged by its
// history's rows, and other scripts' are not judged.
type ContentSums struct {
	// Open opens a copy of a database (it is written) on which
	// transactions run again.
	Open func(path string) (Rebuilder, error)
	// Sums returns the column sums of the database at path (opened
	// read-write: a WAL is recovered), in the order of cols.
	Sums func(path string, cols []string) ([]uint64, error)
	// Base is the database as the run's START found it (the crash
	// record's copy), End the database the run ended with, Scratch an
	// empty directory for the copies.
	Base, End, Scratch string
	// Source, where the plan's source is another package's (a replay's),
	// is the source its workers dealt from (Host.Source).
	Source workload.Source
}

// redoer is a statement a source runs itself (a replay's) that can run
// again on another connection: Redo returns its statements and
// arguments, none for one not run.
type redoer interface {
	Redo() (stmts []string, args []any, failed bool)
}

// Rebuilder runs a run's committed transactions again on a copy of its
// database, keeping the database's column sums after each (package
// dbdigest's Rebuild).
type Rebuilder interface {
	// Columns names the columns summed, "table.column".
	Columns() []string
	// Sums returns the sums as of the last Settle.
	Sums() []uint64
	// Exec runs a statement, its parameters :names bound to args in
	// order (a sql script's), or, names nil, args bound by SQLite's
	// parameter index as a trace keeps them (a replay's), as the replay
	// binds them (sqltrace.Binding).
	Exec(query string, names []string, args []any) error
	// Settle takes in the changes since the last Settle and reports
	// whether there were any.
	Settle() (bool, error)
	// Rollback ends a transaction a failed statement left open.
	Rollback()
	Close() error
}

// SetContent makes the index judge a sql workload's states by their
// content.
func (x *CrashIndex) SetContent(c ContentSums) { x.content = &c }

// NotCompared returns the columns ("table.column") the states' content
// was not compared on: those whose values running the commits again did
// not reproduce (drawn from the clock or chance).
func (x *CrashIndex) NotCompared() []string { return x.notCompared }

// commitOrder returns the indexes of the acks in the order their
// transactions committed: by the last change each one's process recorded
// before it (store.Ack.Commit), then by the record's order.
func (x *CrashIndex) commitOrder() []int {
	order := make([]int, len(x.acks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(x.acks[a].commit, x.acks[b].commit) })
	return order
}

// rebuild runs the acknowledged scripts again, in commit order, on a copy
// of the database at START, and compares the result with the database the
// run ended with. It returns why the states cannot be judged by their
// content, or "".
func (x *CrashIndex) rebuild(ctx context.Context) (string, error) {
	c := x.content
	dir := filepath.Join(c.Scratch, "rebuild")
	db, err := copyDB(c.Base, dir)
	if err != nil {
		return "", fmt.Errorf("copying the database at START: %w", err)
	}
	r, err := c.Open(db)
	if err != nil {
		return "", err
	}
	defer r.Close()
	p := &prefixes{cols: r.Columns(), sums: [][]uint64{r.Sums()}}
	dealers := map[workerPhase]*scriptReplay{}
	defer func() {
		for _, d := range dealers {
			if c, ok := d.d.(io.Closer); ok {
				c.Close() // a replay's dealer reads the trace
			}
		}
	}()
	for _, i := range x.commitOrder() {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("rebuilding the commits: %w", err)
		}
		a := x.acks[i]
		k := workerPhase{a.worker, a.phase}
		d := dealers[k]
		if d == nil {
			if d, err = newScriptReplay(x, k); err != nil {
				return "", err
			}
			dealers[k] = d
		}
		if why := d.run(r, a.seq); why != "" {
			return why, nil
		}
		changed, err := r.Settle()
		if err != nil {
			return "", fmt.Errorf("rebuilding the commits: %w", err)
		}
		p.commits = append(p.commits, prefixCommit{ack: i, changed: changed})
		p.sums = append(p.sums, r.Sums())
	}
	// Tables created during the run have their columns after the
	// others': before their creation they sum to 0.
	p.cols = r.Columns()
	for k, sums := range p.sums {
		p.sums[k] = append(sums, make([]uint64, len(p.cols)-len(sums))...)
	}
	end, err := copyDB(c.End, filepath.Join(c.Scratch, "end"))
	if err != nil {
		return "", fmt.Errorf("copying the database the run ended with: %w", err)
	}
	sums, err := c.Sums(end, p.cols)
	if err != nil {
		return "", fmt.Errorf("reading the database the run ended with: %w", err)
	}
	not := p.reproduce(sums)
	if len(p.cols) > 0 && len(not) == len(p.cols) {
		return "running the acknowledged commits again reproduced no column of the database the run ended with", nil
	}
	x.notCompared, x.prefixes = not, p
	return "", nil
}

// scriptReplay deals one worker's ops again, as it dealt them: a sql
// workload's scripts, or a replay's statements (each connection a worker).
type scriptReplay struct {
	d       deal.Dealer
	deal    deal.Deal
	scripts []*sqlscript.Script
	worker  int
	// pending are a replay's statements dealt since the worker's last
	// commit: they run, in order, with the next one.
	pending []redo
}

// redo is one statement to run again; failed says it failed when
// captured, so its error again is no failure of the rebuild.
type redo struct {
	sql    string
	args   []any
	failed bool
}

func newScriptReplay(x *CrashIndex, k workerPhase) (*scriptReplay, error) {
	sh := deal.NewShared(x.plan, nil)
	if x.content.Source != nil {
		sh.Use(x.content.Source)
	}
	d, err := sh.Dealer(x.plan, k.p, k.w)
	if err != nil {
		return nil, err
	}
	s := &scriptReplay{d: d, worker: k.w}
	if x.plan.SQL != nil {
		if s.scripts, err = x.plan.SQL.Parse(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// run deals up to the op numbered seq and runs it on r (a replay's
// statement with those dealt before it since the last commit); it
// returns why it could not, or "".
func (s *scriptReplay) run(r Rebuilder, seq uint64) string {
	for {
		if err := s.d.Deal(&s.deal); err != nil {
			return fmt.Sprintf("worker %d's op %d could not be dealt again: %v", s.worker, seq, err)
		}
		if rd, ok := s.deal.Action.(redoer); ok {
			stmts, args, failed := rd.Redo()
			for i, q := range stmts {
				if i > 0 {
					args = nil
				}
				s.pending = append(s.pending, redo{q, slices.Clone(args), failed})
			}
		} else if !s.deal.Op.IsScript() {
			continue
		}
		if s.deal.Seq == seq && (s.deal.Action != nil || s.deal.Op.IsScript()) {
			break
		}
	}
	if s.deal.Action != nil {
		return s.runPending(r, seq)
	}
	sc := s.scripts[int(s.deal.Op-workload.OpScript)]
	k := 0
	for _, cmd := range sc.Commands {
		if cmd.SQL == nil {
			continue
		}
		if err := r.Exec(cmd.SQL.Text, cmd.SQL.Params, s.deal.Args[k]); err != nil {
			r.Rollback()
			return fmt.Sprintf("worker %d's script %d (%s:%d) did not run again as it ran: %v", s.worker, seq, sc.File, cmd.Line, err)
		}
		k++
	}
	return ""
}

// runPending runs a replay's statements dealt since its last commit.
func (s *scriptReplay) runPending(r Rebuilder, seq uint64) string {
	defer func() { s.pending = s.pending[:0] }()
	for _, p := range s.pending {
		if err := r.Exec(p.sql, nil, p.args); err != nil && !p.failed {
			r.Rollback()
			return fmt.Sprintf("connection %d's statement %d (%.60q) did not run again as it ran: %v", s.worker, seq, p.sql, err)
		}
	}
	return ""
}

// copyDB copies a SQLite database (its file, its WAL and its journal,
// where they exist) into dir, and returns the copy's path.
func copyDB(path, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, filepath.Base(path))
	for _, suffix := range []string{"", "-wal", "-journal"} {
		if err := copyFile(path+suffix, dst+suffix); err != nil {
			return "", err
		}
	}
	return dst, nil
}

// copyFile copies src to dst, replacing it; a src that does not exist
// removes dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if os.IsNotExist(err) {
		if rerr := os.Remove(dst); rerr != nil && !os.IsNotExist(rerr) {
			return rerr
		}
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
