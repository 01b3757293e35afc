package recfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// FS is a mounted recording file system.
type FS struct {
	cfg  Config
	dir  *os.File // the directory mounted over, opened before the mount hid it
	real string   // its path through dir's descriptor
	dev  uint64   // its device
	root *node
	srv  *fuse.Server

	mu    sync.Mutex
	ids   map[uint64]uint32 // go-fuse's inode number → file number
	files map[uint32]*fileInfo
	next  uint32

	rec    atomic.Pointer[iorecord.Recorder]
	counts counters
	// syncs counts the syncs of recorded files while recording, for
	// Config.FailSync.
	syncs atomic.Int64
}

// fileInfo is what the file system knows of one file or directory.
type fileInfo struct {
	dir     bool
	tracked bool // counted: one of the store's files
	scratch bool // counted, not recorded (Config.Scratch)
	role    int
}

// recorded reports whether the file's changes go into the record: the
// store's files, but its scratch files (SQLite's -shm, LMDB's lock.mdb),
// which hold nothing a crash leaves and which engines make anew, are
// only counted.
func (fi fileInfo) recorded() bool {
	return fi.tracked && !fi.scratch
}

// Mount mounts the recording file system over cfg.Dir and serves it
// until Unmount. It records nothing until Start.
func Mount(cfg Config) (*FS, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := Available(); err != nil {
		return nil, err
	}
	d, err := os.Open(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("recording file system: %w", err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(d.Fd()), &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		d.Close()
		return nil, fmt.Errorf("recording file system: %s is not a directory", cfg.Dir)
	}
	f := &FS{cfg: cfg, dir: d, real: fmt.Sprintf("/proc/self/fd/%d", d.Fd()), dev: st.Dev,
		ids: map[uint64]uint32{}, files: map[uint32]*fileInfo{}, next: iorecord.RootDir}
	lroot, err := fs.NewLoopbackRoot(f.real)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("recording file system: %w", err)
	}
	f.root = &node{LoopbackNode: lroot.(*fs.LoopbackNode), fs: f}
	f.root.RootData.RootNode = f.root
	f.ids[f.inoOf(&st)] = iorecord.RootDir
	f.files[iorecord.RootDir] = &fileInfo{dir: true, tracked: true}
	opts := &fs.Options{MountOptions: fuse.MountOptions{
		FsName:      fmt.Sprintf("%s%d", SourcePrefix, os.Getpid()),
		Name:        FSType[len("fuse."):],
		DirectMount: true, // as root; others go through fusermount3
		MaxWrite:    1 << 20,
		// Other users (a worker run as another) may use the mount only
		// if the system allows it; gobench's own processes are the
		// mounting user's.
		DisableXAttrs: true,
	}}
	f.srv, err = fs.Mount(cfg.Dir, f.root, opts)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("%w: mounting over %s: %w", ErrUnavailable, cfg.Dir, mountError(err))
	}
	f.mu.Lock()
	f.ids[f.root.StableAttr().Ino] = iorecord.RootDir // go-fuse numbers the root 1
	f.mu.Unlock()
	return f, nil
}

// inoOf returns go-fuse's inode number for a file of the mounted
// directory's tree (the underlying one, its device mixed in when it is
// not the directory's).
func (f *FS) inoOf(st *unix.Stat_t) uint64 {
	swap := func(x uint64) uint64 { return x<<32 | x>>32 }
	return swap(st.Dev) ^ swap(f.dev) ^ st.Ino
}

// Counts returns what the recorded files received since the mount.
func (f *FS) Counts() store.IOCounts { return f.counts.snapshot() }

// Unmount ends recording and unmounts, at once if nothing has a file of
// the mount open, else lazily: the mount leaves the namespace now, and
// what has files open keeps them until it closes them or this process
// exits.
func (f *FS) Unmount() error {
	if r := f.rec.Swap(nil); r != nil {
		r.Close()
	}
	err := f.srv.Unmount()
	if err != nil {
		if derr := detach(f.cfg.Dir); derr != nil {
			return fmt.Errorf("unmounting %s: %w (and lazily: %w)", f.cfg.Dir, err, derr)
		}
	}
	f.dir.Close()
	return nil
}

