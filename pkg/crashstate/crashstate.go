// Package crashstate rebuilds what a power cut at a point of a recorded
// run would have left of a database's files: the record (package
// iorecord) holds every write, truncate, sync, creation, deletion,
// rename and directory sync of the database's files, in the order the
// kernel took them, from the run's start, when the files were copied.
// Two recorders write it: a VFS under SQLite, which names the files by
// their role (the database, its journal, its WAL, side by side in one
// directory), and the file system recorder under any engine (package
// recfs), which numbers every file and directory of the engine's tree.
//
// # The models
//
// Under store.CrashLose (the default) a file's contents at a crash point
// are what its last sync before the point made durable: the writes and
// truncates after it are lost. A directory's entries are what its last
// sync saw: a file created (or a directory made, an entry renamed) after
// it does not exist there, one deleted after it still does, with what
// its own syncs made durable. That is what POSIX promises, and what a
// file system that orders nothing for you (ext4 with data=writeback,
// XFS and btrfs for entries never synced) can leave.
//
// Under store.CrashTorn a seeded random subset of the lost writes
// survives on top, each write in whole 512-byte sectors applied in order,
// each truncate whole or not at all (SQLite's src/test6.c on a device
// with SQLITE_IOCAP_ATOMIC512). Under store.CrashTorn4K the parts are
// whole 4 KiB pages of the file (LazyFS's torn writes, a page cache
// written back page by page): the part of a write inside one page
// survives whole or not at all.
//
// Under store.CrashFsyncFail the record holds a sync that failed
// (iorecord.FlagFailed): what it would have made durable is dropped, the
// page cache's copy marked clean as Linux marks the pages of a failed
// writeback, so no later sync writes it; writes after it are synced as
// usual. Otherwise the model is CrashLose's.
//
// Under store.CrashNamesDurable creations, deletions, renames and new
// directories are durable the moment they are made, and only file data
// and sizes wait for a sync: LazyFS's clear-cache, and close to what a
// journaling file system that commits directory changes in order (ext4
// in data=ordered) leaves.
//
// The -shm file of SQLite is never there: it is not written through the
// VFS, and it is rebuilt on open. The models do not cover a disk whose
// cache acknowledges a sync it has not made durable, file-system bugs,
// metadata other than directory entries (a file's size is its
// contents'), or a crash inside one write of more than a sector under
// CrashLose (the write is whole or gone).
//
// # Bounds
//
// Memory holds a node per file and directory and, per file, a
// dirty-sector map (a bit per 512 bytes), never the record: writes since
// a file's last sync are remembered as offsets into the record, in a
// file beside the images. A file has up to two images on disk (what the
// page cache holds, what is durable), made when it is first written; a
// state is built, visited and removed before the next.
package crashstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// SectorSize is the unit in which a torn write survives.
const SectorSize = 512

// Options say where a run's record and files are.
type Options struct {
	// Record is the record file; Base the directory holding the files as
	// copied at the run's start; Work a directory for images and states,
	// emptied as Build returns.
	Record, Base, Work string
	// Files are the store's files as its driver names them
	// (store.DiskFiler): a VFS's events name its files by role (the
	// database, Path; its journal and WAL, Path and their suffix), found
	// in Base by those names; Files.Path is where the store's path is in
	// a state's directory.
	Files store.DiskFiles
	// Tree, when set, is the file in Base that lists the tree of the
	// file system recorder at the run's start (see WriteTree); the
	// contents of its files are in Base under their numbers.
	Tree string
	Spec store.CrashSpec
}

// roleNames returns the names of a VFS's files by role (store.RoleDatabase,
// RoleJournal, RoleWAL): the database's path, and the path with the
// suffix of the role's files.
func roleNames(f store.DiskFiles) [3]string {
	names := [3]string{store.RoleDatabase: f.Path}
	for _, r := range f.Roles {
		if r.Role > store.RoleDatabase && r.Role < len(names) {
			names[r.Role] = f.Path + r.Suffix
		}
	}
	return names
}

// Build reads the record, calls ack with every acknowledgement of the
// run in order, then builds the states of o.Spec one at a time, calling
// visit with each.
func Build(ctx context.Context, o Options, ack func(store.Ack), visit func(store.CrashState) error) (store.RecordSummary, error) {
	f, err := os.Open(o.Record)
	if err != nil {
		return store.RecordSummary{}, fmt.Errorf("opening the crash record: %w", err)
	}
	defer f.Close()
	sum, err := scan(f, ack)
	if err != nil {
		return sum, err
	}
	if sum.Events == 0 {
		return sum, nil
	}
	choose := choosePoints
	if o.Spec.Exhaustive {
		choose = persistencePoints
	}
	points, err := choose(f, sum, o.Spec)
	if err != nil {
		return sum, err
	}
	if err := os.MkdirAll(o.Work, 0o700); err != nil {
		return sum, err
	}
	defer os.RemoveAll(o.Work)
	m, err := newModel(f, o)
	if err != nil {
		return sum, err
	}
	defer m.close()
	return sum, m.replay(ctx, points, func(st store.CrashState) error {
		st.Events, st.RunStart = sum.Events, sum.Start
		return visit(st)
	})
}

// ReadAcks calls ack with every acknowledgement of the record at path,
// in the record's order, as Build does before it builds a state: what a
// process that checks one state (and did not build it) needs to know of
// the run.
func ReadAcks(path string, ack func(store.Ack)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening the crash record: %w", err)
	}
	defer f.Close()
	_, err = scan(f, ack)
	return err
}

