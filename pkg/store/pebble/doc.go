// Package pebble is gobench's pebble engine (github.com/cockroachdb/pebble/v2),
// registered as "pebble". It is pure Go.
//
// # Files
//
// The database (--db) is a directory: gobench.marker marks it as
// gobench's (Init refuses any other non-empty directory, and a file), and
// beside it pebble keeps its own: LOCK, MANIFEST-*, OPTIONS-*, the
// write-ahead log (*.log), the tables (*.sst) and its marker.* files. Init
// empties the directory but for the marker, so every run starts from a new
// database. Key-value data lives under the keys 'k' + 8-byte big-endian
// key (they sort numerically), records under 'r' + their text key, each
// one value (store.AppendRecord).
//
// # Sharing
//
// pebble takes an fcntl lock on LOCK when it opens the directory, so one
// process at a time has it (store.ShareProcess).
//
// # Durability
//
// A write outside a batch is one pebble batch committed with the run's
// write options; a batch of ops is one pebble batch (indexed, so its reads
// see its writes). --sync full commits with pebble.Sync (the WAL is
// fdatasynced before the commit returns), normal with pebble.NoSync (the
// WAL is written, not synced), off disables the WAL (DisableWAL: a crash
// loses what no flush wrote). Every file goes through gobench's vfs.FS,
// which counts the writes and syncs each commit causes (store.IOTracer).
//
// pebble has no transactions: an insert, update, delete or
// read-modify-write that reads before it writes holds one of 256 locks
// (by key) of the process while it does, so two workers cannot interleave
// on one key; inside a batch, reads see the batch but no lock is held.
package pebble
