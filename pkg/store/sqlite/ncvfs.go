package sqlite

import (
	"os"
	"runtime"
	"sync"
	"syscall"

	"github.com/ncruces/go-sqlite3/util/vfsutil"
	"github.com/ncruces/go-sqlite3/vfs"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite/internal/iotrace"
)

// traceVFSName is the tracing VFS's name in every SQLite gobench links
// that has one: ncruces's here, mattn's in package ctrace.
const traceVFSName = "gobench-trace"

// ncCounts counts the I/O of ncruces's files through ncTraceVFS.
var ncCounts iotrace.Counters

var ncRegister = sync.OnceFunc(func() { vfs.Register(traceVFSName, ncTraceVFS{base: vfs.Find("")}) })

// ncTraceVFS is gobench's tracing VFS in Go, over ncruces's OS VFS: every
// call goes to that VFS as it came, and each write, truncate, sync,
// deletion and directory sync is counted (and, while a run records,
// appended to the crash record; see package iorecord), as the kernel
// receives them.
//
// ncruces's VFS (vfs/file.go, (*vfsFile).Sync, from v0.29.1 through at
// least v0.35.6) means to sync the directory of a journal or WAL it
// created, once, at the handle's first sync, as SQLite's unix VFS does;
// it opens the directory and then syncs the file a second time instead.
// The kernel receives two syncs of the file and none of the directory,
// and so does this count (MisdirectedDirSyncs says how often) and the
// record: the new file's directory entry is not made durable by it.
type ncTraceVFS struct{ base vfs.VFS }

// Open opens a temporary file (no name), as ncruces's VFS does; every
// named file comes through OpenFilename.
func (v ncTraceVFS) Open(name string, flags vfs.OpenFlag) (vfs.File, vfs.OpenFlag, error) {
	if name == "" {
		return v.OpenFilename(nil, flags)
	}
	return v.open(name, nil, flags)
}

// OpenFilename opens name through the OS VFS and wraps the file.
func (v ncTraceVFS) OpenFilename(name *vfs.Filename, flags vfs.OpenFlag) (vfs.File, vfs.OpenFlag, error) {
	return v.open(name.String(), name, flags)
}

func (v ncTraceVFS) open(path string, name *vfs.Filename, flags vfs.OpenFlag) (vfs.File, vfs.OpenFlag, error) {
	create := flags&vfs.OPEN_CREATE != 0
	rec := procRecording()
	if !create || !rec.matches(path) {
		rec = nil
	}
	existed := true
	if rec != nil {
		_, err := os.Lstat(path)
		existed = err == nil
	}
	var f vfs.File
	var err error
	if name != nil || path == "" {
		f, flags, err = vfsutil.WrapOpenFilename(v.base, name, flags)
	} else {
		f, flags, err = v.base.Open(path, flags)
	}
	if err != nil {
		return f, flags, err
	}
	tf := &ncTraceFile{File: f, path: path, role: roleOfFlags(flags),
		dirsync: runtime.GOOS != "windows" && create && flags&(vfs.OPEN_MAIN_JOURNAL|vfs.OPEN_SUPER_JOURNAL|vfs.OPEN_WAL) != 0}
	if rec != nil && !existed {
		rec.event(iorecord.Event{Kind: iorecord.KindCreate, Role: uint8(tf.role)})
	}
	return tf, flags, nil
}

// Delete deletes name through the OS VFS, which syncs the directory after
// it when syncDir asks (on Unix).
func (v ncTraceVFS) Delete(name string, syncDir bool) error {
	if err := v.base.Delete(name, syncDir); err != nil {
		return err
	}
	role := roleOfName(name)
	ncCounts.Delete(role)
	dirSync := syncDir && runtime.GOOS != "windows"
	if dirSync {
		ncCounts.DirSync(role)
	}
	if rec := procRecording(); rec.matches(name) {
		rec.event(iorecord.Event{Kind: iorecord.KindDelete, Role: uint8(role)})
		if dirSync {
			rec.event(iorecord.Event{Kind: iorecord.KindDirSync, Role: uint8(role)})
		}
	}
	return nil
}

// Access is the OS VFS's.
func (v ncTraceVFS) Access(name string, flags vfs.AccessFlag) (bool, error) {
	return v.base.Access(name, flags)
}

// FullPathname is the OS VFS's.
func (v ncTraceVFS) FullPathname(name string) (string, error) { return v.base.FullPathname(name) }

