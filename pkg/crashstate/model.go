package crashstate

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// node is one file or directory of the model.
type node struct {
	seq int // the model's own number for it, which names its images
	dir bool
	// A directory's entries, as the page cache holds them and as the
	// disk does.
	entries, durable map[string]*node
	// A file's contents at the run's start (a file in Base; "" for none),
	// its images once made (what the page cache holds, what the disk
	// holds), and their sizes.
	base, vol, dur string
	size, durSize  int64
	// dirty has a bit per sector written since the last sync; npend
	// counts the writes and truncates since then, whose places in the
	// record are in the file pend.
	dirty []uint64
	pend  string
	npend int64
}

func (n *node) markDirty(off, size int64) {
	if size <= 0 {
		return
	}
	for s := off / SectorSize; s <= (off+size-1)/SectorSize; s++ {
		w := int(s / 64)
		if w >= len(n.dirty) {
			n.dirty = slices.Grow(n.dirty, w+1-len(n.dirty))[:w+1]
		}
		n.dirty[w] |= 1 << (s % 64)
	}
}

// model is the files and directories of a run, event by event.
type model struct {
	rec  *os.File
	o    Options
	seq  int
	root *node
	// names are a VFS's files by role (roleNames).
	names [3]string
	byID  map[uint32]*node // the file system recorder's numbers
	files *fileCache
	buf   []byte
	// scratch is the buffer events are read into when a state is torn.
	scratch []byte
	// syncsOf counts the syncs of each name (label).
	syncsOf map[string]int
	// failed counts the failed syncs applied so far (iorecord.FlagFailed),
	// failedAt is the event number of the first.
	failed   int
	failedAt int64
}

