package preset

import (
	"fmt"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Scenarios returns the catalog: SQLite's concurrency pitfalls, each a
// ready experiment (see Scenario), in the order `gobench scenario list`
// shows them. Each call returns new values.
func Scenarios() []*Scenario {
	return []*Scenario{deferredBegin(), readerBlocksWriter(), checkpointStarvation(), busyBarging(), blockingLocks(), connectionPerOp(), autocheckpoint(), syncTrade()}
}

// accounts is the scenarios' schema: 1,000 accounts, each a balance.
const accounts = `CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL);
INSERT INTO acct (id, bal) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, 0 FROM n;
`

// deposit is a write: one account's balance, in a transaction of its own.
const deposit = `\set id random(1, 1000)
UPDATE acct SET bal = bal + 1 WHERE id = :id;
`

// lookup is a read: one account's balance.
const lookup = `\set id random(1, 1000)
SELECT bal FROM acct WHERE id = :id;
`

// report is a long read on worker 0 (a quick one on every other): the
// sum of the balances before and after some 100,000 steps of work, in
// one read transaction when begin is set, each statement its own
// otherwise. The work reads no table, so without the transaction no
// snapshot is held while it runs.
func report(begin bool) string {
	const work = `\set long 1 - least(:client_id, 1)
%sSELECT sum(bal) FROM acct;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000 * :long) SELECT count(*) FROM c;
SELECT sum(bal) FROM acct;
%s`
	if begin {
		return fmt.Sprintf(work, "BEGIN;\n", "COMMIT;\n")
	}
	return fmt.Sprintf(work, "", "")
}

// sqlPlan returns a scenario's template: its scripts (file name, text,
// weight) on the accounts, ops per worker or a duration.
func sqlPlan(ops int64, d time.Duration, scripts ...workload.SQLFile) workload.Plan {
	p := workload.DefaultPlan()
	p.Preload = 0
	p.OnError = workload.OnErrorContinue
	w := sqlOf(scripts...)
	p.SQL = w
	p.Phases[0] = workload.Phase{Name: "sql", Mix: w.Mix(), Ops: ops, Duration: workload.Duration(d), Batch: 1}
	return p
}

// sqlOf returns a sql workload of the scripts on the accounts.
func sqlOf(scripts ...workload.SQLFile) *workload.SQL {
	return sqlOn(workload.NewSQLFile("accounts.sql", accounts, 1), scripts...)
}

// sqlOn returns a sql workload of the scripts on schema.
func sqlOn(schema workload.SQLFile, scripts ...workload.SQLFile) *workload.SQL {
	return &workload.SQL{Scripts: scripts, Schema: &schema, Scale: 1}
}

// appSchema is the accounts beside an application's other tables: n
// more, each with an index, every one of them parsed by a connection's
// first statement.
func appSchema(n int) workload.SQLFile {
	var b strings.Builder
	b.WriteString(accounts)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "CREATE TABLE t%03d (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL REFERENCES acct (id), name TEXT NOT NULL, created INTEGER NOT NULL, note TEXT, CHECK (created > 0));\n", i)
		fmt.Fprintf(&b, "CREATE INDEX t%03d_owner ON t%03d (owner, created);\n", i, i)
	}
	return workload.NewSQLFile("app.sql", b.String(), 1)
}

// transfer is a read-then-write transaction that begins as begin says.
func transfer(begin string) workload.SQLFile {
	return workload.NewSQLFile("transfer.sql", `\set id random(1, 1000)
`+begin+`;
SELECT bal FROM acct WHERE id = :id;
UPDATE acct SET bal = bal + 1 WHERE id = :id;
COMMIT;
`, 1)
}

