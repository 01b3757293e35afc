package recfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/iorecord"
)

// Start makes the recorded files durable, copies them into base (an
// empty directory outside the mount) with the list of their tree, and
// from then on appends every change of them to the record at path,
// starting with a start mark. Call it while nothing writes: at the
// run's START barrier.
func (f *FS) Start(base, path string, limit int64) error {
	if f.rec.Load() != nil {
		return errors.New("recording file system: recording already")
	}
	if err := unix.Syncfs(int(f.dir.Fd())); err != nil {
		return fmt.Errorf("recording file system: syncing %s: %w", f.cfg.Dir, err)
	}
	tree, err := os.OpenFile(filepath.Join(base, TreeFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("recording file system: %w", err)
	}
	w := &treeWriter{fs: f, base: base, out: tree, buf: make([]byte, 256<<10)}
	err = w.dir(f.real, iorecord.RootDir, true)
	if cerr := tree.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("recording file system: copying %s at the start: %w", f.cfg.Dir, err)
	}
	r, err := iorecord.OpenRecorder(path, limit)
	if err != nil {
		return fmt.Errorf("recording file system: %w", err)
	}
	r.Append(iorecord.Event{Kind: iorecord.KindStart, Time: iorecord.Now()})
	f.rec.Store(r)
	return nil
}

// End appends the run's end to the record and stops recording,
// returning the first error an append met.
func (f *FS) End() error {
	r := f.rec.Swap(nil)
	if r == nil {
		return nil
	}
	r.Append(iorecord.Event{Kind: iorecord.KindEnd, Time: iorecord.Now()})
	return r.Close()
}

// treeWriter lists the recorded tree and copies its files.
type treeWriter struct {
	fs   *FS
	base string
	out  *os.File
	buf  []byte
	seen map[uint32]bool
}

// dir lists the entries of the directory at path, numbered id; root
// says it is the mounted one, whose entries are filtered by the prefix.
func (w *treeWriter) dir(path string, id uint32, root bool) error {
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	slices.Sort(names)
	for _, name := range names {
		if root && !w.fs.cfg.tracks(name) {
			continue
		}
		p := filepath.Join(path, name)
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return err
		}
		isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
		w.fs.mu.Lock()
		ino := w.fs.inoOf(&st)
		child, known := w.fs.ids[ino]
		if !known {
			child = w.fs.register(id, name, ino, isDir)
		}
		fi := w.fs.files[child]
		fi.tracked = true
		w.fs.mu.Unlock()
		if !fi.recorded() {
			continue
		}
		kind := iorecord.KindCreate
		switch {
		case w.seen[child]:
			kind = iorecord.KindLink
		case isDir:
			kind = iorecord.KindMkdir
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			continue // a symbolic link or a device: no data of the engine's
		}
		if err := w.entry(kind, child, id, name); err != nil {
			return err
		}
		if kind == iorecord.KindLink {
			continue
		}
		if w.seen == nil {
			w.seen = map[uint32]bool{}
		}
		w.seen[child] = true
		if isDir {
			err = w.dir(p, child, false)
		} else {
			err = w.copy(p, child)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *treeWriter) entry(kind iorecord.Kind, id, parent uint32, name string) error {
	_, err := w.out.Write(iorecord.AppendEvent(nil, &iorecord.Event{Kind: kind, File: id, Arg: int64(parent), Data: []byte(name)}))
	return err
}

// copy copies the file at path into the base, under its number.
func (w *treeWriter) copy(path string, id uint32) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(filepath.Join(w.base, strconv.FormatUint(uint64(id), 10)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.CopyBuffer(dst, src, w.buf)
	return errors.Join(err, dst.Close())
}
