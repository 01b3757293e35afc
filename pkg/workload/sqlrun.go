package workload

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/store"
)

// streamScripts seeds a worker's \set expressions in a sql workload.
const streamScripts = 6

// scripts is one connection's prepared scripts: for each, its commands in
// order, every SQL statement prepared once, before the worker is ready.
type scripts struct {
	list  [][]scriptStep
	names []string // each script's name
}

// scriptStep is one command of a script: a \set (set) or a prepared
// statement with its op (for per-statement samples), its parameters'
// values bound for the run under way (args) and where it came from.
type scriptStep struct {
	file string
	line int
	set  *sqlscript.Set
	sql  *sqlscript.Statement
	stmt store.Statement
	op   Op
	args []any
}

// prepareScripts prepares every statement of plan's scripts on c. An
// error names the script's file and line.
func prepareScripts(plan *Plan, c store.Conn) (*scripts, error) {
	sc, ok := c.(store.Scripter)
	if !ok {
		return nil, fmt.Errorf("%w: driver %s cannot run SQL scripts", store.ErrInvalid, plan.Driver)
	}
	parsed, err := plan.SQL.Parse()
	if err != nil {
		return nil, err
	}
	out := &scripts{list: make([][]scriptStep, len(parsed)), names: make([]string, len(parsed))}
	j := 0
	for i, s := range parsed {
		out.names[i] = s.Name
		for _, cmd := range s.Commands {
			step := scriptStep{file: s.File, line: cmd.Line, set: cmd.Set, sql: cmd.SQL}
			if cmd.SQL != nil {
				if step.stmt, err = sc.Prepare(cmd.SQL.Text, cmd.SQL.Params); err != nil {
					return nil, &sqlscript.Error{File: s.File, Line: cmd.Line, Msg: err.Error()}
				}
				step.op = StatementOp(j)
				step.args = make([]any, len(cmd.SQL.Params))
				j++
			}
			out.list[i] = append(out.list[i], step)
		}
	}
	return out, nil
}

// bind runs script i's \set lines in order against st and binds each
// statement's parameters to the values they have when it comes up. The
// statements then run with those values however often a busy database
// makes the script start over: a retry repeats the same transaction. An
// expression that fails (a division by zero) fails with class Script.
func (s *scripts) bind(i int, st *sqlscript.State) error {
	for k := range s.list[i] {
		step := &s.list[i][k]
		if step.set != nil {
			if err := step.set.Eval(st); err != nil {
				return store.Wrap(store.Script, fmt.Errorf("%s:%d: %w", step.file, step.line, err))
			}
			continue
		}
		if err := step.sql.Bind(st, step.args); err != nil {
			return store.Wrap(store.Script, fmt.Errorf("%s:%d: %w", step.file, step.line, err))
		}
	}
	return nil
}

// runScript runs one attempt of script i on the worker's connection, its
// parameters bound first on the op's first attempt. With PerStatement
// every statement's latency is emitted as its own sample. A statement
// that fails ends the attempt; a transaction it leaves open is rolled back
// here, so nothing of the attempt is committed and the connection is back
// in autocommit.
func (w *worker) runScript(i int) error {
	if w.try.n == 0 {
		if err := w.scripts.bind(i, w.vars); err != nil {
			return err
		}
	}
	for k := range w.scripts.list[i] {
		step := &w.scripts.list[i][k]
		if step.stmt == nil {
			continue
		}
		var t0 int64
		if w.perStatement {
			t0 = w.now()
		}
		_, err := step.stmt.Run(step.args...)
		if w.perStatement {
			t1 := w.now()
			if serr := w.emit(Sample{Op: step.op, Class: store.Classify(err), Start: time.Duration(t0 - w.start), Latency: time.Duration(t1 - t0)}); serr != nil {
				return errors.Join(err, serr)
			}
		}
		if err != nil {
			if w.prober != nil && w.prober.InTx() && w.batcher != nil {
				if rerr := w.batcher.Rollback(); rerr != nil {
					return errors.Join(err, fmt.Errorf("rolling back the script's transaction: %w", rerr))
				}
			}
			return fmt.Errorf("%s:%d: %w", step.file, step.line, err)
		}
	}
	return nil
}

// setUpSQL sets a sql workload's database up before any worker starts,
// on one connection of st: it runs the schema, if any (each statement
// prepared and run in order, \set lines evaluated with :scale set), then
// prepares every statement of every script, so that SQL that does not
// prepare (a syntax error, a table that does not exist) is refused with
// its file and line before any worker starts. It returns how long the
// schema took.
func setUpSQL(ctx context.Context, st store.Store, plan *Plan) (time.Duration, error) {
	schema, err := plan.SQL.ParseSchema()
	if err != nil {
		return 0, err
	}
	c, err := st.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("setting up the sql workload: opening a connection: %w", err)
	}
	defer c.Close()
	defer interruptible(ctx, c)()
	var took time.Duration
	if schema != nil {
		sc, ok := c.(store.Scripter)
		if !ok {
			return 0, fmt.Errorf("%w: driver %s cannot run SQL scripts", store.ErrInvalid, plan.Driver)
		}
		state := sqlscript.NewState(plan.Seed, -1, plan.SQL.Scale)
		retry := newSetupRetry(plan)
		t0 := time.Now()
		for _, cmd := range schema.Commands {
			if err := ctx.Err(); err != nil {
				return 0, fmt.Errorf("schema %s stopped before line %d: %w", schema.File, cmd.Line, err)
			}
			err := retry.do(ctx, func() error { return runCommand(sc, cmd, state) })
			if err != nil && ctx.Err() != nil {
				// Stopped, not wrong: the statement was interrupted.
				return 0, fmt.Errorf("schema %s:%d stopped: %w", schema.File, cmd.Line, ctx.Err())
			}
			if err != nil {
				return 0, &sqlscript.Error{File: schema.File, Line: cmd.Line, Msg: err.Error()}
			}
		}
		took = time.Since(t0)
	}
	_, err = prepareScripts(plan, c)
	return took, err
}

// runCommand runs one command of a script once, outside any measurement.
func runCommand(sc store.Scripter, cmd sqlscript.Command, state *sqlscript.State) error {
	if cmd.Set != nil {
		return cmd.Set.Eval(state)
	}
	stmt, err := sc.Prepare(cmd.SQL.Text, cmd.SQL.Params)
	if err != nil {
		return err
	}
	args := make([]any, len(cmd.SQL.Params))
	if err := cmd.SQL.Bind(state, args); err != nil {
		return err
	}
	_, err = stmt.Run(args...)
	return err
}