func deferredBegin() *Scenario {
	return &Scenario{
		Name:  "deferred-begin",
		Title: "read-then-write transactions under BEGIN fail busy at once, whatever the busy timeout; BEGIN IMMEDIATE waits its turn",
		Takes: 5 * time.Second,
		Doc:   "https://www.sqlite.org/lang_transaction.html",
		About: `A deferred BEGIN starts a reader. Its first write must upgrade to the write
lock; when another connection holds it (or, in WAL, has committed since this
transaction's snapshot), waiting could deadlock, so SQLite returns
SQLITE_BUSY at once without calling the busy handler (SQLITE_BUSY_SNAPSHOT in
WAL). BEGIN IMMEDIATE takes the write lock first and waits for it as the busy
timeout says.`,
		Plan:     sqlPlan(200, 0, transfer("BEGIN")),
		Procs:    4,
		MinProcs: 2,
		Settings: map[string]string{"journal": "rollback,wal", "sync": "off", "busy-timeout": "30s"},
		Cases: []Case{
			{Name: "deferred", Pitfall: true, SQL: sqlOf(transfer("BEGIN"))},
			{Name: "immediate", Fix: true, SQL: sqlOf(transfer("BEGIN IMMEDIATE"))},
		},
		Expect: []string{"deferred: busy errors >= 1", "immediate: busy errors == 0"},
		Finding: `Transactions that read, then write, begun with a deferred BEGIN failed busy
{busy errors@deferred} times, the busy timeout never asked to wait
({transfer ops/s@deferred} succeeded a second); begun with BEGIN IMMEDIATE,
{busy errors@immediate} failed ({transfer ops/s@immediate} a second). Write
BEGIN IMMEDIATE for every transaction that may write.`,
	}
}

func readerBlocksWriter() *Scenario {
	w := sqlOf(workload.NewSQLFile("write.sql", deposit, 1), workload.NewSQLFile("report.sql", report(true), 1))
	return &Scenario{
		Name:  "reader-blocks-writer",
		Title: "in the rollback journal a reader's SHARED lock keeps the writer's commit waiting; in WAL it does not",
		Takes: 8 * time.Second,
		Doc:   "https://www.sqlite.org/lockingv3.html",
		About: `In the rollback journal a writer must hold the EXCLUSIVE lock to write its
changes into the database, and cannot get it while any reader holds SHARED:
it takes PENDING (no new readers) and waits for the readers to leave, its
busy handler sleeping. A long read transaction delays every commit. In WAL
readers read their snapshot while the writer appends to the log.`,
		Plan:     sqlPlan(0, 3*time.Second, w.Scripts...),
		Procs:    2,
		MinProcs: 2,
		Settings: map[string]string{"sync": "off"},
		Cases: []Case{
			{Name: "rollback-journal", Pitfall: true, Settings: map[string]string{"journal": "rollback"}},
			{Name: "wal-journal", Fix: true, Settings: map[string]string{"journal": "wal"}},
		},
		Expect: []string{"write mean: rollback-journal >= 5x wal-journal"},
		Finding: `With worker 0 in read transactions back to back (the longest
{report max@rollback-journal}), writes in the rollback journal took {write mean@rollback-journal} on
average, p99 {write p99@rollback-journal} (max {write max@rollback-journal}): the
writer waits for every reader to leave. In WAL they took {write mean@wal-journal},
p99 {write p99@wal-journal} (max {write max@wal-journal}): readers keep no writer
waiting.`,
	}
}

func checkpointStarvation() *Scenario {
	return &Scenario{
		Name:  "checkpoint-starvation",
		Title: "a long-running reader keeps WAL checkpoints from completing, and the WAL grows; short read transactions let them finish",
		Takes: 8 * time.Second,
		Doc:   "https://www.sqlite.org/wal.html#avoiding_excessively_large_wal_files",
		About: `A checkpoint copies the WAL's pages into the database, but only up to the
oldest snapshot a reader still uses, and the WAL starts over only when a
checkpoint has copied all of it. A reader that keeps a read transaction
open (and another that opens before it ends) stops every checkpoint
short: the WAL grows without bound, and reads that must search it slow
down. Short read transactions leave gaps where a checkpoint completes.`,
		Plan:     sqlPlan(0, 3*time.Second, workload.NewSQLFile("write.sql", deposit, 20), workload.NewSQLFile("report.sql", report(true), 1)),
		Procs:    2,
		MinProcs: 2,
		Settings: map[string]string{"sync": "normal"},
		Cases: []Case{
			{Name: "long-reads", Pitfall: true, Settings: map[string]string{"journal": "wal"},
				SQL: sqlOf(workload.NewSQLFile("write.sql", deposit, 20), workload.NewSQLFile("report.sql", report(true), 1))},
			{Name: "short-reads", Fix: true, Settings: map[string]string{"journal": "wal"},
				SQL: sqlOf(workload.NewSQLFile("write.sql", deposit, 20), workload.NewSQLFile("report.sql", report(false), 1))},
		},
		Expect: []string{"wal peak: long-reads >= 4x short-reads", "short-reads: wal resets >= 1"},
		Finding: `With one worker's read transactions back to back, the WAL grew to
{wal peak@long-reads} and started over {wal resets@long-reads} times; the same
reads as statements of their own let checkpoints complete: the WAL peaked at
{wal peak@short-reads} and started over {wal resets@short-reads} times.
Writes: {write ops/s@long-reads}/s against {write ops/s@short-reads}/s.`,
	}
}

