package store

import "fmt"

// Sharing says who may share one database of an engine at once.
type Sharing int

const (
	// ShareProcesses: many processes, each with many connections (SQLite,
	// LMDB). A driver that is no Sharer shares this way.
	ShareProcesses Sharing = iota
	// ShareProcess: one process, with many connections or goroutines
	// (bbolt, pebble and badger lock their files; a Go map lives in one
	// process's memory).
	ShareProcess
	// ShareGoroutine: one connection, used by one goroutine.
	ShareGoroutine
)

// String names the sharing as results and headers do: "processes", "one
// process", "one goroutine".
func (s Sharing) String() string {
	switch s {
	case ShareProcess:
		return "one process"
	case ShareGoroutine:
		return "one goroutine"
	}
	return "processes"
}

// ShareInMemory is the Share of an engine whose data lives in one process's
// memory: worker processes would each have their own, empty copy.
var ShareInMemory = Share{Sharing: ShareProcess, Lock: "its data lives in one process's memory"}

// Share is who may share a driver's databases, and what keeps the others
// out.
type Share struct {
	Sharing Sharing
	// Lock names what keeps a second process (or goroutine) out, for
	// messages: "an exclusive flock on the database file".
	Lock string
}

// Sharer is implemented by a Driver whose databases fewer than many
// processes may share at once. Without it, a driver's databases are
// shared by processes.
type Sharer interface {
	Share() Share
}

// ShareOf returns who may share d's databases.
func ShareOf(d Driver) Share {
	if s, ok := d.(Sharer); ok {
		return s.Share()
	}
	return Share{Sharing: ShareProcesses}
}

// CheckShare refuses a run that d's databases cannot host: processes
// processes opening the database at once, running workers connections
// in all. It is the one check of Sharing; its errors are of class
// ErrInvalid and name what keeps the others out.
func CheckShare(d Driver, processes, workers int) error {
	s := ShareOf(d)
	switch {
	case s.Sharing >= ShareProcess && processes > 1:
		return fmt.Errorf("%w: driver %s allows one process at a time (%s), and this run opens the database in %d processes (the coordinator and its worker processes): run its workers as goroutines of one process (--mode goroutine)",
			ErrInvalid, d.Name(), s.Lock, processes)
	case s.Sharing == ShareGoroutine && workers > 1:
		return fmt.Errorf("%w: driver %s allows one connection at a time (%s), and this run has %d workers: run one worker",
			ErrInvalid, d.Name(), s.Lock, workers)
	}
	return nil
}

// Resident is implemented by a Driver whose databases can live in a
// process's memory instead of on disk (a Go map, a B-tree, SQLite's
// memdb): InMemory reports whether the database cfg describes does.
// Without it, a driver's databases are on disk.
type Resident interface {
	InMemory(cfg Config) bool
}

// InMemory reports whether d keeps the database cfg describes in memory
// (see Resident): its data takes memory, not room on a disk.
func InMemory(d Driver, cfg Config) bool {
	r, ok := d.(Resident)
	return ok && r.InMemory(cfg)
}