// info returns what is known of file id; a number never given is
// untracked.
func (f *FS) info(id uint32) fileInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fi := f.files[id]; fi != nil {
		return *fi
	}
	return fileInfo{}
}

// idOf returns the number of the file whose go-fuse inode is in, giving
// it one (untracked: a file met other than by its name) if it has none.
func (f *FS) idOf(in *fs.Inode) uint32 {
	ino := in.StableAttr().Ino
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.ids[ino]; ok {
		return id
	}
	f.next++
	f.ids[ino] = f.next
	f.files[f.next] = &fileInfo{dir: in.IsDir()}
	return f.next
}

// found registers a file found by name in directory parent (a lookup,
// an open of an existing file), if it is not known, and returns its
// number.
func (f *FS) found(parent uint32, name string, in *fs.Inode) uint32 {
	ino := in.StableAttr().Ino
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.ids[ino]; ok {
		return id
	}
	return f.register(parent, name, ino, in.IsDir())
}

// created gives a file new in directory parent a number of its own
// (an inode number the file system reuses names a new file) and records
// its creation.
func (f *FS) created(parent uint32, name string, in *fs.Inode) uint32 {
	f.mu.Lock()
	id := f.register(parent, name, in.StableAttr().Ino, in.IsDir())
	fi := *f.files[id]
	f.mu.Unlock()
	if fi.recorded() {
		kind := iorecord.KindCreate
		if fi.dir {
			kind = iorecord.KindMkdir
		}
		f.record(iorecord.Event{Kind: kind, File: id, Role: uint8(fi.role), Arg: int64(parent), Data: []byte(name)})
	}
	return id
}

// register numbers a file; f.mu is held.
func (f *FS) register(parent uint32, name string, ino uint64, dir bool) uint32 {
	f.next++
	f.ids[ino] = f.next
	f.files[f.next] = &fileInfo{dir: dir, tracked: f.tracked(parent, name), scratch: !dir && f.cfg.scratch(name), role: f.cfg.roleOf(name)}
	return f.next
}

// tracked reports whether an entry name of directory parent is
// recorded; f.mu is held.
func (f *FS) tracked(parent uint32, name string) bool {
	if parent == iorecord.RootDir {
		return f.cfg.tracks(name)
	}
	p := f.files[parent]
	return p != nil && p.tracked
}

// record appends e to the record, if the run records.
func (f *FS) record(e iorecord.Event) {
	if r := f.rec.Load(); r != nil {
		e.Time = iorecord.Now()
		r.Append(e)
	}
}

// wrote records a write that completed.
func (f *FS) wrote(id uint32, off int64, data []byte) {
	fi := f.info(id)
	if !fi.tracked || len(data) == 0 {
		return
	}
	c := f.counts.role(fi.role)
	c.writes.Add(1)
	c.bytes.Add(int64(len(data)))
	if fi.recorded() {
		f.record(iorecord.Event{Kind: iorecord.KindWrite, File: id, Role: uint8(fi.role), Arg: off, Data: data})
	}
}

// truncated records a truncate that completed (grow: an allocation).
func (f *FS) truncated(id uint32, size int64, grow bool) {
	fi := f.info(id)
	if !fi.tracked {
		return
	}
	e := iorecord.Event{Kind: iorecord.KindTruncate, File: id, Role: uint8(fi.role), Arg: size}
	if grow {
		e.Flags = iorecord.FlagGrow
	} else {
		f.counts.role(fi.role).truncates.Add(1)
	}
	if fi.recorded() {
		f.record(e)
	}
}

