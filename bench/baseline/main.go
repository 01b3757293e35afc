// Command baseline is the bare minimum of the classic SQLite concurrency
// test, for comparison with gobench: N child processes each run Q ops, 95%
// reads (SELECT * FROM kv WHERE k=?) and 5% upserts (BEGIN IMMEDIATE,
// INSERT … ON CONFLICT DO UPDATE, COMMIT) on uniformly random keys, with no
// samples, no histograms, no pipes: each child counts its ops and times
// its loop. Children start together after all have opened and prepared;
// the parent reads the monotonic clock (CLOCK_MONOTONIC, shared by the
// machine's processes) just before it releases them, each child reports
// the same clock when it finishes, and reads/s is all reads over the span
// from release to the last finish, as gobench measures it. (A child's own
// loop time would not do: on few cores, short children run one after
// another, and the slowest child's loop is far shorter than the run.)
// Each child also reports its own CPU time and context switches
// (getrusage, all its threads) from the release to its finish, summed as
// loop_cpu_us/op and loop_csw/op.
//
// -api cloop (cgo builds) is gobench's capi engine with the op loop in C:
// the child deals its ops in Go, -batch at a time, and runs each batch in
// one call into C (sqlite.RunInC), which times every op in C.
//
//	go run ./bench/baseline -driver mattn -api sql -procs 25 -queries 2000 -journal wal -sync normal
//
// See bench/baseline/README.md; c/baseline.c is the same program in C.
package main

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	msqlite "modernc.org/sqlite"
)

var drivers = map[string]driver.Driver{"modernc": &msqlite.Driver{}}

type config struct {
	driver, api, journal, sync, db string
	procs, queries, keys, child    int
	batch                          int
}

// loops are the child loops of the APIs that run their ops their own way
// (cloop, in cgo builds): each opens its connection, calls ready once it
// can start and returns the reads and writes it ran.
var loops = map[string]func(c config, ready func() error) (reads, writes int, err error){}

func main() {
	var c config
	flag.StringVar(&c.driver, "driver", "mattn", "mattn or modernc; with -api store, any of gobench's SQLite drivers (capi, ncruces too)")
	flag.StringVar(&c.api, "api", "sql", "sql (database/sql, as a typical program), driver (database/sql/driver directly), store (gobench's own engine, without its harness) or cloop (gobench's capi engine, the op loop in C)")
	flag.IntVar(&c.batch, "batch", 256, "with -api cloop: ops per call into C (0: all of a child's ops in one call)")
	flag.StringVar(&c.journal, "journal", "wal", "journal mode")
	flag.StringVar(&c.sync, "sync", "normal", "synchronous level")
	flag.IntVar(&c.procs, "procs", 25, "processes")
	flag.IntVar(&c.queries, "queries", 2000, "ops per process")
	flag.IntVar(&c.keys, "keys", 10000, "rows preloaded")
	flag.StringVar(&c.db, "db", "", "database file (default: in a new temporary directory)")
	flag.IntVar(&c.child, "child", -1, "internal: run as child process N")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	if _, ok := loops[c.api]; ok {
		if c.driver != "capi" {
			return fmt.Errorf("-api %s runs on -driver capi only", c.api)
		}
	} else if _, ok := drivers[c.driver]; !ok && c.api != "store" {
		return fmt.Errorf("unknown driver %q in this build", c.driver)
	}
	if c.child >= 0 {
		return child(c)
	}
	if c.db == "" {
		dir, err := os.MkdirTemp("", "baseline-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		c.db = filepath.Join(dir, "baseline.db")
	}
	if err := setup(c); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	type proc struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Reader
	}
	procs := make([]*proc, c.procs)
	for i := range procs {
		cmd := exec.Command(exe, "-child", strconv.Itoa(i), "-driver", c.driver, "-api", c.api, "-journal", c.journal,
			"-sync", c.sync, "-queries", strconv.Itoa(c.queries), "-keys", strconv.Itoa(c.keys), "-db", c.db,
			"-batch", strconv.Itoa(c.batch))
		cmd.Stderr = os.Stderr
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			return err
		}
		procs[i] = &proc{cmd: cmd, in: in, out: bufio.NewReader(out)}
	}
	for _, p := range procs { // wait until every child is ready
		if line, err := p.out.ReadString('\n'); err != nil || line != "ready\n" {
			return fmt.Errorf("child not ready: %q %v", line, err)
		}
	}
	start := monotonic()
	for _, p := range procs {
		io.WriteString(p.in, "go\n")
	}
	var reads, writes int
	var last, cpu, csw int64
	for _, p := range procs {
		line, err := p.out.ReadString('\n')
		if err != nil {
			return fmt.Errorf("child result: %v", err)
		}
		var r, w int
		var end, u, x int64
		if _, err := fmt.Sscan(line, &r, &w, &end, &u, &x); err != nil {
			return fmt.Errorf("child result %q: %v", line, err)
		}
		reads, writes, cpu, csw = reads+r, writes+w, cpu+u, csw+x
		last = max(last, end)
		p.cmd.Wait()
	}
	wall := time.Duration(last - start)
	api := c.api
	if c.api == "cloop" {
		api = fmt.Sprintf("cloop(batch=%d)", c.batch)
	}
	fmt.Printf("driver=%s api=%s journal=%s sync=%s procs=%d queries=%d reads/s=%.0f writes/s=%.0f wall=%.3fs loop_cpu_us/op=%.3f loop_csw/op=%.4f\n",
		c.driver, api, c.journal, c.sync, c.procs, c.queries,
		float64(reads)/wall.Seconds(), float64(writes)/wall.Seconds(), wall.Seconds(),
		float64(cpu)/float64(reads+writes), float64(csw)/float64(reads+writes))
	return nil
}