func busyBarging() *Scenario {
	p := workload.DefaultPlan()
	p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(3*time.Second)
	p.Keys.Count, p.Preload = 1000, 1000
	return &Scenario{
		Name:  "busy-barging",
		Title: "25 processes in the rollback journal, each sleeping in SQLite's busy handler while others barge in and take the lock: a few are served, the rest starve; in WAL readers no longer wait",
		Takes: 35 * time.Second,
		Doc:   "https://www.sqlite.org/c3ref/busy_timeout.html",
		About: `SQLite's busy handler (busy_timeout) waits for a lock by sleeping, 1 ms
at first and up to 100 ms at a time, and tries again when it wakes. Nobody
queues: a process that wakes while the lock is free takes it, and the one
that just released it, still running, often takes it back at once. In the
rollback journal every commit locks out readers and writers alike, so at
25 processes a few are served and the rest sleep, some for seconds. In WAL
readers read through commits (its writers still wait for each other in
the same handler); gobench's retry policy (--busy retry) backs off from
100 µs to at most 10 ms, so a waiting process is back within 10 ms: the
rollback journal serves its workers more evenly, though readers then wait
more.`,
		Plan:     p,
		Procs:    25,
		MinProcs: 8,
		Settings: map[string]string{"sync": "full"},
		Cases: []Case{
			{Name: "sleeping-handler", Pitfall: true, Busy: workload.BusyTimeout, Settings: map[string]string{"journal": "rollback"}},
			{Name: "wal-journal", Fix: true, Busy: workload.BusyTimeout, Settings: map[string]string{"journal": "wal"}},
			{Name: "retry", Busy: workload.BusyRetry, Settings: map[string]string{"journal": "rollback"}},
		},
		Expect: []string{"read mean: sleeping-handler >= 10x wal-journal", "fairness: retry >= 1.2x sleeping-handler"},
		Finding: `With SQLite's sleeping busy handler in the rollback journal, 25 processes
of the 95/5 read/write mix were served unevenly: fairness
{fairness@sleeping-handler} (Jain's index: 1 when all are served alike), one
worker {worker max gap@sleeping-handler} without completing an op, reads
{read mean@sleeping-handler} on average (p99 {read p99@sleeping-handler}),
{total ops/s@sleeping-handler} ops/s in all. In WAL, readers never wait for a
writer: reads {read mean@wal-journal} on average (p99 {read p99@wal-journal}),
{total ops/s@wal-journal} ops/s, fairness {fairness@wal-journal} (its writers
still sleep in the handler: writes p99 {upsert p99@wal-journal}). In the
rollback journal with gobench's retry policy, which backs off to at most
10 ms: fairness {fairness@retry}, reads {read mean@retry} on average (p99
{read p99@retry}), {total ops/s@retry} ops/s.`,
	}
}

