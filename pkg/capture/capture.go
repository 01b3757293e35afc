package capture

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// EnvDir names the environment variable gobench capture sets to the
// directory where each captured process leaves its part of the trace.
const EnvDir = "GOBENCH_CAPTURE_DIR"

// Capture records the statements of the connections its drivers and
// connectors open, into one trace. It is safe for concurrent use. A
// recording that fails (a full disk) never fails the application: the
// Capture stops recording, and Close returns the error.
type Capture struct {
	w    *sqltrace.Writer
	out  io.WriteCloser
	proc *sqltrace.Stream // this process's records
	own  *sqltrace.Stream // the capture's own (standalone only)
	dir  string           // the capture's directory (part mode), or ""
	tmp  string           // where snapshots are taken (standalone mode)

	mono0 int64     // the monotonic clock at t0
	t0    time.Time // with Go's monotonic reading

	conns atomic.Uint64
	// The order of commits (sqltrace.StateSeq): order numbers the
	// commits, done counts those complete, inflight those under way.
	order, done atomic.Uint64
	inflight    atomic.Int64

	mu       sync.Mutex
	dbs      map[string]*database // by path
	versions map[string]bool      // the SQLite versions noted in the trace
	err      error                // the first recording error
	closed   bool
}

// database is one database file the capture has seen opened.
type database struct {
	id    uint64
	ready chan struct{} // closed once its snapshot is taken (or failed)
	// digest reads its content (at Close, in standalone mode).
	digest func() ([]sqltrace.TableDigest, error)
}

// Create starts a capture that writes a whole trace to a new file at path.
func Create(path string) (*Capture, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".capture-")
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("capture: %w", err)
	}
	c, err := start(f, 1)
	if err != nil {
		f.Close()
		os.RemoveAll(tmp)
		return nil, err
	}
	c.tmp, c.own = tmp, c.w.Stream(0)
	return c, nil
}

// FromEnv starts a capture that writes this process's part of the trace
// gobench capture is taking, when the process runs under it (EnvDir is
// set), and otherwise a whole trace at path, as Create does.
func FromEnv(path string) (*Capture, error) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		return Create(path)
	}
	f, err := createPart(dir)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	c, err := start(f, 0)
	if err != nil {
		f.Close()
		return nil, err
	}
	c.dir = dir
	return c, nil
}

// createPart creates a new part file in dir: part-PID-N.trace, as the C
// library names its own.
func createPart(dir string) (*os.File, error) {
	for n := 0; ; n++ {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("part-%d-%d.trace", os.Getpid(), n)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, os.ErrExist) || n > 1000 {
			return f, err
		}
	}
}

// start writes the trace's header and this process's first record.
func start(f io.WriteCloser, stream uint64) (*Capture, error) {
	w, err := sqltrace.NewWriter(f)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	c := &Capture{w: w, out: f, proc: w.Stream(stream), dbs: map[string]*database{}, t0: time.Now(), mono0: monotonic()}
	c.write(&sqltrace.Record{Kind: sqltrace.KindProcess, Process: sqltrace.Process{
		PID: uint64(os.Getpid()), PPID: uint64(os.Getppid()), Wall: c.t0.UnixNano(), Mono: c.mono0,
		Command: truncate(strings.Join(os.Args, " "), sqltrace.MaxString),
	}})
	return c, c.err
}

// now is the monotonic clock, in the trace's nanoseconds.
func (c *Capture) now() int64 { return c.mono0 + int64(time.Since(c.t0)) }

// at converts a time.Time taken with time.Now to the trace's clock.
func (c *Capture) at(t time.Time) int64 { return c.mono0 + int64(t.Sub(c.t0)) }

// write records r in this process's stream; after the first error it
// records nothing.
func (c *Capture) write(r *sqltrace.Record) {
	c.mu.Lock()
	failed := c.err != nil || c.closed
	c.mu.Unlock()
	if failed {
		return
	}
	if err := c.proc.Write(r); err != nil {
		c.fail(err)
	}
}

// noteVersion notes in the trace, once, that the process's statements
// run on SQLite version ("" notes nothing).
func (c *Capture) noteVersion(version string) {
	c.mu.Lock()
	noted := version == "" || c.versions[version]
	if !noted {
		if c.versions == nil {
			c.versions = map[string]bool{}
		}
		c.versions[version] = true
	}
	c.mu.Unlock()
	if !noted {
		c.write(&sqltrace.Record{Kind: sqltrace.KindNote, Note: sqltrace.VersionNote(version)})
	}
}

func (c *Capture) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = fmt.Errorf("capture: recording: %w", err)
	}
	c.mu.Unlock()
}

// Close writes what is left of the trace and closes its file. Close the
// application's databases first: statements that run afterwards are not
// recorded.
func (c *Capture) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return c.err
	}
	c.closed = true
	c.mu.Unlock()
	var err error
	if c.dir != "" {
		err = c.proc.Flush() // a part has no end marker: gobench capture merges the parts
	} else {
		c.digests()
		err = c.w.Close()
	}
	err = errors.Join(c.err, err, c.out.Close())
	if c.tmp != "" {
		os.RemoveAll(c.tmp)
	}
	return err
}

// digests records each database's content at the end of the capture,
// read on a connection of the capture's own (standalone mode).
func (c *Capture) digests() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for path, d := range c.dbs {
		if path == "" || d.digest == nil || c.err != nil {
			continue
		}
		g := sqltrace.Digest{DB: d.id, Time: c.now()}
		tables, err := d.digest()
		if err != nil {
			g.Error = truncate(err.Error(), 1000)
		}
		g.Tables = tables
		if err := c.own.Write(&sqltrace.Record{Kind: sqltrace.KindDigest, Digest: g}); err != nil {
			c.err = err
		}
	}
}

// Driver returns a driver that opens d's connections and records what
// runs on them. Register it under a name of its own:
//
//	sql.Register("sqlite3-captured", c.Driver(&sqlite3.SQLiteDriver{}))
func (c *Capture) Driver(d driver.Driver) driver.Driver { return &capDriver{c: c, d: d} }

// Connector returns a connector that opens k's connections and records
// what runs on them, for sql.OpenDB.
func (c *Capture) Connector(k driver.Connector) driver.Connector {
	return &connector{c: c, k: k, d: &capDriver{c: c, d: k.Driver()}}
}

// opened records a connection opened to the database at path (found by
// pathOf on a connection of its own, see connector), taking the
// database's snapshot first if this is the first connection to it.
func (c *Capture) opened(ctx context.Context, path string, snap func(dest string) error, digest func() ([]sqltrace.TableDigest, error)) (conn, db uint64) {
	c.mu.Lock()
	d, ok := c.dbs[path]
	if !ok {
		d = &database{id: uint64(len(c.dbs) + 1), ready: make(chan struct{}), digest: digest}
		c.dbs[path] = d
	}
	c.mu.Unlock()
	if !ok {
		c.write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: d.id, Path: path}})
		c.snapshot(ctx, d, path, snap)
		close(d.ready)
	}
	select {
	case <-d.ready:
	case <-ctx.Done():
	}
	conn = c.conns.Add(1)
	return conn, d.id
}