// runEvents calls each with every event of the run: after the first
// start mark, before the first end or full mark; n counts them from 0.
// It reports whether the record filled.
func runEvents(f *os.File, each func(n int64, e *iorecord.Event) error) (full bool, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false, err
	}
	r := iorecord.NewReader(f, 0)
	started := false
	var n int64
	for r.Scan() {
		e := r.Event()
		switch {
		case !started:
			started = e.Kind == iorecord.KindStart
		case e.Kind == iorecord.KindEnd:
			return false, nil
		case e.Kind == iorecord.KindFull:
			return true, nil
		case e.Kind == iorecord.KindStart:
			return false, fmt.Errorf("crash record: a second start at byte %d", e.Offset)
		default:
			if err := each(n, e); err != nil {
				return false, err
			}
			n++
		}
	}
	if err := r.Err(); err != nil {
		return false, fmt.Errorf("crash record: %w", err)
	}
	if !started {
		return false, errors.New("crash record: no start mark (the run never started)")
	}
	return false, errors.New("crash record: no end mark (the run did not end)")
}

// scan counts the run's events and passes its acknowledgements on.
func scan(f *os.File, ack func(store.Ack)) (store.RecordSummary, error) {
	var s store.RecordSummary
	// Each process's first event since its last acknowledgement: where
	// the writes of the transaction it acknowledges next began. Writes
	// of processes that commit in turn come in the order they committed
	// (the write lock), their acknowledgements not always (a checkpoint
	// after a COMMIT delays its return).
	first := map[uint32]int64{}
	full, err := runEvents(f, func(n int64, e *iorecord.Event) error {
		if n == 0 {
			s.Start = e.Time
		}
		s.End = e.Time
		s.Events++
		s.Bytes += int64(e.Len())
		if e.Kind == iorecord.KindSync && e.Flags&iorecord.FlagFailed != 0 {
			s.FailedSyncs++
		}
		if e.Kind == iorecord.KindAck {
			s.Acks++
			a := e.Ack()
			commit, ok := first[e.PID]
			if !ok {
				commit = n
			}
			delete(first, e.PID)
			ack(store.Ack{Worker: a.Worker, Phase: a.Phase, First: a.First, N: a.N, Start: a.Start, At: e.Time, Event: n,
				Record: a.Record, Key: a.Key, Field: a.Field, Commit: commit})
			return nil
		}
		if _, ok := first[e.PID]; !ok {
			first[e.PID] = n
		}
		return nil
	})
	s.Full = full
	return s, err
}

// choosePoints picks the crash points: the run's events cut into
// spec.States segments of equal counts, one point in each at a seeded
// event, every other one just after a seeded acknowledgement of the
// segment (where it has one). Points are event numbers, sorted, unique.
func choosePoints(f *os.File, sum store.RecordSummary, spec store.CrashSpec) ([]int64, error) {
	n, k := sum.Events, int64(spec.States)
	if k > n {
		k = n
	}
	seg := func(i int64) (lo, hi int64) { return i * n / k, (i + 1) * n / k }
	acks := make([]int64, k) // acknowledgements per segment
	_, err := runEvents(f, func(e int64, ev *iorecord.Event) error {
		if ev.Kind == iorecord.KindAck {
			acks[segmentOf(e, n, k)]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(spec.Seed, 0x6372617368)) // "crash"
	points := make([]int64, k)
	rank := make([]int64, k) // the acknowledgement to stop after, per segment; -1 for none
	for i := range k {
		lo, hi := seg(i)
		points[i] = lo + rng.Int64N(hi-lo)
		rank[i] = -1
		if i%2 == 1 && acks[i] > 0 {
			rank[i] = rng.Int64N(acks[i])
		}
	}
	seen := make([]int64, k)
	_, err = runEvents(f, func(e int64, ev *iorecord.Event) error {
		if ev.Kind != iorecord.KindAck {
			return nil
		}
		i := segmentOf(e, n, k)
		if rank[i] == seen[i] {
			points[i] = e
		}
		seen[i]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(points)
	return slices.Compact(points), nil
}

// ErrTooManyPoints refuses an exhaustive simulation of a record with
// more persistence points than its bound.
var ErrTooManyPoints = errors.New("too many persistence points for an exhaustive simulation")

// persistencePoints returns the event numbers of every sync of a file
// or a directory in the run, refusing more than spec.MaxPoints.
func persistencePoints(f *os.File, _ store.RecordSummary, spec store.CrashSpec) ([]int64, error) {
	var points []int64
	_, err := runEvents(f, func(e int64, ev *iorecord.Event) error {
		if ev.Kind == iorecord.KindSync || ev.Kind == iorecord.KindDirSync {
			points = append(points, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if spec.MaxPoints > 0 && len(points) > spec.MaxPoints {
		return nil, fmt.Errorf("%w: the record holds %d (syncs of files and directories), more than the %d an exhaustive simulation checks: record a shorter run, or simulate N seeded cuts (--crash N)", ErrTooManyPoints, len(points), spec.MaxPoints)
	}
	return points, nil
}

// segmentOf returns the segment of event e: the i with i*n/k <= e <
// (i+1)*n/k.
func segmentOf(e, n, k int64) int64 {
	i := e * k / n
	for i > 0 && e < i*n/k {
		i--
	}
	for i < k-1 && e >= (i+1)*n/k {
		i++
	}
	return i
}
