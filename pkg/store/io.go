package store

import "strings"

// FileIO is what the files of one role (an engine's database, its
// journal, its write-ahead log) received from the engine, counted as the
// kernel receives it: one write(2) per write, one fsync(2) or
// fdatasync(2) per sync.
type FileIO struct {
	// Writes and Bytes are the writes to the files and the bytes they
	// carried.
	Writes int64 `json:"writes"`
	Bytes  int64 `json:"bytes"`
	// Syncs is every fsync or fdatasync of the files themselves; of
	// them, FullSyncs were asked for with SQLite's SYNC_FULL flag, and
	// DataSyncs with SYNC_DATAONLY or, counted by a file system, were
	// fdatasync or msync.
	Syncs     int64 `json:"syncs"`
	FullSyncs int64 `json:"full_syncs,omitempty"`
	DataSyncs int64 `json:"data_syncs,omitempty"`
	// Truncates and Deletes are the files cut short and removed.
	Truncates int64 `json:"truncates,omitempty"`
	Deletes   int64 `json:"deletes,omitempty"`
	// DirSyncs are the fsyncs of the directory the engine made so that a
	// file of this role it created or removed stays so after a power
	// cut.
	DirSyncs int64 `json:"dir_syncs,omitempty"`
	// MisdirectedDirSyncs are directory syncs the engine's file layer
	// meant to make but made to the file itself (counted in Syncs, as
	// the kernel received them): the directory entry stays unsynced.
	MisdirectedDirSyncs int64 `json:"misdirected_dir_syncs,omitempty"`
	// SyncWrites are the syncs that were writes through a descriptor
	// opened with O_DSYNC or O_SYNC, which the kernel makes durable
	// before the write returns (LMDB writes its meta page so): a file
	// system sees each as a write and a sync. They are counted in Syncs,
	// not in DataSyncs.
	SyncWrites int64 `json:"sync_writes,omitempty"`
}

// add adds o's counts to f's, each multiplied by sign.
func (f *FileIO) add(o FileIO, sign int64) {
	f.Writes += sign * o.Writes
	f.Bytes += sign * o.Bytes
	f.Syncs += sign * o.Syncs
	f.FullSyncs += sign * o.FullSyncs
	f.DataSyncs += sign * o.DataSyncs
	f.Truncates += sign * o.Truncates
	f.Deletes += sign * o.Deletes
	f.DirSyncs += sign * o.DirSyncs
	f.MisdirectedDirSyncs += sign * o.MisdirectedDirSyncs
	f.SyncWrites += sign * o.SyncWrites
}

// Fields returns pointers to the counts, in a fixed order (for
// encodings that carry them as a list).
func (f *FileIO) Fields() []*int64 {
	return []*int64{&f.Writes, &f.Bytes, &f.Syncs, &f.FullSyncs, &f.DataSyncs, &f.Truncates, &f.Deletes, &f.DirSyncs, &f.MisdirectedDirSyncs, &f.SyncWrites}
}

// File roles, the index of Role.
const (
	RoleDatabase = iota
	RoleJournal
	RoleWAL
	// RoleOther is every other file the engine writes (temporary files).
	RoleOther
	// NumRoles is the number of roles.
	NumRoles
)

// RoleName names a file role: "database", "journal", "wal", "other".
func RoleName(role int) string {
	switch role {
	case RoleDatabase:
		return "database"
	case RoleJournal:
		return "journal"
	case RoleWAL:
		return "wal"
	}
	return "other"
}

// IOCounts is the file I/O an engine made, by the role of the file.
type IOCounts struct {
	Database FileIO `json:"database,omitzero"`
	Journal  FileIO `json:"journal,omitzero"`
	WAL      FileIO `json:"wal,omitzero"`
	Other    FileIO `json:"other,omitzero"`
}

// Role returns the counts of role (see RoleDatabase).
func (io *IOCounts) Role(role int) *FileIO {
	switch role {
	case RoleDatabase:
		return &io.Database
	case RoleJournal:
		return &io.Journal
	case RoleWAL:
		return &io.WAL
	}
	return &io.Other
}

// Add adds o's counts.
func (io *IOCounts) Add(o IOCounts) {
	for r := range NumRoles {
		io.Role(r).add(*o.Role(r), 1)
	}
}

// Sub returns io's counts less o's: what happened between two readings
// of a cumulative count.
func (io IOCounts) Sub(o IOCounts) IOCounts {
	for r := range NumRoles {
		io.Role(r).add(*o.Role(r), -1)
	}
	return io
}

// Total sums every role.
func (io IOCounts) Total() FileIO {
	var t FileIO
	for r := range NumRoles {
		t.add(*io.Role(r), 1)
	}
	return t
}

// Syncs returns every sync the kernel received: of the files and of
// their directory.
func (io IOCounts) Syncs() int64 {
	t := io.Total()
	return t.Syncs + t.DirSyncs
}

// IsZero reports whether nothing was counted.
func (io IOCounts) IsZero() bool { return io == IOCounts{} }

// IOTracer is implemented by a Store whose engine counts the I/O of its
// files as the kernel receives it (SQLite through a tracing VFS).
// Without it, results say the I/O was not traced; they never show zeros
// for it.
type IOTracer interface {
	// IO returns what this process's connections of the engine wrote and
	// synced since the process started, summed over every database the
	// process opened with the engine: a cumulative count, read before
	// and after a stretch of work. ok is false when this store's files
	// are not traced (why is one of the store's facts, see Describer).
	IO() (io IOCounts, ok bool)
}

// DiskFiles is where a store keeps its data on disk, for a recorder
// under the engine (the FUSE recording file system, package recfs).
type DiskFiles struct {
	// Dir is the directory of the store's files.
	Dir string
	// Prefix, when set, is how the names of the store's files in Dir
	// begin (SQLite's database, journal and WAL beside one another), and
	// the rest of Dir is not the store's; empty, the whole of Dir is.
	Prefix string
	// Path is the store's path relative to Dir: its database file, or ""
	// when the store's path is Dir itself.
	Path string
	// Roles name the role of the files whose names end in Suffix; the
	// others are RoleDatabase.
	Roles []RoleSuffix
	// Scratch are the ends of the names of files that hold nothing a
	// power cut leaves for the engine to read (SQLite's -shm, LMDB's
	// lock.mdb: the engine makes them anew): counted, but no crash state
	// has them.
	Scratch []string
}

// RoleSuffix gives the files whose names end in Suffix a role.
type RoleSuffix struct {
	Suffix string `json:"suffix"`
	Role   int    `json:"role"`
}

// RoleOf returns the role of the file named name.
func (f DiskFiles) RoleOf(name string) int {
	for _, r := range f.Roles {
		if strings.HasSuffix(name, r.Suffix) {
			return r.Role
		}
	}
	return RoleDatabase
}

// DiskFiler is implemented by a Driver whose stores keep their data in
// files on disk, which a recorder under the engine can record: without
// a VFS of its own to trace, such an engine's I/O is counted, and its
// power cuts simulated (--crash), by the FUSE recording file system.
type DiskFiler interface {
	// DiskFiles says where the store of cfg keeps its files, or why it
	// keeps none (a database in memory).
	DiskFiles(cfg Config) (DiskFiles, error)
}