func blockingLocks() *Scenario {
	p := workload.DefaultPlan()
	p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(3*time.Second)
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 80}, {Op: workload.OpUpsert, Percent: 20}}
	p.Keys.Count, p.Preload = 1000, 1000
	cell := func(journal, wait string) map[string]string {
		return map[string]string{"journal": journal, "lock-wait": wait}
	}
	return &Scenario{
		Name:  "blocking-locks",
		Title: "SQLite's sleeping busy handler against blocking locks (SQLITE_ENABLE_SETLK_TIMEOUT, sqlite3_setlk_timeout), in WAL and the rollback journal, at 8 and 25 processes",
		Takes: 3 * time.Minute,
		Doc:   "https://www.sqlite.org/c3ref/setlk_timeout.html",
		About: `SQLite's busy handler waits for a lock by sleeping (1 ms at first, up to
100 ms at a time) and trying again: nobody queues, and a writer that wakes
late finds the lock taken again. SQLite 3.50 added blocking locks: built
with SQLITE_ENABLE_SETLK_TIMEOUT, a connection given sqlite3_setlk_timeout
asks its VFS to wait for a WAL database's locks (SQLITE_FCNTL_LOCK_TIMEOUT)
instead, woken when the lock is free. SQLite applies them to WAL databases
only; the rollback journal is the control. Whether the wait happens in the
kernel is the VFS's: SQLite 3.53's unix VFS, outside SQLite's own test
builds, still tries the lock once without blocking (a placeholder in
osSetPosixAdvisoryLock) and the busy handler waits as before, so on Linux
the two cells are expected alike. The scenario builds that SQLite (mattn's,
with --sqlite-define) once into a cached worker executable, so it runs in
process mode, on the mattn or capi driver.`,
		Named:     true,
		Plan:      p,
		Procs:     8,
		MoreProcs: []int{25},
		MinProcs:  4,
		Settings:  map[string]string{"sync": "full", "sqlite-define": "SQLITE_ENABLE_SETLK_TIMEOUT"},
		Cases: []Case{
			{Name: "handler-wal", Pitfall: true, Busy: workload.BusyTimeout, Settings: cell("wal", "busy-handler")},
			{Name: "blocking-wal", Fix: true, Busy: workload.BusyTimeout, Settings: cell("wal", "blocking")},
			{Name: "handler-rollback", Busy: workload.BusyTimeout, Settings: cell("rollback", "busy-handler")},
			{Name: "blocking-rollback", Busy: workload.BusyTimeout, Settings: cell("rollback", "blocking")},
		},
		Expect: []string{"upsert p99: handler-wal >= 1.2x blocking-wal"},
		Finding: `In WAL with the busy handler, {total ops/s@handler-wal} ops/s, writes p99
{upsert p99@handler-wal} and max {upsert max@handler-wal}, fairness
{fairness@handler-wal}, a worker {worker max gap@handler-wal} without
completing an op, {busy errors@handler-wal} busy errors; with blocking locks,
{total ops/s@blocking-wal} ops/s, writes p99 {upsert p99@blocking-wal} and max
{upsert max@blocking-wal}, fairness {fairness@blocking-wal}, a worker
{worker max gap@blocking-wal} unserved, {busy errors@blocking-wal} busy
errors. In the rollback journal, where SQLite keeps the busy handler either
way: {total ops/s@handler-rollback} against {total ops/s@blocking-rollback}
ops/s, fairness {fairness@handler-rollback} against
{fairness@blocking-rollback}.`,
	}
}

func connectionPerOp() *Scenario {
	const tables = 100
	read, write := workload.NewSQLFile("read.sql", lookup, 19), workload.NewSQLFile("write.sql", deposit, 1)
	return &Scenario{
		Name:  "connection-per-op",
		Title: "a connection opened for every operation pays the open, its settings and the schema's parse each time; a connection kept pays them once",
		Takes: 15 * time.Second,
		Doc:   "https://www.sqlite.org/c3ref/open.html",
		About: `Opening a SQLite connection is cheap, but it is not all: the settings an
application gives every connection (journal mode, synchronous, busy
timeout) run again, and the first statement of a new connection reads and
parses the whole schema (every CREATE statement in sqlite_schema) before
it can be prepared; in WAL the connection also maps the WAL index. A
connection kept open does this once and keeps its prepared statements.`,
		Plan:     sqlPlan(300, 0, read, write),
		Procs:    2,
		MinProcs: 1,
		Settings: map[string]string{"journal": "rollback,wal", "sync": "normal"},
		Cases: []Case{
			{Name: "per-op", Pitfall: true, ConnPerOp: true, SQL: sqlOn(appSchema(tables), read, write)},
			{Name: "per-op-one-table", ConnPerOp: true, SQL: sqlOf(read, write)},
			{Name: "kept", Fix: true, SQL: sqlOn(appSchema(tables), read, write)},
		},
		Expect: []string{"read p50: per-op >= 5x kept"},
		Finding: fmt.Sprintf(`A read of one row by its key, on a connection opened for it in a schema
of %d tables (each with an index) beside the one it reads, took {read p50@per-op}
(median), {cpu µs/op@per-op} of processor time per op; with the one table
alone, {read p50@per-op-one-table} ({cpu µs/op@per-op-one-table} CPU): the
difference is the schema's parse. On a connection kept open it took
{read p50@kept} ({cpu µs/op@kept} CPU).`, tables),
	}
}

