package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// scripts is one connection's prepared scripts: for each, its SQL
// statements in order, every one prepared once, before the worker is
// ready.
type scripts struct {
	list  [][]scriptStep
	names []string // each script's name
}

// scriptStep is one statement of a script, prepared, with its op (for
// per-statement samples) and where it came from.
type scriptStep struct {
	file string
	line int
	stmt store.Statement
	op   workload.Op
}

// prepareScripts prepares every statement of plan's scripts on c. An
// error names the script's file and line.
func prepareScripts(plan *workload.Plan, c store.Conn) (*scripts, error) {
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
			if cmd.SQL == nil {
				continue
			}
			step := scriptStep{file: s.File, line: cmd.Line, op: workload.StatementOp(j)}
			if step.stmt, err = sc.Prepare(cmd.SQL.Text, cmd.SQL.Params); err != nil {
				return nil, &sqlscript.Error{File: s.File, Line: cmd.Line, Msg: err.Error()}
			}
			j++
			out.list[i] = append(out.list[i], step)
		}
	}
	return out, nil
}

// runScript runs one attempt of script i on the worker's connection, each
// statement k with the values args[k] (the dealer bound them). With PerStatement
// every statement's latency is emitted as its own sample. A statement
// that fails ends the attempt; a transaction it leaves open is rolled back
// here, so nothing of the attempt is committed and the connection is back
// in autocommit.
func (w *worker) runScript(i int, args [][]any) error {
	for k := range w.scripts.list[i] {
		step := &w.scripts.list[i][k]
		var t0 int64
		if w.perStatement {
			t0 = w.now()
		}
		_, err := step.stmt.Run(args[k]...)
		if w.perStatement {
			t1 := w.now()
			if serr := w.emit(workload.Sample{Op: step.op, Class: store.Classify(err), Start: time.Duration(t0 - w.start), Latency: time.Duration(t1 - t0)}); serr != nil {
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
func setUpSQL(ctx context.Context, st store.Store, plan *workload.Plan) (time.Duration, error) {
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