func pragmas(c config) []string {
	j := c.journal
	if j == "rollback" {
		j = "delete"
	}
	return []string{"PRAGMA busy_timeout=5000", "PRAGMA journal_mode=" + j, "PRAGMA synchronous=" + c.sync}
}

func setup(c config) error {
	if _, ok := loops[c.api]; ok || c.api == "store" {
		st, err := openStore(c, true)
		if err != nil {
			return err
		}
		return st.Close()
	}
	db := sql.OpenDB(connector{c})
	defer db.Close()
	db.SetMaxOpenConns(1)
	stmts := append(pragmas(c), "CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)")
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %v", q, err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for k := range c.keys {
		if _, err := tx.Exec("INSERT INTO kv(k,v) VALUES(?,?)", k, value(rand.New(rand.NewPCG(uint64(k), 0)))); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// connector opens connections of the chosen driver by file name.
type connector struct{ c config }

func (k connector) Connect(context.Context) (driver.Conn, error) {
	return drivers[k.c.driver].Open("file:" + k.c.db)
}
func (k connector) Driver() driver.Driver { return drivers[k.c.driver] }

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func value(r *rand.Rand) []byte {
	b := make([]byte, 64)
	fill(r, b)
	return b
}

// fill overwrites b with random characters: every upsert writes a new
// value, as gobench's do (SQLite skips a write that leaves a cell as it
// was, and the other connections would keep their page caches).
func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = alphabet[r.IntN(64)]
	}
}

// ops is one child's connection: a read and an upsert in its own
// transaction.
type ops interface {
	read(k int64) error
	upsert(k int64, v []byte) error
}

func child(c config) error {
	stdin := bufio.NewReader(os.Stdin)
	ready := func() error {
		fmt.Println("ready")
		if line, _ := stdin.ReadString('\n'); strings.TrimSpace(line) != "go" {
			return fmt.Errorf("no start")
		}
		return nil
	}
	var u0 unix.Rusage
	if loop, ok := loops[c.api]; ok {
		reads, writes, err := loop(c, func() error {
			err := ready()
			unix.Getrusage(unix.RUSAGE_SELF, &u0)
			return err
		})
		if err != nil {
			return err
		}
		report(reads, writes, &u0)
		return nil
	}
	var o ops
	var err error
	switch c.api {
	case "driver":
		o, err = openDriver(c)
	case "store":
		o, err = openStoreOps(c)
	default:
		o, err = openSQL(c)
	}
	if err != nil {
		return err
	}
	if err := ready(); err != nil {
		return err
	}
	unix.Getrusage(unix.RUSAGE_SELF, &u0)
	r := rand.New(rand.NewPCG(uint64(c.child), 1))
	val := value(r)
	reads, writes := 0, 0
	for range c.queries {
		k := int64(r.IntN(c.keys))
		if r.IntN(100) < 5 {
			fill(r, val)
			err = o.upsert(k, val)
			writes++
		} else {
			err = o.read(k)
			reads++
		}
		if err != nil {
			return err
		}
	}
	report(reads, writes, &u0)
	return nil
}

