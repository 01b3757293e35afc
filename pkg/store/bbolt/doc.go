// Package bbolt is gobench's bbolt engine (go.etcd.io/bbolt), registered
// as "bbolt". It is pure Go.
//
// # Files
//
// The database (--db) is one bbolt file; bbolt keeps nothing beside it.
// In it, bucket "gobench" marks the file as gobench's (Init refuses any
// other file: another program's bbolt file, a SQLite database, a
// directory), bucket "kv" holds the key-value data under 8-byte
// big-endian keys (so keys sort numerically), and bucket "records" the
// record table, if any, each record one value (store.AppendRecord) under
// its text key.
//
// # Sharing
//
// bbolt takes an exclusive flock on the file when it opens it, so one
// process at a time has it (store.ShareProcess): a run's workers are
// goroutines of the process that opened it. Where bbolt itself would wait
// for the lock forever, Open gives up after a second: a database another
// process holds is refused, naming the file.
//
// # Durability
//
// Every write outside a batch is its own read-write transaction
// (DB.Update), acknowledged when its commit returned; a batch is one
// transaction. A commit writes the dirty pages and syncs the file, then
// writes the meta page and syncs again: two fdatasyncs on Linux
// (F_FULLFSYNC on macOS, fsync elsewhere). --sync off sets NoSync (no
// sync at all); bbolt has no cheaper sync, so --sync normal is full.
// --bbolt-batch sends writes through DB.Batch, bbolt's group commit:
// writes of concurrent workers share one transaction, and each is
// acknowledged when that commit returned.
package bbolt
