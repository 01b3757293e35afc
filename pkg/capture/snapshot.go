package capture

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Snapshots in a capture's directory, shared by every process of the
// capture and by the C library: the first process to open a database
// creates snap-HASH.lock, writes snap-HASH.db and then creates
// snap-HASH.done (or snap-HASH.err, holding why it failed); the others
// wait for one of those before their first statement runs. HASH is the
// FNV-1a hash of the database's path, in 16 hex digits.

// snapName is the base name of a database's snapshot files.
func snapName(path string) string {
	h := fnv.New64a()
	io.WriteString(h, path)
	return fmt.Sprintf("snap-%016x", h.Sum64())
}

// snapWait bounds how long a process waits for another's snapshot.
const snapWait = 10 * time.Minute

// snapshot takes the snapshot of the database at path, as it is before
// any statement of the application runs on it, with snap (which writes a
// copy of the database to dest), and records where it is.
func (c *Capture) snapshot(ctx context.Context, d *database, path string, snap func(dest string) error) {
	if c.dir == "" {
		c.embed(ctx, d, snap)
		return
	}
	base := filepath.Join(c.dir, snapName(path))
	lock, err := os.OpenFile(base+".lock", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		waitSnapshot(ctx, base) // another process takes it
		return
	}
	rec := sqltrace.SnapFile{DB: d.id, File: filepath.Base(base) + ".db", Time: c.now()}
	if err == nil {
		lock.Close()
		err = snap(base + ".db")
	}
	if err != nil {
		rec.Error = truncate(err.Error(), 1000)
		err = os.WriteFile(base+".err", []byte(rec.Error), 0o644)
	} else {
		err = os.WriteFile(base+".done", nil, 0o644)
	}
	if err != nil {
		c.fail(err)
	}
	c.write(&sqltrace.Record{Kind: sqltrace.KindSnapFile, SnapFile: rec})
}

// waitSnapshot waits until the snapshot at base is done or failed.
func waitSnapshot(ctx context.Context, base string) {
	deadline := time.Now().Add(snapWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		for _, end := range []string{".done", ".err"} {
			if _, err := os.Stat(base + end); err == nil {
				return
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// embed takes a snapshot into the trace itself (standalone mode).
func (c *Capture) embed(ctx context.Context, d *database, snap func(dest string) error) {
	rec := sqltrace.Snapshot{DB: d.id, Number: d.id, Time: c.now()}
	dest := filepath.Join(c.tmp, fmt.Sprintf("snap-%d.db", d.id))
	err := snap(dest)
	if err == nil {
		var f *os.File
		if f, err = os.Open(dest); err == nil {
			var n int64
			n, err = c.w.WriteSnapshot(d.id, f)
			rec.Size = uint64(n)
			f.Close()
		}
		os.Remove(dest)
	}
	if err != nil {
		rec.Error = truncate(err.Error(), 1000)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		if werr := c.own.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: d.id, Path: c.pathOf(d)}}); werr != nil {
			c.err = werr
		} else if werr := c.own.Write(&sqltrace.Record{Kind: sqltrace.KindSnapshot, Snapshot: rec}); werr != nil {
			c.err = werr
		}
	}
}

// pathOf returns the path of a database the capture has seen; c.mu is
// held.
func (c *Capture) pathOf(d *database) string {
	for p, x := range c.dbs {
		if x == d {
			return p
		}
	}
	return ""
}

// truncate cuts s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
