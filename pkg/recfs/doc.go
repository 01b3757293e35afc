// Package recfs is gobench's recording file system: a FUSE loopback
// (go-fuse) that gobench mounts over a run's database directory, so that
// any engine's I/O, whatever calls it makes (write, pwrite, the
// writeback of pages it mapped, ftruncate, fsync, fdatasync, msync,
// create, unlink, rename, mkdir, the fsync of a directory), reaches the
// real directory through it. It counts what the engine's files receive,
// by file role and by primitive (store.IOCounts), and, once a run
// starts, appends every change with its bytes to the crash record
// (package iorecord) the workers append their acknowledgements to, in
// one order: package crashstate rebuilds power-cut states from it as it
// does from a SQLite VFS's record.
//
// # Processes
//
// The file system runs in a process of its own (gobench re-executed as
// "recordfs"), never in a process that uses the mount: a Go process that
// faults on a page of a file it serves itself can deadlock its garbage
// collector. The coordinator starts it (Mount), talks to it over its
// stdin and stdout (Serve: start recording, counts, end, unmount) and
// ends it; the helper watches its stdin, so when the coordinator dies,
// even by SIGKILL, it unmounts and exits. A helper killed itself leaves
// a mount whose server is gone; CleanStale finds such mounts by their
// type (fuse.gobench-rec) and the helper's process id in their source,
// and unmounts them at the start of the next run that keeps its database
// on disk, wherever they are.
//
// # Order
//
// As with the VFS recorders: a write, truncate, creation, deletion or
// rename is appended after the real call completed and before the
// kernel hears it did; a sync (fsync, fdatasync or msync, which reaches
// a FUSE file system as a data sync, and a directory's fsync) before the
// real call starts. So a write ahead of a sync in the record had
// completed before the sync began, and an acknowledgement, appended by
// the worker after its commit returned, follows every sync the commit
// waited for.
//
// # What it sees
//
// The kernel writes through to a FUSE file system (no writeback cache),
// so every write(2) reaches it as it is made, split at 1 MiB, and dirty
// pages of a shared mapping when the kernel writes them back (msync, or
// its own writeback). Locks stay in the kernel, which serves every
// process of the run through the same mount. Operations whose effect it
// could not record are refused so that engines fall back: fallocate
// other than to grow or reserve, copy_file_range, O_TMPFILE, and renames
// into or out of the recorded files.
package recfs
