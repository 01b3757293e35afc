package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"

	"github.com/gobench/gobench/pkg/store"
)

var _ store.WALObserver = (*db)(nil)

// WALState reads the -wal file's size and, from its header, the checkpoint
// sequence number, which SQLite increments each time a writer restarts
// the log after a complete checkpoint. A WAL that does not exist yet is
// empty.
func (s *db) WALState() (bytes int64, resets uint32, ok bool) {
	if s.opts.Memory || journalModes[s.opts.Journal] != "wal" {
		return 0, 0, false
	}
	f, err := os.Open(s.path + "-wal")
	if err != nil {
		return 0, 0, true
	}
	defer f.Close()
	var h [16]byte
	if fi, err := f.Stat(); err == nil {
		bytes = fi.Size()
	}
	if n, _ := f.ReadAt(h[:], 0); n == len(h) {
		resets = binary.BigEndian.Uint32(h[12:]) // bytes 12-15: checkpoint sequence number
	}
	return bytes, resets, true
}

var _ store.Checker = (*db)(nil)

// Check runs PRAGMA integrity_check; cancelling ctx stops it.
func (s *db) Check(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := s.open("rw")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	defer c.interruptible(ctx)()
	v, err := c.queryString("PRAGMA integrity_check(1)")
	if err != nil {
		return nil, interrupted(ctx, s.d.wrap(err))
	}
	if v == "ok" {
		return nil, nil
	}
	return []string{v}, nil
}

// Describe reads back, on a connection configured like the workers', the
// SQLite version and the settings in force.
func (s *db) Describe(_ context.Context) ([]store.Fact, error) {
	c, err := s.open("rw")
	if err == nil {
		err = s.opsBusyTimeout(c)
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	facts := []store.Fact{{Name: "driver", Value: s.d.name}}
	if s.opts.API == APIBlob {
		facts = append(facts, store.Fact{Name: "api", Value: "blob (incremental blob I/O)"})
	}
	if _, ok := s.d.be.(loopBackend); ok {
		v := "on: a worker's closed-loop reads and upserts run many to a call into C (up to 4096; 256 in a phase of a duration), each timed in C"
		if s.opts.NoCLoop {
			v = "off: one call into C per op"
		}
		facts = append(facts, store.Fact{Name: "c_loop", Value: v})
	}
	facts = append(facts, s.traceFact(), store.Fact{Name: store.FactSyncPrimitive, Value: syncPrimitive(s.d.name)})
	if h, ok := s.d.be.(countingBackend); ok && s.opts.BusyTimeoutMS > 0 {
		facts = append(facts, store.Fact{Name: "busy_handler", Value: h.busyHandler()})
	}
	if s.opts.LockWait == LockWaitBlocking {
		facts = append(facts, store.Fact{Name: "lock_wait", Value: fmt.Sprintf("blocking: sqlite3_setlk_timeout(%d ms) on each op connection", s.opts.BusyTimeoutMS)})
	}
	for _, q := range []struct{ name, sql string }{
		{"sqlite_version", "SELECT sqlite_version()"},
		{"sqlite_source_id", "SELECT sqlite_source_id()"},
		{"journal_mode", "PRAGMA journal_mode"},
		{"synchronous", "PRAGMA synchronous"},
		{"busy_timeout_ms", "PRAGMA busy_timeout"},
		{"page_size", "PRAGMA page_size"},
		{"locking_mode", "PRAGMA locking_mode"},
		{"cache_size", "PRAGMA cache_size"},
		{"mmap_size", "PRAGMA mmap_size"},
		{"wal_autocheckpoint", "PRAGMA wal_autocheckpoint"},
		{"journal_size_limit", "PRAGMA journal_size_limit"},
		{"temp_store", "PRAGMA temp_store"},
		{"auto_vacuum", "PRAGMA auto_vacuum"},
		{"foreign_keys", "PRAGMA foreign_keys"},
		{"compile_options", "SELECT group_concat(compile_options, ' ') FROM pragma_compile_options"},
	} {
		v, err := c.queryString(q.sql)
		if err != nil {
			return nil, fmt.Errorf("describing %s: %s: %w", s.path, q.sql, s.d.wrap(err))
		}
		if q.name == "synchronous" {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < len(SyncLevels()) {
				v = SyncLevels()[n]
			}
		}
		facts = append(facts, store.Fact{Name: q.name, Value: v})
	}
	return facts, nil
}
