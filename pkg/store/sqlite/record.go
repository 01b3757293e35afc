package sqlite

import (
	"sync/atomic"

	"github.com/gobench/gobench/pkg/store"

	"github.com/gobench/gobench/pkg/iorecord"
)

// procRec is this process's crash recording: the record the Go side
// appends to (ncruces's VFS, acknowledgements, the coordinator's marks)
// and the full path of the database whose files it records.
type procRec struct {
	r  *iorecord.Recorder
	db string
	// failSync is the sync of the recorded files (counting from 1) that
	// fails (store.Record.FailSync), 0 for none; syncs counts them.
	failSync int64
	syncs    atomic.Int64
}

// failsSync counts a sync of a recorded file and reports whether it is
// the one to fail.
func (p *procRec) failsSync() bool {
	return p.failSync > 0 && p.syncs.Add(1) == p.failSync
}

// recording is the process's recording, nil while it records nothing.
var recording atomic.Pointer[procRec]

// procRecording returns the process's recording, or nil.
func procRecording() *procRec { return recording.Load() }

// matches reports whether path is one of the recorded database's files:
// the database, its journal or its WAL (never its -shm, which is not
// written through the VFS and gone after a power cut anyway).
func (p *procRec) matches(path string) bool {
	return p != nil && (path == p.db || path == p.db+"-journal" || path == p.db+"-wal")
}

// event appends e, stamped with the monotonic clock.
func (p *procRec) event(e iorecord.Event) {
	e.Time = iorecord.Now()
	p.r.Append(e)
}

// nameRoles are the roles of a database's files by their names: its
// journal, its WAL, or the database.
var nameRoles = store.DiskFiles{Roles: []store.RoleSuffix{{Suffix: "-journal", Role: store.RoleJournal}, {Suffix: "-wal", Role: store.RoleWAL}}}

// roleOfName is the role of a database's file by its name.
func roleOfName(name string) int { return nameRoles.RoleOf(name) }
