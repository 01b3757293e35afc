// Package badger is gobench's badger engine (github.com/dgraph-io/badger/v4),
// registered as "badger". It is pure Go.
//
// # Files
//
// The database (--db) is a directory: gobench.marker marks it as
// gobench's (Init refuses any other non-empty directory, and a file), and
// badger keeps its own files in the directory badger/ inside it: LOCK
// (its process id), MANIFEST, KEYREGISTRY, DISCARD, the memtables' logs
// (*.mem), the value log (*.vlog) and the tables (*.sst). Badger locks
// badger/ with flock; gobench's own run lock is on --db, so the two do
// not meet. Init removes badger/ (holding its lock), so every run starts
// from a new database. Key-value data lives under 'k' + 8-byte big-endian
// key, records under 'r' + their text key, each one value
// (store.AppendRecord).
//
// # Sharing
//
// Badger flocks its directory when it opens it, so one process at a time
// has it (store.ShareProcess).
//
// # Durability
//
// Every write outside a batch is its own read-write transaction, a batch
// one transaction; badger's writer groups the commits of concurrent
// transactions (its group commit). --sync full sets SyncWrites: a commit
// returns once its log is msynced (badger's memtable log is a memory
// map). normal and off leave SyncWrites false, badger's default: written,
// not synced ("survives process crashes", not a power cut); badger has no
// level below that. Conflicting transactions (one read a key another
// wrote after it started) fail at commit with badger's ErrConflict, class
// busy.
//
// # Memory
//
// Badger's own defaults (five 64 MiB memtables, a 256 MiB block cache, 1
// GiB value log files) are bounded here: two memtables of
// --badger-memtable MiB (16), a --badger-cache MiB block cache (32), 64
// MiB value log files, two compactors.
package badger