// report prints a child's result: its ops, the instant it finished, and
// the CPU time (µs) and context switches its process spent since u0.
func report(reads, writes int, u0 *unix.Rusage) {
	end := monotonic()
	var u1 unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &u1)
	cpu := u1.Utime.Nano() - u0.Utime.Nano() + u1.Stime.Nano() - u0.Stime.Nano()
	csw := u1.Nvcsw - u0.Nvcsw + u1.Nivcsw - u0.Nivcsw
	fmt.Println(reads, writes, end, cpu/1000, csw)
}

// monotonic reads CLOCK_MONOTONIC, which every process of the machine
// shares.
func monotonic() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return ts.Nano()
}

// sqlOps goes through database/sql, as a typical program does.
type sqlOps struct {
	db       *sql.DB
	get, put *sql.Stmt
	k        int64
	v        []byte
}

func openSQL(c config) (ops, error) {
	db := sql.OpenDB(connector{c})
	db.SetMaxOpenConns(1)
	for _, q := range pragmas(c) {
		if _, err := db.Exec(q); err != nil {
			return nil, err
		}
	}
	get, err := db.Prepare("SELECT * FROM kv WHERE k=?")
	if err != nil {
		return nil, err
	}
	put, err := db.Prepare("INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v")
	if err != nil {
		return nil, err
	}
	return &sqlOps{db: db, get: get, put: put}, nil
}

func (s *sqlOps) read(k int64) error { return s.get.QueryRow(k).Scan(&s.k, &s.v) }

func (s *sqlOps) upsert(k int64, v []byte) error {
	// BEGIN IMMEDIATE on the pool's one connection, as gobench does.
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v", k, v); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}

// driverOps talks to the driver's database/sql/driver interfaces directly,
// as gobench's SQLite store does.
type driverOps struct {
	get, put, begin, commit driver.Stmt
	dest                    []driver.Value
}

func openDriver(c config) (ops, error) {
	conn, err := drivers[c.driver].Open("file:" + c.db)
	if err != nil {
		return nil, err
	}
	for _, q := range pragmas(c) {
		s, err := conn.Prepare(q)
		if err != nil {
			return nil, err
		}
		rows, err := s.(driver.StmtQueryContext).QueryContext(context.Background(), nil)
		if err != nil {
			return nil, err
		}
		rows.Close()
		s.Close()
	}
	o := &driverOps{dest: make([]driver.Value, 2)}
	for _, p := range []struct {
		dst *driver.Stmt
		q   string
	}{{&o.get, "SELECT * FROM kv WHERE k=?"}, {&o.put, "INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v"},
		{&o.begin, "BEGIN IMMEDIATE"}, {&o.commit, "COMMIT"}} {
		if *p.dst, err = conn.Prepare(p.q); err != nil {
			return nil, err
		}
	}
	return o, nil
}

var bg = context.Background()

func (o *driverOps) read(k int64) error {
	rows, err := o.get.(driver.StmtQueryContext).QueryContext(bg, []driver.NamedValue{{Ordinal: 1, Value: k}})
	if err != nil {
		return err
	}
	err = rows.Next(o.dest)
	rows.Close()
	return err
}

func (o *driverOps) upsert(k int64, v []byte) error {
	if _, err := o.begin.(driver.StmtExecContext).ExecContext(bg, nil); err != nil {
		return err
	}
	if _, err := o.put.(driver.StmtExecContext).ExecContext(bg, []driver.NamedValue{{Ordinal: 1, Value: k}, {Ordinal: 2, Value: v}}); err != nil {
		return err
	}
	_, err := o.commit.(driver.StmtExecContext).ExecContext(bg, nil)
	return err
}