func autocheckpoint() *Scenario {
	return &Scenario{
		Name:  "autocheckpoint",
		Title: "wal_autocheckpoint off lets the WAL grow without bound; 1000 pages (the default) or 10000 trade write speed for WAL size",
		Takes: 10 * time.Second,
		Doc:   "https://www.sqlite.org/pragma.html#pragma_wal_autocheckpoint",
		About: `After a commit leaves the WAL longer than wal_autocheckpoint pages, the
committing connection checkpoints it, and that commit pays for the copy.
Turned off, nothing checkpoints until the last connection closes: the WAL
only grows, and with it what reads must search. A larger threshold
checkpoints less often, in bigger pieces.`,
		Plan:     sqlPlan(0, 3*time.Second, workload.NewSQLFile("write.sql", deposit, 1), workload.NewSQLFile("read.sql", lookup, 1)),
		Procs:    1,
		MinProcs: 1,
		Settings: map[string]string{"sync": "normal"},
		Cases: []Case{
			{Name: "never", Pitfall: true, Settings: map[string]string{"journal": "wal", "checkpoint": "off"}},
			{Name: "every-1000", Fix: true, Settings: map[string]string{"journal": "wal", "checkpoint": "1000"}},
			{Name: "every-10000", Settings: map[string]string{"journal": "wal", "checkpoint": "10000"}},
		},
		Expect: []string{"wal peak: never >= 4x every-1000", "every-1000: wal resets >= 1"},
		Finding: `With automatic checkpoints off the WAL grew to {wal peak@never}
({write ops/s@never} writes/s, read p99 {read p99@never}); at 1000 pages it
peaked at {wal peak@every-1000} ({write ops/s@every-1000} writes/s, read p99
{read p99@every-1000}), at 10000 pages at {wal peak@every-10000}
({write ops/s@every-10000} writes/s, read p99 {read p99@every-10000}).`,
	}
}

func syncTrade() *Scenario {
	p := workload.DefaultPlan()
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 50}, {Op: workload.OpUpsert, Percent: 50}}
	p.Phases[0].Ops = 500
	p.Keys.Count, p.Preload = 1000, 1000
	p.Crash = &workload.Crash{States: 20, Model: store.CrashLose, RecordLimit: workload.DefaultRecordLimit}
	p.Verify = true
	return &Scenario{
		Name:  "sync-trade",
		Title: "WAL with synchronous=NORMAL is faster than FULL, and a power cut takes the writes acknowledged since the last checkpoint",
		Takes: 20 * time.Second,
		Doc:   "https://www.sqlite.org/pragma.html#pragma_synchronous",
		About: `In WAL mode synchronous=FULL syncs the WAL at every commit; NORMAL syncs
it only at checkpoints. NORMAL is much faster and never corrupts the
database, but a commit acknowledged since the last sync is lost when the
power goes. gobench records every write and sync of the run, simulates
power cuts at seeded points and checks each state for acknowledged writes.`,
		Plan:     p,
		Procs:    2,
		MinProcs: 1,
		Cases: []Case{
			{Name: "sync-normal", Pitfall: true, Settings: map[string]string{"journal": "wal", "sync": "normal"}},
			{Name: "sync-full", Fix: true, Settings: map[string]string{"journal": "wal", "sync": "full"}},
		},
		Expect: []string{"sync-normal: lossy states >= 1", "sync-full: lossy states == 0", "commits ops/s: sync-normal >= 1.5x sync-full"},
		Finding: `At synchronous=NORMAL {lossy states@sync-normal} of the simulated power cuts
lost acknowledged writes, up to {lost acked writes@sync-normal} in one, at
{commits ops/s@sync-normal} commits/s; at FULL {lossy states@sync-full} did,
at {commits ops/s@sync-full} commits/s.`,
	}
}