// syncing records a sync about to start; write says it is the kernel's,
// for a write through an O_DSYNC or O_SYNC descriptor.
func (f *FS) syncing(id uint32, data, write bool) {
	fi := f.info(id)
	if !fi.tracked {
		return
	}
	c := f.counts.role(fi.role)
	e := iorecord.Event{File: id, Role: uint8(fi.role)}
	switch {
	case fi.dir:
		e.Kind = iorecord.KindDirSync
		f.counts.role(store.RoleDatabase).dirSyncs.Add(1)
	default:
		e.Kind = iorecord.KindSync
		c.syncs.Add(1)
		if data {
			e.Flags = iorecord.FlagDataSync
		}
		switch {
		case write:
			c.syncWrites.Add(1)
		case data:
			c.data.Add(1)
		}
	}
	if fi.recorded() {
		f.record(e)
	}
}

// failsSync reports whether a sync of file id is the one Config.FailSync
// fails, and if so records it as failed.
func (f *FS) failsSync(id uint32, data bool) bool {
	fi := f.info(id)
	if f.cfg.FailSync <= 0 || fi.dir || !fi.recorded() || f.rec.Load() == nil || f.syncs.Add(1) != f.cfg.FailSync {
		return false
	}
	e := iorecord.Event{Kind: iorecord.KindSync, File: id, Role: uint8(fi.role), Flags: iorecord.FlagFailed}
	if data {
		e.Flags |= iorecord.FlagDataSync
	}
	f.record(e)
	return true
}

// removed records the removal of entry name of directory parent, which
// was file id.
func (f *FS) removed(parent, id uint32, name string) {
	fi := f.info(id)
	if fi.tracked && !fi.dir {
		f.counts.role(fi.role).deletes.Add(1)
	}
	if fi.recorded() {
		f.record(iorecord.Event{Kind: iorecord.KindDelete, File: id, Role: uint8(fi.role), Arg: int64(parent), Data: []byte(name)})
	}
}

// node is a file or directory of the mount: a loopback node whose
// changes are recorded.
type node struct {
	*fs.LoopbackNode
	fs *FS
}

var (
	_ fs.NodeWrapChilder    = (*node)(nil)
	_ fs.NodeLookuper       = (*node)(nil)
	_ fs.NodeCreater        = (*node)(nil)
	_ fs.NodeOpener         = (*node)(nil)
	_ fs.NodeOpendirHandler = (*node)(nil)
	_ fs.NodeMkdirer        = (*node)(nil)
	_ fs.NodeMknoder        = (*node)(nil)
	_ fs.NodeSymlinker      = (*node)(nil)
	_ fs.NodeLinker         = (*node)(nil)
	_ fs.NodeUnlinker       = (*node)(nil)
	_ fs.NodeRmdirer        = (*node)(nil)
	_ fs.NodeRenamer        = (*node)(nil)
	_ fs.NodeSetattrer      = (*node)(nil)
	_ fs.NodeCopyFileRanger = (*node)(nil)
	_ fs.NodeTmpfiler       = (*node)(nil)
	_ fs.FileWriter         = (*file)(nil)
	_ fs.FileWritever       = (*file)(nil)
	_ fs.FileFsyncer        = (*file)(nil)
	_ fs.FileAllocater      = (*file)(nil)
	_ fs.FileFsyncdirer     = (*dirHandle)(nil)
	_ fs.FileReaddirenter   = (*dirHandle)(nil)
	_ fs.FileReleasedirer   = (*dirHandle)(nil)
	_ fs.FileSeekdirer      = (*dirHandle)(nil)
	_ fs.FileReader         = (*file)(nil)
	_ fs.FileReleaser       = (*file)(nil)
	_ fs.FileFlusher        = (*file)(nil)
	_ fs.FileGetattrer      = (*file)(nil)
	_ fs.FileSetattrer      = (*file)(nil)
	_ fs.FileLseeker        = (*file)(nil)
	_ fs.FileStatxer        = (*file)(nil)
)

