package capture

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// conn is a recorded connection. database/sql uses a connection from one
// goroutine at a time, and so does the recording.
type conn struct {
	c     *Capture
	id    uint64
	under driver.Conn
	begin string // the BEGIN its transactions run
	tx    txState

	params map[string]paramMap // by statement text, for statements run without Prepare
	// bindTime converts a time.Time argument as the driver underneath
	// binds it (nil: as mattn's does).
	bindTime timeBinder
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

// maxPending bounds the records a transaction holds back.
const maxPending = 4096

// txState is the transaction open on a connection, as the recording saw
// it begin. Its records are held back until it ends, so that a
// transaction that commits writes can be given the state it was based
// on: the one just before its commit (in SQLite a transaction that
// writes sees no commit of another between its first read and its own
// commit; the recording's order of events may show one).
type txState struct {
	open    bool
	wrote   bool
	pending []sqltrace.Record
	snapAt  int    // the index in pending of the record that began its snapshot, or -1
	seq     uint64 // the number of its commit under way
}

// run is a statement under way: when it began and what it saw then.
type run struct {
	start    time.Time
	snap     uint64 // the commits complete before it began
	inflight bool   // a commit was under way as it began
}

func (cn *conn) before() run {
	c := cn.c
	f := c.inflight.Load() != 0
	return run{start: time.Now(), snap: c.done.Load(), inflight: f}
}

// certain reports whether a statement that began at r saw state r.snap for
// sure: no commit was under way as it began, none completed while it ran,
// and none is under way now.
func (cn *conn) certain(r run) bool {
	c := cn.c
	return !r.inflight && c.done.Load() == r.snap && c.inflight.Load() == 0
}

// done records a statement that ran: its rows (or changes, for a write
// through Exec), whether it ran to its end, and its error.
func (cn *conn) done(r run, end time.Time, inSQLite time.Duration, sql string, pm paramMap, args []driver.NamedValue, res outcome) {
	kept, cut := sqltrace.KeepSQL(sql)
	e := sqltrace.Exec{
		Conn: cn.id, SQL: kept, Flags: cut, Params: pm.values(args, cn.bindTime),
		Start: cn.c.at(r.start), Span: int64(end.Sub(r.start)), InSQLite: int64(inSQLite),
		Rows: res.rows, Changes: res.changes,
	}
	if res.err != nil {
		e.Code = codeOf(res.err)
	}
	if res.done {
		e.Flags |= sqltrace.FlagDone
	}
	if res.changed {
		e.Flags |= sqltrace.FlagChanges
	}
	if res.digested {
		e.Flags |= sqltrace.FlagDigest
		if sqltrace.Ordered(kept) {
			e.Flags |= sqltrace.FlagOrdered
		}
		e.Digest = res.digest.Of(e.Flags)
	}
	kw := firstKeyword(sql)
	if !cn.tx.open {
		e.Flags |= sqltrace.FlagAutocommitBefore
	}
	wasOpen := cn.tx.open
	if res.err == nil {
		cn.boundary(kw, sql)
	}
	if !cn.tx.open {
		e.Flags |= sqltrace.FlagAutocommitAfter
	}
	cn.place(&e, r, kw, wasOpen, res)
}

// place gives e its place in the order of commits and records it, or holds
// it back with its transaction's.
func (cn *conn) place(e *sqltrace.Exec, r run, kw string, wasOpen bool, res outcome) {
	c := cn.c
	rec := sqltrace.Record{Kind: sqltrace.KindExec, Exec: *e}
	re := &rec.Exec
	switch {
	case !wasOpen && !cn.tx.open: // a statement of its own transaction
		if res.err == nil && writes(kw, res) {
			// Numbered as it returned: two autocommit writes of two
			// goroutines at once may be numbered either way.
			v := c.order.Add(1)
			c.done.Add(1)
			re.Commit = sqltrace.State{Kind: sqltrace.StateSeq, Value: v, At: re.Start + re.Span}
			re.Snap = sqltrace.State{Kind: sqltrace.StateSeq, Value: v - 1, At: re.Start}
		} else if kw != "BEGIN" && kw != "COMMIT" && kw != "END" && kw != "ROLLBACK" {
			re.Snap = sqltrace.State{Kind: sqltrace.StateSeq, Value: r.snap, At: re.Start}
			if !cn.certain(r) {
				re.Flags |= sqltrace.FlagUncertain
			}
		}
		c.write(&rec)
	case !wasOpen: // BEGIN
		cn.tx.pending, cn.tx.snapAt, cn.tx.wrote = append(cn.tx.pending[:0], rec), -1, false
		if strings.Contains(strings.ToUpper(e.SQL), "IMMEDIATE") || strings.Contains(strings.ToUpper(e.SQL), "EXCLUSIVE") {
			cn.snapHere(0, r)
		}
	case cn.tx.open: // inside the transaction
		cn.tx.pending = append(cn.tx.pending, rec)
		if cn.tx.snapAt < 0 {
			cn.snapHere(len(cn.tx.pending)-1, r)
			if !cn.certain(r) {
				cn.tx.pending[cn.tx.snapAt].Exec.Flags |= sqltrace.FlagUncertain
			}
		}
		cn.tx.wrote = cn.tx.wrote || writes(kw, res)
		if len(cn.tx.pending) >= maxPending {
			cn.flushTx() // too long to hold back: recorded as seen
		}
	default: // COMMIT, END or ROLLBACK
		if kw != "ROLLBACK" && cn.tx.wrote && cn.tx.seq == 0 {
			// A COMMIT run as a statement, not through the Tx: numbered as
			// it returned.
			cn.tx.seq = c.order.Add(1)
			c.done.Add(1)
		}
		if kw != "ROLLBACK" && cn.tx.wrote {
			v := cn.tx.seq
			re.Commit = sqltrace.State{Kind: sqltrace.StateSeq, Value: v, At: re.Start + re.Span}
			if cn.tx.snapAt < 0 && len(cn.tx.pending) > 0 {
				cn.tx.snapAt = 0
			}
			if cn.tx.snapAt >= 0 {
				// A transaction that wrote saw every commit before its own.
				e := &cn.tx.pending[cn.tx.snapAt].Exec
				e.Snap.Value, e.Snap.Kind = v-1, sqltrace.StateSeq
				e.Flags &^= sqltrace.FlagUncertain
			}
		}
		cn.tx.seq = 0
		cn.tx.pending = append(cn.tx.pending, rec)
		cn.flushTx()
	}
}

// snapHere marks pending record i as the one that began the transaction's
// snapshot.
func (cn *conn) snapHere(i int, r run) {
	cn.tx.snapAt = i
	e := &cn.tx.pending[i].Exec
	e.Snap = sqltrace.State{Kind: sqltrace.StateSeq, Value: r.snap, At: e.Start}
}

// flushTx records the records held back.
func (cn *conn) flushTx() {
	for i := range cn.tx.pending {
		cn.c.write(&cn.tx.pending[i])
	}
	cn.tx.pending, cn.tx.snapAt = cn.tx.pending[:0], -1
}

// boundary follows the transaction a statement that succeeded began or
// ended.
func (cn *conn) boundary(kw, sql string) {
	switch kw {
	case "BEGIN":
		cn.tx.open = true
	case "COMMIT", "END":
		cn.tx.open = false
	case "ROLLBACK":
		if !strings.Contains(strings.ToUpper(sql), " TO ") {
			cn.tx.open = false
		}
	}
}

// outcome is how a statement ended.
type outcome struct {
	rows, changes int64
	changed, done bool
	err           error
	// digested says digest is the digest of the rows read.
	digested bool
	digest   sqltrace.RowsDigest
}

// writes reports whether a statement that succeeded wrote to the
// database: its first keyword says so, or it changed rows.
func writes(kw string, res outcome) bool {
	switch kw {
	case "INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER", "REINDEX", "ANALYZE":
		return true
	}
	return res.changed && res.changes > 0
}

// firstKeyword is a statement's first word, in upper case.
func firstKeyword(sql string) string {
	s := strings.TrimLeft(sql, " \t\r\n(")
	for strings.HasPrefix(s, "--") || strings.HasPrefix(s, "/*") {
		if strings.HasPrefix(s, "--") {
			_, s, _ = strings.Cut(s, "\n")
		} else {
			_, s, _ = strings.Cut(s, "*/")
		}
		s = strings.TrimLeft(s, " \t\r\n(")
	}
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if end < 0 {
		end = len(s)
	}
	return strings.ToUpper(s[:end])
}

// Prepare prepares a statement.
func (cn *conn) Prepare(query string) (driver.Stmt, error) {
	return cn.PrepareContext(context.Background(), query)
}

// PrepareContext prepares a statement; its executions are recorded.
func (cn *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var s driver.Stmt
	var err error
	if pc, ok := cn.under.(driver.ConnPrepareContext); ok {
		s, err = pc.PrepareContext(ctx, query)
	} else {
		s, err = cn.under.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &stmt{cn: cn, under: s, sql: query, pm: newParamMap(query)}, nil
}

// Close closes the connection and records it.
func (cn *conn) Close() error {
	t := cn.c.now()
	if len(cn.tx.pending) > 0 {
		cn.flushTx()
	}
	err := cn.under.Close()
	rec := sqltrace.Close{Conn: cn.id, Time: t}
	if err != nil {
		rec.Code = codeOf(err)
	}
	cn.c.write(&sqltrace.Record{Kind: sqltrace.KindClose, Close: rec})
	return err
}

// Begin begins a transaction.
func (cn *conn) Begin() (driver.Tx, error) {
	return cn.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx begins a transaction, recorded as the BEGIN it runs.
func (cn *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	r := cn.before()
	var tx driver.Tx
	var err error
	if bt, ok := cn.under.(driver.ConnBeginTx); ok {
		tx, err = bt.BeginTx(ctx, opts)
	} else if opts.Isolation != 0 || opts.ReadOnly {
		return nil, errors.New("sql: driver does not support non-default isolation level or read-only transactions")
	} else {
		//lint:ignore SA1019 the fallback database/sql uses too
		tx, err = cn.under.Begin()
	}
	end := time.Now()
	cn.done(r, end, end.Sub(r.start), cn.begin, paramMap{}, nil, outcome{done: true, err: err})
	if err != nil {
		return nil, err
	}
	return &txn{cn: cn, under: tx}, nil
}

// txn is a recorded transaction.
type txn struct {
	cn    *conn
	under driver.Tx
}

// Commit commits, recorded as COMMIT.
func (t *txn) Commit() error { return t.end("COMMIT", t.under.Commit) }

// Rollback rolls back, recorded as ROLLBACK.
func (t *txn) Rollback() error { return t.end("ROLLBACK", t.under.Rollback) }

func (t *txn) end(sql string, f func() error) error {
	r := t.cn.before()
	c := t.cn.c
	numbered := sql == "COMMIT" && t.cn.tx.wrote
	if numbered {
		// The transaction wrote: it holds the write lock, and no other
		// can commit before it. Its number is taken now, in the order
		// of commits, and given back if the commit fails.
		c.inflight.Add(1)
		t.cn.tx.seq = c.order.Add(1)
	}
	err := f()
	if numbered {
		if err == nil {
			c.done.Add(1)
		} else {
			c.order.Add(^uint64(0))
			t.cn.tx.seq = 0
		}
		c.inflight.Add(-1)
	}
	end := time.Now()
	t.cn.done(r, end, end.Sub(r.start), sql, paramMap{}, nil, outcome{done: true, err: err})
	if err != nil && t.cn.tx.open && sql == "COMMIT" {
		// database/sql's Tx is done after Commit whatever it returned:
		// the drivers roll a transaction whose COMMIT failed back.
		r := t.cn.before()
		t.cn.done(r, r.start, 0, "ROLLBACK", paramMap{}, nil, outcome{done: true})
	}
	return err
}

// ExecContext runs a statement without a result set, recorded with the
// rows it changed.
func (cn *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	ec, ok := cn.under.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip // database/sql prepares it instead
	}
	r := cn.before()
	res, err := ec.ExecContext(ctx, query, args)
	end := time.Now()
	if errors.Is(err, driver.ErrSkip) {
		return nil, err
	}
	cn.done(r, end, end.Sub(r.start), query, cn.paramMap(query), args, resultOutcome(res, err))
	return res, err
}

// QueryContext runs a statement with a result set, recorded when its rows
// are closed.
func (cn *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	qc, ok := cn.under.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	r := cn.before()
	rows, err := qc.QueryContext(ctx, query, args)
	if errors.Is(err, driver.ErrSkip) {
		return nil, err
	}
	return cn.rows(r, query, cn.paramMap(query), args, rows, err)
}

// paramMap returns the parameter map of a statement run without Prepare.
func (cn *conn) paramMap(query string) paramMap {
	if pm, ok := cn.params[query]; ok {
		return pm
	}
	if len(cn.params) >= 256 {
		clear(cn.params)
	}
	pm := newParamMap(query)
	cn.params[query] = pm
	return pm
}

// Ping pings the connection, if the driver can.
func (cn *conn) Ping(ctx context.Context) error {
	if p, ok := cn.under.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

// ResetSession resets the session, if the driver can.
func (cn *conn) ResetSession(ctx context.Context) error {
	if r, ok := cn.under.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

// IsValid reports whether the connection may be used again.
func (cn *conn) IsValid() bool {
	if v, ok := cn.under.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// CheckNamedValue checks an argument as the driver would.
func (cn *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if c, ok := cn.under.(driver.NamedValueChecker); ok {
		return c.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}
