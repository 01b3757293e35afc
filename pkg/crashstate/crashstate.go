// Package crashstate rebuilds what a power cut at a point of a recorded run
// would have left of a SQLite database's files: the record (package
// iotrace) holds every write, truncate, sync, creation, deletion and
// directory sync of the database, its journal and its WAL, in the order
// the kernel took them, from the run's start, when the files were copied.
//
// # The model
//
// A file's contents at a crash point are what its last sync before the
// point made durable: the writes and truncates after it are lost
// (store.CrashLose, LazyFS's clear-cache). Under store.CrashTorn a
// seeded random subset of those survives, each write in whole 512-byte
// sectors applied in order, each truncate whole or not at all (SQLite's
// src/test6.c on a device with SQLITE_IOCAP_ATOMIC512). A file's
// directory entry is what the last directory sync before the point saw:
// a file created after it does not exist, one deleted after it still
// does, with what its own syncs made durable. The -shm file is never
// there: it is not written through the VFS, and it is rebuilt on open.
//
// The model does not cover a disk whose cache acknowledges a sync it has
// not made durable, file-system bugs, metadata other than the directory
// entries of these files (a file's size is its contents'), or a crash
// inside one write of more than a sector under CrashLose (the write is
// whole or gone).
//
// # Bounds
//
// Memory holds one file's dirty-sector map per file (a bit per 512
// bytes of the file), never the record: writes since a file's last sync
// are remembered as offsets into the record, in a file beside the
// images. Each file has two images on disk (what the page cache holds,
// what is durable); a state is built, visited and removed before the
// next.
package crashstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// SectorSize is the unit in which a torn write survives.
const SectorSize = 512