// WrapChild makes every node the loopback makes one of the recording
// file system.
func (n *node) WrapChild(_ context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	return &node{LoopbackNode: ops.(*fs.LoopbackNode), fs: n.fs}
}

func (n *node) id() uint32 { return n.fs.idOf(n.EmbeddedInode()) }

// realPath is the node's path in the directory mounted over.
func (n *node) realPath() string {
	return filepath.Join(n.fs.real, n.Path(n.fs.root.EmbeddedInode()))
}

// lstat looks at entry name of the directory, as it is underneath.
func (n *node) lstat(name string) (unix.Stat_t, bool) {
	var st unix.Stat_t
	err := unix.Lstat(filepath.Join(n.realPath(), name), &st)
	return st, err == nil
}

// idAt returns the number of entry name of the directory, as it is
// underneath, registering it if it is new to the file system.
func (n *node) idAt(name string) (uint32, bool) {
	st, ok := n.lstat(name)
	if !ok {
		return 0, false
	}
	f := n.fs
	parent := n.id()
	f.mu.Lock()
	defer f.mu.Unlock()
	ino := f.inoOf(&st)
	if id, ok := f.ids[ino]; ok {
		return id, true
	}
	return f.register(parent, name, ino, st.Mode&unix.S_IFMT == unix.S_IFDIR), true
}

func (n *node) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	ch, errno := n.LoopbackNode.Lookup(ctx, name, out)
	if errno == 0 {
		n.fs.found(n.id(), name, ch)
	}
	return ch, errno
}

func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	_, existed := n.lstat(name)
	ch, fh, fuseFlags, errno := n.LoopbackNode.Create(ctx, name, flags, mode, out)
	if errno != 0 {
		return ch, fh, fuseFlags, errno
	}
	var id uint32
	if existed {
		id = n.fs.found(n.id(), name, ch)
		if flags&syscall.O_TRUNC != 0 {
			n.fs.truncated(id, 0, false)
		}
	} else {
		id = n.fs.created(n.id(), name, ch)
	}
	return ch, n.fs.wrap(fh, id, flags), fuseFlags, 0
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fuseFlags, errno := n.LoopbackNode.Open(ctx, flags)
	if errno != 0 {
		return fh, fuseFlags, errno
	}
	id := n.id()
	if flags&syscall.O_TRUNC != 0 && flags&syscall.O_ACCMODE != syscall.O_RDONLY {
		n.fs.truncated(id, 0, false)
	}
	return n.fs.wrap(fh, id, flags), fuseFlags, 0
}

func (n *node) OpendirHandle(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fuseFlags, errno := n.LoopbackNode.OpendirHandle(ctx, flags)
	if errno != 0 {
		return fh, fuseFlags, errno
	}
	ds, ok := fh.(dirStream)
	if !ok {
		return nil, 0, syscall.EIO
	}
	return &dirHandle{dirStream: ds, fs: n.fs, id: n.id()}, fuseFlags, 0
}

func (n *node) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	ch, errno := n.LoopbackNode.Mkdir(ctx, name, mode, out)
	if errno == 0 {
		n.fs.created(n.id(), name, ch)
	}
	return ch, errno
}

func (n *node) Mknod(ctx context.Context, name string, mode, rdev uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	ch, errno := n.LoopbackNode.Mknod(ctx, name, mode, rdev, out)
	if errno == 0 {
		n.fs.created(n.id(), name, ch)
	}
	return ch, errno
}

func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	ch, errno := n.LoopbackNode.Symlink(ctx, target, name, out)
	if errno == 0 {
		n.fs.created(n.id(), name, ch)
	}
	return ch, errno
}