// newModel starts the model from the files copied at the run's start,
// each as durable as it is.
func newModel(rec *os.File, o Options) (*model, error) {
	m := &model{rec: rec, o: o, names: roleNames(o.Files), byID: map[uint32]*node{}, files: newFileCache(64), buf: make([]byte, 256<<10)}
	m.root = m.newNode(true)
	m.byID[iorecord.RootDir] = m.root
	if o.Tree != "" {
		return m, m.loadTree()
	}
	for _, name := range m.names {
		if name == "" {
			continue
		}
		path := filepath.Join(o.Base, name)
		fi, err := os.Stat(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		n := m.newNode(false)
		n.base, n.size, n.durSize = path, fi.Size(), fi.Size()
		m.root.entries[name], m.root.durable[name] = n, n
	}
	return m, nil
}

// loadTree builds the tree the file system recorder listed at the run's
// start: a record of KindMkdir, KindCreate and KindLink events, each
// directory before what it holds, every file's contents in Base under
// its number.
func (m *model) loadTree() error {
	f, err := os.Open(filepath.Join(m.o.Base, m.o.Tree))
	if err != nil {
		return fmt.Errorf("the tree at the run's start: %w", err)
	}
	defer f.Close()
	r := iorecord.NewReader(f, 0)
	for r.Scan() {
		e := r.Event()
		parent, err := m.dirOf(int64(e.Arg))
		if err != nil {
			return fmt.Errorf("the tree at the run's start: %w", err)
		}
		name := string(e.Data)
		var n *node
		switch e.Kind {
		case iorecord.KindMkdir:
			n = m.newNode(true)
		case iorecord.KindCreate:
			n = m.newNode(false)
			n.base = filepath.Join(m.o.Base, strconv.FormatUint(uint64(e.File), 10))
			fi, err := os.Stat(n.base)
			if err != nil {
				return fmt.Errorf("the tree at the run's start: %w", err)
			}
			n.size, n.durSize = fi.Size(), fi.Size()
		case iorecord.KindLink:
			if n = m.byID[e.File]; n == nil {
				return fmt.Errorf("the tree at the run's start: a link to file %d, never listed", e.File)
			}
		default:
			return fmt.Errorf("the tree at the run's start: an event of kind %d", e.Kind)
		}
		m.byID[e.File] = n
		parent.entries[name], parent.durable[name] = n, n
	}
	return r.Err()
}

func (m *model) newNode(dir bool) *node {
	m.seq++
	n := &node{seq: m.seq, dir: dir}
	if dir {
		n.entries, n.durable = map[string]*node{}, map[string]*node{}
	}
	return n
}

func (m *model) close() { m.files.close() }

// image returns the file at *path, making it (a copy of n's contents at
// the start) first if *path is empty.
func (m *model) image(n *node, path *string, what string) (*os.File, error) {
	if *path != "" {
		return m.files.get(*path)
	}
	p := filepath.Join(m.o.Work, "node-"+strconv.Itoa(n.seq)+"."+what)
	f, err := m.files.create(p)
	if err != nil {
		return nil, err
	}
	if n.base != "" {
		src, err := os.Open(n.base)
		if err != nil {
			return nil, err
		}
		_, err = io.CopyBuffer(f, src, m.buf)
		src.Close()
		if err != nil {
			return nil, err
		}
	}
	*path = p
	return f, nil
}

// apply applies one event.
func (m *model) apply(e *iorecord.Event) error {
	switch e.Kind {
	case iorecord.KindAck:
		return nil
	case iorecord.KindWrite, iorecord.KindTruncate, iorecord.KindSync:
		n, err := m.file(e)
		if err != nil {
			return err
		}
		switch e.Kind {
		case iorecord.KindWrite:
			return m.write(n, e)
		case iorecord.KindTruncate:
			return m.truncate(n, e)
		}
		if e.Flags&iorecord.FlagFailed != 0 {
			m.drop(n)
			return nil
		}
		return m.sync(n)
	case iorecord.KindDirSync:
		d, err := m.dirSynced(e)
		if err != nil {
			return err
		}
		d.durable = maps.Clone(d.entries)
		return nil
	}
	return m.namespace(e)
}

// namespace applies a change of a directory's entries.
func (m *model) namespace(e *iorecord.Event) error {
	if e.File == 0 {
		name, err := m.roleName(e.Role)
		if err != nil {
			return err
		}
		switch e.Kind {
		case iorecord.KindCreate:
			m.change(m.root, name, m.newNode(false))
		case iorecord.KindDelete:
			m.change(m.root, name, nil)
		default:
			return fmt.Errorf("an event of kind %d names no file", e.Kind)
		}
		return nil
	}
	if e.Kind == iorecord.KindRename {
		return m.rename(e)
	}
	parent, err := m.dirOf(e.Arg)
	if err != nil {
		return err
	}
	name := string(e.Data)
	switch e.Kind {
	case iorecord.KindCreate, iorecord.KindMkdir:
		n := m.newNode(e.Kind == iorecord.KindMkdir)
		m.byID[e.File] = n
		m.change(parent, name, n)
	case iorecord.KindLink:
		n := m.byID[e.File]
		if n == nil {
			return fmt.Errorf("a link to file %d, which the record never made", e.File)
		}
		m.change(parent, name, n)
	case iorecord.KindDelete:
		m.change(parent, name, nil)
	default:
		return fmt.Errorf("an event of kind %d", e.Kind)
	}
	return nil
}

// rename moves (or, with FlagExchange, swaps) two directory entries.
func (m *model) rename(e *iorecord.Event) error {
	r, err := e.Rename()
	if err != nil {
		return err
	}
	from, err := m.dirOf(int64(r.From))
	if err != nil {
		return err
	}
	to, err := m.dirOf(int64(r.To))
	if err != nil {
		return err
	}
	moved, other := from.entries[r.Old], to.entries[r.New]
	if moved == nil {
		return fmt.Errorf("a rename of %q, which is not in its directory", r.Old)
	}
	if e.Flags&iorecord.FlagExchange != 0 {
		m.change(from, r.Old, other)
	} else {
		m.change(from, r.Old, nil)
	}
	m.change(to, r.New, moved)
	return nil
}

// change points name in d to n (nil removes it). Under
// store.CrashNamesDurable the change is durable at once.
func (m *model) change(d *node, name string, n *node) {
	for _, entries := range []map[string]*node{d.entries, d.durable} {
		if n == nil {
			delete(entries, name)
		} else {
			entries[name] = n
		}
		if m.o.Spec.Model != store.CrashNamesDurable {
			return
		}
	}
}

// roleName is the name of a VFS's file of role.
func (m *model) roleName(role uint8) (string, error) {
	if int(role) >= len(m.names) || m.names[role] == "" {
		return "", fmt.Errorf("file role %d", role)
	}
	return m.names[role], nil
}

// dirOf returns the directory the file system recorder numbered id.
func (m *model) dirOf(id int64) (*node, error) {
	d := m.byID[uint32(id)]
	if id <= 0 || id > 1<<32-1 || d == nil || !d.dir {
		return nil, fmt.Errorf("directory %d, which the record never made", id)
	}
	return d, nil
}

// dirSynced returns the directory a directory sync is of: a VFS's is its
// database's.
func (m *model) dirSynced(e *iorecord.Event) (*node, error) {
	if e.File == 0 {
		return m.root, nil
	}
	return m.dirOf(int64(e.File))
}

// file returns the file an event is about. A write to a name that points
// to none (which SQLite does not do) makes one, as O_CREAT would; a
// number the recorder gave to a file the model never saw (one it met
// only by its descriptor) is a file in no directory.
func (m *model) file(e *iorecord.Event) (*node, error) {
	if e.File != 0 {
		n := m.byID[e.File]
		if n == nil {
			n = m.newNode(false)
			m.byID[e.File] = n
		}
		if n.dir {
			return nil, fmt.Errorf("an event of kind %d on directory %d", e.Kind, e.File)
		}
		return n, nil
	}
	name, err := m.roleName(e.Role)
	if err != nil {
		return nil, err
	}
	if n := m.root.entries[name]; n != nil {
		return n, nil
	}
	n := m.newNode(false)
	m.change(m.root, name, n)
	return n, nil
}

// write applies a write to the page cache's image of n.
func (m *model) write(n *node, e *iorecord.Event) error {
	f, err := m.image(n, &n.vol, "cache")
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(e.Data, e.Arg); err != nil {
		return err
	}
	n.size = max(n.size, e.Arg+int64(len(e.Data)))
	n.markDirty(e.Arg, int64(len(e.Data)))
	return m.pending(n, e)
}

// truncate applies a truncate (or, with FlagGrow, an allocation that only
// grows the file) to the page cache's image of n. The sectors a truncate
// cuts off are dirty: grown again, they read as zeros.
func (m *model) truncate(n *node, e *iorecord.Event) error {
	if e.Flags&iorecord.FlagGrow != 0 && e.Arg <= n.size {
		return nil
	}
	f, err := m.image(n, &n.vol, "cache")
	if err != nil {
		return err
	}
	if err := f.Truncate(e.Arg); err != nil {
		return err
	}
	if e.Arg < n.size {
		n.markDirty(e.Arg, n.size-e.Arg)
	}
	n.size = e.Arg
	return m.pending(n, e)
}

// pending remembers where a write or truncate no sync covered yet is in
// the record.
func (m *model) pending(n *node, e *iorecord.Event) error {
	if n.pend == "" {
		n.pend = filepath.Join(m.o.Work, "node-"+strconv.Itoa(n.seq)+".pending")
		if _, err := m.files.create(n.pend); err != nil {
			return err
		}
	}
	f, err := m.files.get(n.pend)
	if err != nil {
		return err
	}
	var off [8]byte
	putInt64(off[:], e.Offset)
	if _, err := f.WriteAt(off[:], n.npend*8); err != nil {
		return err
	}
	n.npend++
	return nil
}

// sync makes what the page cache holds of n durable: its dirty sectors,
// and its size.
func (m *model) sync(n *node) error {
	if n.npend == 0 {
		return nil
	}
	dur, err := m.image(n, &n.dur, "disk")
	if err != nil {
		return err
	}
	vol, err := m.files.get(n.vol)
	if err != nil {
		return err
	}
	sec := m.buf[:SectorSize]
	for w, bits := range n.dirty {
		for b := range 64 {
			if bits&(1<<b) == 0 {
				continue
			}
			off := (int64(w)*64 + int64(b)) * SectorSize
			if off >= n.size {
				continue
			}
			k := min(SectorSize, n.size-off)
			if _, err := vol.ReadAt(sec[:k], off); err != nil {
				return err
			}
			if _, err := dur.WriteAt(sec[:k], off); err != nil {
				return err
			}
		}
	}
	if err := dur.Truncate(n.size); err != nil {
		return err
	}
	n.durSize = n.size
	clear(n.dirty)
	n.dirty = n.dirty[:0]
	n.npend = 0
	return nil
}

// drop applies a failed sync (iorecord.FlagFailed) to n: what the page
// cache holds is marked clean without being made durable, as Linux marks
// the pages of a failed writeback, so that no later sync writes it; the
// disk keeps what it held, and its size.
func (m *model) drop(n *node) {
	clear(n.dirty)
	n.dirty = n.dirty[:0]
	n.npend = 0
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
