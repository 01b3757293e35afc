package sqlite

import "github.com/ncruces/go-sqlite3/util/vfsutil"

// On Linux ncruces's OS files have F2FS's atomic batch writes (they say so
// in DeviceCharacteristics only on F2FS); the tracing file passes them on.

// BeginAtomicWrite is the OS file's.
func (f *ncTraceFile) BeginAtomicWrite() error { return vfsutil.WrapBeginAtomicWrite(f.File) }

// CommitAtomicWrite is the OS file's.
func (f *ncTraceFile) CommitAtomicWrite() error { return vfsutil.WrapCommitAtomicWrite(f.File) }

// RollbackAtomicWrite is the OS file's.
func (f *ncTraceFile) RollbackAtomicWrite() error { return vfsutil.WrapRollbackAtomicWrite(f.File) }
