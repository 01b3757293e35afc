package pebble

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/gobench/gobench/pkg/store"
)

// countingFS is pebble's file system seen by gobench: the default one,
// with every write, sync and removal counted by the role of its file
// (the write-ahead log, the tables, pebble's other files), as the kernel
// receives them.
type countingFS struct {
	vfs.FS
	roles [store.NumRoles]fileCounts
	dirs  atomic.Int64 // syncs of the directory
}

// fileCounts are one role's counts, each a store.FileIO field.
type fileCounts struct {
	writes, bytes, syncs, dataSyncs, deletes atomic.Int64
}

// fileRoles are the roles of pebble's files by their names: the WAL (*.log),
// the database (*.sst, the tables), or other (MANIFEST, OPTIONS,
// markers: the empty suffix ends every name).
var fileRoles = store.DiskFiles{Roles: []store.RoleSuffix{
	{Suffix: ".log", Role: store.RoleWAL}, {Suffix: ".sst", Role: store.RoleDatabase}, {Suffix: "", Role: store.RoleOther}}}

// roleOf is the role of a pebble file by its name.
func roleOf(name string) int { return fileRoles.RoleOf(name) }

// IO returns the counts so far.
func (fs *countingFS) IO() store.IOCounts {
	var io store.IOCounts
	for r := range store.NumRoles {
		c, f := &fs.roles[r], io.Role(r)
		f.Writes, f.Bytes, f.Syncs, f.DataSyncs, f.Deletes = c.writes.Load(), c.bytes.Load(), c.syncs.Load(), c.dataSyncs.Load(), c.deletes.Load()
	}
	io.Other.DirSyncs = fs.dirs.Load()
	return io
}

func (fs *countingFS) wrap(name string, f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return f, err
	}
	return &countingFile{File: f, c: &fs.roles[roleOf(name)]}, nil
}

func (fs *countingFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return fs.wrap(name, f, err)
}

func (fs *countingFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, category, opts...)
	return fs.wrap(name, f, err)
}

func (fs *countingFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return fs.wrap(newname, f, err)
}

// OpenDir counts the directory's syncs.
func (fs *countingFS) OpenDir(name string) (vfs.File, error) {
	f, err := fs.FS.OpenDir(name)
	if err != nil {
		return f, err
	}
	return &countingDir{File: f, syncs: &fs.dirs}, nil
}

func (fs *countingFS) Remove(name string) error {
	err := fs.FS.Remove(name)
	if err == nil {
		fs.roles[roleOf(name)].deletes.Add(1)
	}
	return err
}

// countingFile counts one file's writes and syncs.
type countingFile struct {
	vfs.File
	c *fileCounts
}

func (f *countingFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.c.writes.Add(1)
	f.c.bytes.Add(int64(n))
	return n, err
}

func (f *countingFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	f.c.writes.Add(1)
	f.c.bytes.Add(int64(n))
	return n, err
}

func (f *countingFile) Sync() error {
	f.c.syncs.Add(1)
	return f.File.Sync()
}

func (f *countingFile) SyncData() error {
	f.c.syncs.Add(1)
	f.c.dataSyncs.Add(1)
	return f.File.SyncData()
}

// SyncTo counts a sync only where it made one (fullSync): a queued
// write-back (sync_file_range) promises nothing.
func (f *countingFile) SyncTo(length int64) (bool, error) {
	full, err := f.File.SyncTo(length)
	if full {
		f.c.syncs.Add(1)
		f.c.dataSyncs.Add(1)
	}
	return full, err
}

// countingDir counts a directory's syncs.
type countingDir struct {
	vfs.File
	syncs *atomic.Int64
}

func (d *countingDir) Sync() error {
	d.syncs.Add(1)
	return d.File.Sync()
}