func (n *node) Link(ctx context.Context, target fs.InodeEmbedder, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	t := n.fs.idOf(target.EmbeddedInode())
	fi := n.fs.info(t)
	if fi.recorded() != n.fs.infoAt(n.id(), name, fi.dir).recorded() {
		return nil, syscall.EXDEV
	}
	ch, errno := n.LoopbackNode.Link(ctx, target, name, out)
	if errno == 0 {
		if fi.recorded() {
			n.fs.record(iorecord.Event{Kind: iorecord.KindLink, File: t, Role: uint8(fi.role), Arg: int64(n.id()), Data: []byte(name)})
		}
	}
	return ch, errno
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	id, _ := n.idAt(name)
	errno := n.LoopbackNode.Unlink(ctx, name)
	if errno == 0 && id != 0 {
		n.fs.removed(n.id(), id, name)
	}
	return errno
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	id, _ := n.idAt(name)
	errno := n.LoopbackNode.Rmdir(ctx, name)
	if errno == 0 && id != 0 {
		n.fs.removed(n.id(), id, name)
	}
	return errno
}

func (n *node) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	to, ok := newParent.(*node)
	if !ok {
		return syscall.EXDEV
	}
	from, dst := n.id(), to.id()
	moved, ok := n.idAt(name)
	if !ok {
		return syscall.ENOENT
	}
	f := n.fs
	exchange := flags&unix.RENAME_EXCHANGE != 0
	mi := f.info(moved)
	recorded := mi.recorded()
	other, hasOther := to.idAt(newName)
	oi := f.info(other)
	if recorded != f.infoAt(dst, newName, mi.dir).recorded() || exchange && hasOther && oi.recorded() != f.infoAt(from, name, oi.dir).recorded() {
		return syscall.EXDEV // its record would lack the file's past
	}
	errno := n.LoopbackNode.Rename(ctx, name, newParent, newName, flags)
	if errno != 0 {
		return errno
	}
	f.renamed(moved, dst, newName)
	if exchange && hasOther {
		f.renamed(other, from, name)
	}
	if recorded {
		e := iorecord.Event{Kind: iorecord.KindRename, File: moved, Role: uint8(f.info(moved).role),
			Data: iorecord.AppendRename(nil, iorecord.Rename{From: from, To: dst, Old: name, New: newName})}
		if exchange {
			e.Flags = iorecord.FlagExchange
		}
		f.record(e)
	}
	return 0
}

// infoAt returns what a file (dir: a directory) named name in directory
// parent would be.
func (f *FS) infoAt(parent uint32, name string, dir bool) fileInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fileInfo{dir: dir, tracked: f.tracked(parent, name), scratch: !dir && f.cfg.scratch(name), role: f.cfg.roleOf(name)}
}

// renamed gives file id the role of its new name.
func (f *FS) renamed(id, parent uint32, name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fi := f.files[id]; fi != nil {
		fi.role = f.cfg.roleOf(name)
		fi.tracked = f.tracked(parent, name)
		fi.scratch = !fi.dir && f.cfg.scratch(name)
	}
}

func (n *node) Setattr(ctx context.Context, fh fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	errno := n.LoopbackNode.Setattr(ctx, fh, in, out)
	if size, ok := in.GetSize(); ok && errno == 0 {
		id := n.id()
		if f, ok := fh.(*file); ok {
			id = f.id
		}
		n.fs.truncated(id, int64(size), false)
	}
	return errno
}

// CopyFileRange is refused: the kernel then copies with reads and
// writes, which are recorded.
func (n *node) CopyFileRange(context.Context, fs.FileHandle, uint64, *fs.Inode, fs.FileHandle, uint64, uint64, uint64) (uint32, syscall.Errno) {
	return 0, syscall.ENOSYS
}

// Tmpfile is refused: a file with no name, linked into a directory
// later, has no path the loopback could record.
func (n *node) Tmpfile(context.Context, uint32, uint32, *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	return nil, nil, 0, syscall.EOPNOTSUPP
}

// wrap makes a loopback file handle of file id, opened with flags, a
// recording one.
func (f *FS) wrap(fh fs.FileHandle, id uint32, flags uint32) fs.FileHandle {
	lf, ok := fh.(*fs.LoopbackFile)
	if !ok {
		return fh
	}
	return &file{lf: lf, fs: f, id: id, syncWrites: flags&(syscall.O_DSYNC|syscall.O_SYNC) != 0}
}