// Options say where a run's record and files are.
type Options struct {
	// Record is the record file; Base the directory holding the files as
	// copied at the run's start, by their names; Work a directory for
	// images and states, emptied as Build returns.
	Record, Base, Work string
	// Names are the files' names by role: store.RoleDatabase,
	// RoleJournal, RoleWAL.
	Names [3]string
	Spec  store.CrashSpec
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
	points, err := choosePoints(f, sum, o.Spec)
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
	full, err := runEvents(f, func(n int64, e *iorecord.Event) error {
		if n == 0 {
			s.Start = e.Time
		}
		s.End = e.Time
		s.Events++
		s.Bytes += int64(e.Len())
		if e.Kind == iorecord.KindAck {
			s.Acks++
			a := e.Ack()
			ack(store.Ack{Worker: a.Worker, Phase: a.Phase, First: a.First, N: a.N, Start: a.Start, At: e.Time, Event: n})
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

// inode is one file of the model, as the page cache and the disk hold
// it.
type inode struct {
	id      int
	vol     *os.File // what the page cache holds
	dur     *os.File // what the disk holds
	size    int64    // vol's size
	durSize int64
	dirty   []uint64 // sectors written since the last sync, a bit each
	pending *os.File // record offsets of the writes and truncates since the last sync, 8 bytes each
	npend   int64
}

func (ino *inode) markDirty(off, n int64) {
	for s := off / SectorSize; s <= (off+n-1)/SectorSize; s++ {
		w := int(s / 64)
		if w >= len(ino.dirty) {
			ino.dirty = slices.Grow(ino.dirty, w+1-len(ino.dirty))[:w+1]
		}
		ino.dirty[w] |= 1 << (s % 64)
	}
}

// model is the files and their directory entries, event by event.
type model struct {
	rec     *os.File
	o       Options
	nextID  int
	vol     map[int]*inode // role → the file its name points to now
	dur     map[int]*inode // role → the file its durable directory entry points to
	all     map[int]*inode
	buf     []byte
	scratch []byte
}

// newModel starts the model from the files copied at the run's start,
// each as durable as it is.
func newModel(rec *os.File, o Options) (*model, error) {
	m := &model{rec: rec, o: o, vol: map[int]*inode{}, dur: map[int]*inode{}, all: map[int]*inode{}, buf: make([]byte, 256<<10)}
	for role, name := range o.Names {
		src, err := os.Open(filepath.Join(o.Base, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ino, err := m.newInode()
		if err == nil {
			err = m.fill(ino, src)
		}
		src.Close()
		if err != nil {
			m.close()
			return nil, err
		}
		m.vol[role], m.dur[role] = ino, ino
	}
	return m, nil
}

// fill copies src into both images of a new inode.
func (m *model) fill(ino *inode, src *os.File) error {
	for _, dst := range []*os.File{ino.vol, ino.dur} {
		if _, err := src.Seek(0, io.SeekStart); err != nil {
			return err
		}
		n, err := io.CopyBuffer(dst, src, m.buf)
		if err != nil {
			return err
		}
		ino.size, ino.durSize = n, n
	}
	return nil
}

func (m *model) newInode() (*inode, error) {
	m.nextID++
	ino := &inode{id: m.nextID}
	var err error
	p := func(what string) string {
		return filepath.Join(m.o.Work, "inode-"+strconv.Itoa(ino.id)+"."+what)
	}
	if ino.vol, err = os.Create(p("cache")); err == nil {
		if ino.dur, err = os.Create(p("disk")); err == nil {
			ino.pending, err = os.Create(p("pending"))
		}
	}
	m.all[ino.id] = ino
	return ino, err
}

// release drops the inodes no directory entry points to any more.
func (m *model) release() {
	for id, ino := range m.all {
		used := false
		for _, d := range []map[int]*inode{m.vol, m.dur} {
			for _, x := range d {
				used = used || x == ino
			}
		}
		if !used {
			closeInode(ino)
			delete(m.all, id)
		}
	}
}

func closeInode(ino *inode) {
	for _, f := range []*os.File{ino.vol, ino.dur, ino.pending} {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
}

func (m *model) close() {
	for _, ino := range m.all {
		closeInode(ino)
	}
}

// replay applies the run's events to the model, building a state just
// after each point's event.
func (m *model) replay(ctx context.Context, points []int64, visit func(store.CrashState) error) error {
	next := 0
	_, err := runEvents(m.rec, func(n int64, e *iorecord.Event) error {
		if next >= len(points) {
			return errDone
		}
		if err := m.apply(e); err != nil {
			return fmt.Errorf("crash record: event %d (byte %d): %w", n, e.Offset, err)
		}
		if n != points[next] {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		st, err := m.state(next, n, e.Time)
		if err == nil {
			err = visit(st)
		}
		os.RemoveAll(filepath.Dir(st.Path))
		next++
		return err
	})
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

var errDone = errors.New("every state built")

// apply applies one event.
func (m *model) apply(e *iorecord.Event) error {
	role := int(e.Role)
	if role >= len(m.o.Names) && e.Kind != iorecord.KindAck {
		return fmt.Errorf("file role %d", role)
	}
	switch e.Kind {
	case iorecord.KindWrite, iorecord.KindTruncate:
		ino, err := m.current(role)
		if err != nil {
			return err
		}
		if e.Kind == iorecord.KindWrite {
			if _, err := ino.vol.WriteAt(e.Data, e.Arg); err != nil {
				return err
			}
			ino.size = max(ino.size, e.Arg+int64(len(e.Data)))
			if len(e.Data) > 0 {
				ino.markDirty(e.Arg, int64(len(e.Data)))
			}
		} else {
			if err := ino.vol.Truncate(e.Arg); err != nil {
				return err
			}
			ino.size = e.Arg
		}
		var off [8]byte
		putInt64(off[:], e.Offset)
		if _, err := ino.pending.WriteAt(off[:], ino.npend*8); err != nil {
			return err
		}
		ino.npend++
	case iorecord.KindSync:
		ino, err := m.current(role)
		if err != nil {
			return err
		}
		return m.sync(ino)
	case iorecord.KindCreate:
		ino, err := m.newInode()
		if err != nil {
			return err
		}
		m.vol[role] = ino
		m.release()
	case iorecord.KindDelete:
		delete(m.vol, role)
		m.release()
	case iorecord.KindDirSync:
		m.dur = maps(m.vol)
		m.release()
	}
	return nil
}

// current returns the file role's name points to; a write to a name
// that points to none (which SQLite does not do) makes one, as O_CREAT
// would.
func (m *model) current(role int) (*inode, error) {
	if ino := m.vol[role]; ino != nil {
		return ino, nil
	}
	ino, err := m.newInode()
	if err != nil {
		return nil, err
	}
	m.vol[role] = ino
	return ino, nil
}

// sync makes what the page cache holds of ino durable: its dirty
// sectors, and its size.
func (m *model) sync(ino *inode) error {
	sec := m.buf[:SectorSize]
	for w, bits := range ino.dirty {
		for b := range 64 {
			if bits&(1<<b) == 0 {
				continue
			}
			off := (int64(w)*64 + int64(b)) * SectorSize
			if off >= ino.size {
				continue
			}
			n := min(SectorSize, ino.size-off)
			if _, err := ino.vol.ReadAt(sec[:n], off); err != nil {
				return err
			}
			if _, err := ino.dur.WriteAt(sec[:n], off); err != nil {
				return err
			}
		}
	}
	if err := ino.dur.Truncate(ino.size); err != nil {
		return err
	}
	ino.durSize = ino.size
	clear(ino.dirty)
	ino.dirty = ino.dirty[:0]
	ino.npend = 0
	return nil
}

// state writes the files a power cut just after event n would leave, in
// a directory of their own.
func (m *model) state(index int, n, at int64) (store.CrashState, error) {
	dir := filepath.Join(m.o.Work, "state-"+strconv.Itoa(index))
	st := store.CrashState{Index: index, Path: filepath.Join(dir, m.o.Names[store.RoleDatabase]), Event: n, At: at}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return st, err
	}
	rng := rand.New(rand.NewPCG(m.o.Spec.Seed, uint64(index)+1))
	for role, ino := range m.dur {
		dst, err := os.Create(filepath.Join(dir, m.o.Names[role]))
		if err != nil {
			return st, err
		}
		err = m.copyDurable(dst, ino)
		if err == nil && m.o.Spec.Model == store.CrashTorn {
			var kept int64
			kept, err = m.tear(dst, ino, rng)
			st.SurvivingSectors += kept
		}
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// copyDurable copies what the disk holds of ino into dst.
func (m *model) copyDurable(dst *os.File, ino *inode) error {
	_, err := io.CopyBuffer(dst, io.NewSectionReader(ino.dur, 0, ino.durSize), m.buf)
	return err
}

// tear applies to dst, in order, a seeded random subset of the writes
// (sector by sector) and truncates no sync of ino covered, and returns
// how many sectors it kept.
func (m *model) tear(dst *os.File, ino *inode, rng *rand.Rand) (int64, error) {
	var kept int64
	var off [8]byte
	for i := range ino.npend {
		if _, err := ino.pending.ReadAt(off[:], i*8); err != nil {
			return kept, err
		}
		e, err := iorecord.ReadEventAt(m.rec, getInt64(off[:]), &m.scratch)
		if err != nil {
			return kept, err
		}
		if e.Kind == iorecord.KindTruncate {
			if rng.IntN(2) == 1 {
				if err := dst.Truncate(e.Arg); err != nil {
					return kept, err
				}
			}
			continue
		}
		end := e.Arg + int64(len(e.Data))
		for s := e.Arg / SectorSize * SectorSize; s < end; s += SectorSize {
			if rng.IntN(2) == 0 {
				continue
			}
			lo, hi := max(s, e.Arg), min(s+SectorSize, end)
			if _, err := dst.WriteAt(e.Data[lo-e.Arg:hi-e.Arg], lo); err != nil {
				return kept, err
			}
			kept++
		}
	}
	return kept, nil
}

func maps(m map[int]*inode) map[int]*inode {
	out := make(map[int]*inode, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func putInt64(b []byte, v int64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

func getInt64(b []byte) int64 {
	var v int64
	for i := range 8 {
		v |= int64(b[i]) << (8 * i)
	}
	return v
}