// roleOfFlags is the role of a file SQLite opens with flags.
func roleOfFlags(flags vfs.OpenFlag) int {
	switch {
	case flags&vfs.OPEN_MAIN_DB != 0:
		return store.RoleDatabase
	case flags&vfs.OPEN_MAIN_JOURNAL != 0:
		return store.RoleJournal
	case flags&vfs.OPEN_WAL != 0:
		return store.RoleWAL
	}
	return store.RoleOther
}

// ncTraceFile is a file of ncTraceVFS.
type ncTraceFile struct {
	vfs.File
	path    string
	role    int
	dirsync bool // the OS VFS's first sync of this handle also means to sync the directory
}

// WriteAt writes, then counts and records the write.
func (f *ncTraceFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	if err == nil {
		ncCounts.Write(f.role, len(p))
		if rec := procRecording(); rec.matches(f.path) {
			rec.event(iorecord.Event{Kind: iorecord.KindWrite, Role: uint8(f.role), Arg: off, Data: p})
		}
	}
	return n, err
}

// Truncate truncates, then counts and records it.
func (f *ncTraceFile) Truncate(size int64) error {
	err := f.File.Truncate(size)
	if err == nil {
		ncCounts.Truncate(f.role)
		if rec := procRecording(); rec.matches(f.path) {
			rec.event(iorecord.Event{Kind: iorecord.KindTruncate, Role: uint8(f.role), Arg: size})
		}
	}
	return err
}

// Sync records the sync before it starts, syncs, and counts what the
// kernel received: one sync of the file, or at the first sync of a
// created journal or WAL two (see ncTraceVFS).
//
// The sync the recording fails (--crash-model fsync-fail) syncs nothing
// and returns EIO (SQLITE_IOERR_FSYNC), recorded as failed.
func (f *ncTraceFile) Sync(flags vfs.SyncFlag) error {
	if rec := procRecording(); rec.matches(f.path) {
		if rec.failsSync() {
			rec.event(iorecord.Event{Kind: iorecord.KindSync, Role: uint8(f.role), Flags: uint16(flags) | iorecord.FlagFailed})
			return syscall.EIO
		}
		rec.event(iorecord.Event{Kind: iorecord.KindSync, Role: uint8(f.role), Flags: uint16(flags)})
	}
	if err := f.File.Sync(flags); err != nil {
		return err
	}
	n := int64(1)
	if f.dirsync {
		f.dirsync = false
		n = 2
		ncCounts.MisdirectedDirSync(f.role)
	}
	ncCounts.Sync(f.role, int(flags), n)
	return nil
}

// The optional methods of the OS VFS's file, passed on to it. The
// wrapper has exactly those the OS file has (a test checks it): ncruces
// tells what a file can do by the interfaces it implements, and does
// work for each one (reading a file control's argument out of SQLite's
// memory) before it calls it.

// Unwrap returns the OS VFS's file.
func (f *ncTraceFile) Unwrap() vfs.File { return f.File }

// SharedMemory is the OS file's WAL index.
func (f *ncTraceFile) SharedMemory() vfs.SharedMemory { return vfsutil.WrapSharedMemory(f.File) }

// MemoryMapper is the OS file's.
func (f *ncTraceFile) MemoryMapper() vfs.MemoryMapper { return vfsutil.WrapMemoryMapper(f.File) }

// LockState is the OS file's.
func (f *ncTraceFile) LockState() vfs.LockLevel { return vfsutil.WrapLockState(f.File) }

// PersistWAL is the OS file's.
func (f *ncTraceFile) PersistWAL() bool { return vfsutil.WrapPersistWAL(f.File) }

// SetPersistWAL is the OS file's.
func (f *ncTraceFile) SetPersistWAL(keep bool) { vfsutil.WrapSetPersistWAL(f.File, keep) }

// PowersafeOverwrite is the OS file's.
func (f *ncTraceFile) PowersafeOverwrite() bool { return vfsutil.WrapPowersafeOverwrite(f.File) }

// SetPowersafeOverwrite is the OS file's.
func (f *ncTraceFile) SetPowersafeOverwrite(psow bool) {
	vfsutil.WrapSetPowersafeOverwrite(f.File, psow)
}

// SizeHint is the OS file's.
func (f *ncTraceFile) SizeHint(size int64) error { return vfsutil.WrapSizeHint(f.File, size) }

// HasMoved is the OS file's.
func (f *ncTraceFile) HasMoved() (bool, error) { return vfsutil.WrapHasMoved(f.File) }