// file is an open file of the mount whose changes are recorded. It
// passes each call on to the loopback's file, and is not a
// fs.FilePassthroughFder: the kernel must not read and write the file
// behind the recorder's back (FUSE passthrough, which go-fuse offers
// for loopback files when it can).
type file struct {
	lf *fs.LoopbackFile
	fs *FS
	id uint32
	// syncWrites says the file was opened with O_DSYNC or O_SYNC: the
	// kernel syncs after each write to it, and those are its only syncs
	// an engine makes (LMDB's meta page, written so, is never fsynced).
	syncWrites bool
}

func (f *file) Read(ctx context.Context, buf []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	return f.lf.Read(ctx, buf, off)
}

func (f *file) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	n, errno := f.lf.Write(ctx, data, off)
	if errno == 0 {
		f.fs.wrote(f.id, off, data[:n])
	}
	return n, errno
}

func (f *file) Writev(ctx context.Context, iov [][]byte, off int64) (uint32, syscall.Errno) {
	var data []byte
	for _, b := range iov {
		data = append(data, b...)
	}
	return f.Write(ctx, data, off)
}

// Fsync syncs the file as asked: fdatasync for a data sync (and an
// msync), fsync otherwise; the sync Config.FailSync names syncs nothing
// and returns EIO.
func (f *file) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	data := flags&1 != 0 // FUSE_FSYNC_FDATASYNC
	if f.fs.failsSync(f.id, data) {
		return syscall.EIO
	}
	f.fs.syncing(f.id, data, f.syncWrites)
	fd, ok := f.lf.PassthroughFd()
	if !ok {
		return syscall.EBADF
	}
	if data {
		return fs.ToErrno(unix.Fdatasync(fd))
	}
	return fs.ToErrno(unix.Fsync(fd))
}

// Allocate passes on an allocation that reserves space or grows the
// file; one that punches or zeroes a range is refused (the engine then
// writes), since the record holds no such change.
func (f *file) Allocate(ctx context.Context, off, size uint64, mode uint32) syscall.Errno {
	if mode&^unix.FALLOC_FL_KEEP_SIZE != 0 {
		return syscall.EOPNOTSUPP
	}
	errno := f.lf.Allocate(ctx, off, size, mode)
	if errno == 0 && mode == 0 {
		f.fs.truncated(f.id, int64(off+size), true)
	}
	return errno
}

func (f *file) Release(ctx context.Context) syscall.Errno { return f.lf.Release(ctx) }
func (f *file) Flush(ctx context.Context) syscall.Errno   { return f.lf.Flush(ctx) }
func (f *file) Getattr(ctx context.Context, out *fuse.AttrOut) syscall.Errno {
	return f.lf.Getattr(ctx, out)
}
func (f *file) Setattr(ctx context.Context, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	return f.lf.Setattr(ctx, in, out)
}
func (f *file) Lseek(ctx context.Context, off uint64, whence uint32) (uint64, syscall.Errno) {
	return f.lf.Lseek(ctx, off, whence)
}
func (f *file) Statx(ctx context.Context, flags uint32, mask uint32, out *fuse.StatxOut) syscall.Errno {
	return f.lf.Statx(ctx, flags, mask, out)
}

// dirStream is what the loopback's directory handles do.
type dirStream interface {
	fs.FileReaddirenter
	fs.FileSeekdirer
	fs.FileReleasedirer
	fs.FileFsyncdirer
}

// dirHandle is an open directory of the mount whose syncs are recorded.
type dirHandle struct {
	dirStream
	fs *FS
	id uint32
}

func (d *dirHandle) Fsyncdir(ctx context.Context, flags uint32) syscall.Errno {
	d.fs.syncing(d.id, false, false)
	return d.dirStream.Fsyncdir(ctx, flags)
}
