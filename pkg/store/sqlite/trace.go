package sqlite

import "github.com/gobench/gobench/pkg/store"

// tracingBackend is a backend whose connections open through gobench's
// tracing VFS, which counts the I/O of SQLite's files as the kernel
// receives it (store.IOTracer).
type tracingBackend interface {
	backend
	// traceVFS registers the tracing VFS in the binding's SQLite (once
	// per process) and returns its name, for a URI's vfs parameter.
	traceVFS() (string, error)
	// ioCounts returns the VFS's counts since the process started.
	ioCounts() store.IOCounts
	// traceNote says what traces the I/O, for Describe.
	traceNote() string
}

// untraced says why a backend's I/O is not traced, for Describe.
type untraced interface{ untracedNote() string }

func (ncBackend) traceVFS() (string, error) {
	ncRegister()
	return traceVFSName, nil
}

func (ncBackend) ioCounts() store.IOCounts { return ncCounts.Snapshot() }

func (ncBackend) traceNote() string {
	return "VFS " + traceVFSName + " (Go) over ncruces's OS VFS; ncruces syncs a new journal or WAL a second time where it means to sync its directory, and that is counted as the kernel receives it"
}

var _ store.IOTracer = (*db)(nil)

// IO returns the counts of the tracing VFS this store's connections open
// through; ok is false for a driver without one and for a database in
// memory.
func (s *db) IO() (store.IOCounts, bool) {
	tb, ok := s.d.be.(tracingBackend)
	if !ok || s.opts.Memory {
		return store.IOCounts{}, false
	}
	return tb.ioCounts(), true
}

// traceFact says what counts this store's I/O, or why nothing does.
func (s *db) traceFact() store.Fact {
	f := store.Fact{Name: store.FactIOTrace}
	switch tb := s.d.be.(type) {
	case tracingBackend:
		f.Value = tb.traceNote()
		if s.opts.Memory {
			f.Value = "not traced: the database is in memory"
		}
	case untraced:
		f.Value = tb.untracedNote()
	default:
		f.Value = "not traced"
	}
	return f
}
