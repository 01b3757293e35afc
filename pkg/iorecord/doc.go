// Package iorecord is the crash record: the file every recorded write
// (with its bytes), truncate, sync, creation, deletion and directory
// sync of a run's database files is appended to, with every
// acknowledgement of a worker, in one order across all the run's
// processes. Package crashstate rebuilds from it what a power cut at any
// point of the run would have left.
//
// Recorders append to it: the tracing VFSes under SQLite (one in C,
// package ctrace, over the SQLite that mattn's package compiles; one in
// Go over ncruces's) and the workers, who append their
// acknowledgements. Each appends an event with a single system call to
// a file opened with O_APPEND, so the kernel orders the events of every
// process of a run, and none keeps anything in memory.
//
// # The record
//
// Every event is a 32-byte little-endian header followed by its payload:
//
//	offset  size  field
//	0       4     length of the event, header included
//	4       1     kind (Kind)
//	5       1     file role (store.RoleDatabase …)
//	6       2     flags: SQLite's sync flags for a sync
//	8       4     the process id of the writer
//	12      4     zero (reserved)
//	16      8     CLOCK_MONOTONIC in nanoseconds (Go's monotonic clock)
//	24      8     the write's offset, the size a truncate cut to, or the
//	              keynum a record workload's acknowledgement names
//	32      …     a write's bytes; an acknowledgement's Ack
//
// # Order
//
// An event is appended where it cannot claim more durability than the
// kernel gave: a write, a truncate, a creation or a deletion after it
// completed; a sync, and the directory sync SQLite's unix VFS makes on a
// new journal's first sync, before it starts. So a write ahead of a sync
// in the record had completed before the sync began, and an
// acknowledgement (appended after its COMMIT returned) follows every sync
// that COMMIT waited for. A deletion and the directory sync that xDelete
// makes right after it are appended together once xDelete returns: SQLite
// deletes and creates a journal only under its write lock, so no other
// process's directory change falls between them.
package iorecord
