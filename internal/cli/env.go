package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/sysinfo"
)

// Env is everything the commands take from the operating system. OSEnv is
// the only place that touches the os package; tests build their own Env
// with buffers and temporary directories.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Notify relays the signals that stop gobench to c: SIGINT, SIGTERM,
	// SIGHUP, SIGQUIT, and SIGPIPE (which any pipe raises; a write to
	// Stdout or Stderr that met a closed pipe closes BrokenPipe).
	Notify func(c chan<- os.Signal)
	// BrokenPipe, if not nil, is closed once a write to Stdout or Stderr
	// failed because the pipe's reader is gone (EPIPE): gobench stops as
	// for SIGTERM rather than die of SIGPIPE with its temporary files left.
	BrokenPipe <-chan struct{}
	// IgnoreInterrupts makes this process ignore SIGINT, SIGTERM and
	// SIGHUP (a worker process stops when its coordinator says so; a
	// terminal's signals reach the whole process group), and leaves
	// SIGQUIT and SIGPIPE to Go's defaults.
	IgnoreInterrupts func()
	// IgnoreBrokenPipe makes a write to a pipe whose reader is gone fail
	// (EPIPE) instead of killing this process: the recording file
	// system's helper must outlive its coordinator long enough to
	// unmount.
	IgnoreBrokenPipe func()
	// SampleOut returns the worker's sample stream, fd 3.
	SampleOut func() (io.WriteCloser, error)
	// Abort is closed by Main at a second interrupt: running workers are
	// killed at once.
	Abort <-chan struct{}
	// StderrIsTerminal tells whether progress may redraw one line, and
	// StderrWidth gives that terminal's columns (0 when it does not say;
	// nil: unknown).
	StderrIsTerminal bool
	StderrWidth      func() int
	// StdoutWidth gives the columns of stdout when it is a terminal (a
	// text report is fitted to them: report.Options.Width), 0 when it is
	// not one (a file or a pipe gets whole lines); nil: not a terminal.
	StdoutWidth func() int
	// Args is the command line after the program name, recorded in
	// results and plan files (Main sets it).
	Args []string
	PID  int
	FS   FS
	// Registry holds the engines the commands know: their names, flags,
	// completion and help, and the drivers runs open. Nil: every engine
	// of this build (all.Registry()). Worker processes are started as
	// this program and know the engines of this build, so an engine a
	// test registers here runs in goroutine mode.
	Registry *store.Registry

	// progress is stderr as it was given, for the progress line, which
	// escapes its fields itself (Main sets it, and Stderr to messages;
	// both write through one stderrLine).
	progress io.Writer
}

// registry returns the engines the commands know (Env.Registry).
func (e *Env) registry() *store.Registry {
	if e.Registry != nil {
		return e.Registry
	}
	return all.Registry()
}

// stdoutWidth is the width a report written to stdout fits: its
// terminal's columns, 0 (whole lines) when it is not a terminal.
func (e *Env) stdoutWidth() int {
	if e.StdoutWidth == nil {
		return 0
	}
	return e.StdoutWidth()
}

// progressOut is where the progress line goes.
func (e *Env) progressOut() io.Writer {
	if e.progress != nil {
		return e.progress
	}
	return e.Stderr
}

// FS is the file system as the commands use it. No method waits for
// another process: a FIFO is opened without blocking, and one with no
// process at its other end is an error (errNoPeer), never a hang that
// only SIGKILL ends.
type FS interface {
	// MkdirTemp makes a new directory in dir ("" for the OS's temporary
	// directory).
	MkdirTemp(dir, pattern string) (string, error)
	RemoveAll(path string) error
	Stat(path string) (os.FileInfo, error)
	// Glob returns the names matching pattern (filepath.Glob), sorted.
	Glob(pattern string) ([]string, error)
	// Open opens a file to read. A FIFO that nothing writes to is an
	// error at its first read (errNoPeer), and a directory at once.
	Open(path string) (io.ReadCloser, error)
	// Head returns the first n bytes of the regular file at path, or all
	// of a shorter one.
	Head(path string, n int) ([]byte, error)
	Abs(path string) (string, error)
	// SameFile reports whether two existing paths are one file.
	SameFile(a, b string) bool
	// TempDir is the OS's temporary directory ($TMPDIR or /tmp).
	TempDir() string
	// FreeBytes returns the space free to this user on the file system of
	// path, and whether it could be read.
	FreeBytes(path string) (int64, bool)
	// WriteOutput writes an output file with write (see CreateOutput).
	WriteOutput(path string, write func(io.Writer) error) error
	// AppendOutput appends to a file with write, creating it if need be
	// (a job summary collects every step's output).
	AppendOutput(path string, write func(io.Writer) error) error
	// OutputTarget says what writing path would write (see Target). A
	// directory, or a file of a kind that cannot be written (a socket),
	// is an error.
	OutputTarget(path string) (Target, error)
	// Hold opens now a target that is written through (Target.Through),
	// without waiting: a FIFO that nothing reads is an error (errNoPeer).
	// The output written to it later uses the file held, so a FIFO's
	// reader sees no end of file before the output. Release closes what
	// is held and was not written.
	Hold(t Target) error
	Release()
	// CancelReads ends every read of a FIFO opened by Open that waits for
	// its writer, now and from now on, with an error that is
	// context.Canceled: an interrupt stops a command reading a FIFO whose
	// writer is silent.
	CancelReads()
	// Filesystem names the type of the filesystem holding path.
	Filesystem(path string) string
	// Writable reports whether files can be created in dir, creating
	// none where the OS can tell (access(2)).
	Writable(dir string) error
	// CreateOutput starts writing an output file. A new path or a
	// regular file is written through a temporary file in its directory,
	// renamed into place by Commit (a reader never sees half of it; the
	// old file keeps its permissions); Abort removes the temporary file.
	// A symlink is followed: its target is what gets written. A device, a
	// FIFO, a pipe or one of this process's descriptors (/dev/stdout) is
	// written through in place, never replaced.
	CreateOutput(path string) (OutputFile, error)
}

// Target is what writing an output path writes.
type Target struct {
	// Path is the file written: where the path's symlinks lead, even to a
	// file that does not exist yet; for a descriptor of this process
	// (/dev/stdout, /proc/self/fd/1), that path itself.
	Path string
	// Exists says whether Path exists; Mode is then its type bits (0 for
	// a regular file).
	Exists bool
	Mode   os.FileMode
	// Through is set for a target written in place rather than replaced:
	// a device, a FIFO, a pipe, a descriptor of this process.
	Through bool
}

// FIFO reports whether the target is a FIFO or a pipe.
func (t Target) FIFO() bool { return t.Mode&os.ModeNamedPipe != 0 }

// Sink reports whether the target is a character device (/dev/null, a
// terminal), which any number of outputs may share.
func (t Target) Sink() bool { return t.Mode&os.ModeCharDevice != 0 }

// BlockDevice reports whether the target is a block device (a disk).
func (t Target) BlockDevice() bool {
	return t.Mode&os.ModeDevice != 0 && t.Mode&os.ModeCharDevice == 0
}

// errNoPeer marks a FIFO with no process at its other end: opening it
// would wait for one, and nothing could interrupt the wait.
var errNoPeer = errors.New("a FIFO with nothing at its other end")

// OutputFile is an output being written: it is complete at its path once
// committed.
type OutputFile interface {
	io.Writer
	Commit() error
	Abort()
}

// OSEnv returns the Env of the real process.
func OSEnv() *Env {
	broken := make(chan struct{})
	closeBroken := sync.OnceFunc(func() { close(broken) })
	return &Env{
		Stdin:      os.Stdin,
		Stdout:     pipeOut{os.Stdout, closeBroken},
		Stderr:     pipeOut{os.Stderr, closeBroken},
		BrokenPipe: broken,
		Getenv:     os.Getenv,
		Notify: func(c chan<- os.Signal) {
			signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
		},
		IgnoreInterrupts: func() {
			signal.Ignore(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			signal.Reset(syscall.SIGQUIT, syscall.SIGPIPE)
		},
		IgnoreBrokenPipe: func() { signal.Ignore(syscall.SIGPIPE) },
		SampleOut: func() (io.WriteCloser, error) {
			f := os.NewFile(3, "samples")
			if f == nil {
				return nil, fmt.Errorf("no sample pipe on fd 3: the worker command is started by gobench itself, not by hand")
			}
			if _, err := f.Stat(); err != nil {
				return nil, fmt.Errorf("no sample pipe on fd 3 (%v): the worker command is started by gobench itself, not by hand", err)
			}
			return f, nil
		},
		StderrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		StderrWidth: func() int {
			w, _, err := term.GetSize(int(os.Stderr.Fd()))
			if err != nil {
				return 0
			}
			return w
		},
		StdoutWidth: func() int {
			fd := int(os.Stdout.Fd())
			if !term.IsTerminal(fd) {
				return 0
			}
			if w, _, err := term.GetSize(fd); err == nil && w > 0 {
				return w
			}
			return report.TextWidth
		},
		PID: os.Getpid(),
		FS:  newOSFS(),
	}
}

// pipeOut is stdout or stderr: a write that fails because the pipe's
// reader is gone calls broken (once SIGPIPE is relayed, Go no longer
// kills the process for it: the write fails with EPIPE).
type pipeOut struct {
	f      *os.File
	broken func()
}

func (p pipeOut) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		p.broken()
	}
	return n, err
}

// osFS is the real file system. It holds the outputs opened ahead of
// their writing (Hold); the zero value holds none and opens each when it
// is written.
type osFS struct{ held *heldFiles }

// newOSFS returns the real file system, holding outputs.
func newOSFS() osFS {
	return osFS{held: &heldFiles{files: map[string]*os.File{}, readers: map[*fifoReader]bool{}}}
}

// heldFiles are outputs opened ahead of their writing, by path.
type heldFiles struct {
	mu        sync.Mutex
	files     map[string]*os.File
	readers   map[*fifoReader]bool // FIFOs open for reading
	cancelled bool                 // CancelReads was called
}

func (osFS) MkdirTemp(dir, pattern string) (string, error) { return os.MkdirTemp(dir, pattern) }
func (osFS) RemoveAll(path string) error                   { return os.RemoveAll(path) }
func (osFS) Stat(path string) (os.FileInfo, error)         { return os.Stat(path) }
func (osFS) Glob(pattern string) ([]string, error)         { return filepath.Glob(pattern) }
func (osFS) Abs(path string) (string, error)               { return filepath.Abs(path) }
func (osFS) Filesystem(path string) string                 { return sysinfo.Filesystem(path) }
func (osFS) TempDir() string                               { return os.TempDir() }
func (osFS) FreeBytes(path string) (int64, bool)           { return sysinfo.FreeBytes(path) }

func (osFS) SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// Open opens path without waiting for a FIFO's writer (O_NONBLOCK); a
// FIFO's first read then tells whether anything writes to it.
func (fs osFS) Open(path string) (io.ReadCloser, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, err
	case fi.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s is a directory", path)
	case fi.Mode()&os.ModeNamedPipe != 0:
		waitInReads(f)
		return fs.held.track(&fifoReader{File: f}), nil
	}
	return f, nil
}

// fifoReader reads a FIFO opened without waiting for a writer: an end of
// file at the first read means that nothing writes to it.
type fifoReader struct {
	*os.File
	read      bool
	held      *heldFiles // nil: not tracked
	cancelled atomic.Bool
}

// errReadCancelled ends the reads of a FIFO after CancelReads.
var errReadCancelled = fmt.Errorf("reading a FIFO: %w", context.Canceled)

func (r *fifoReader) Read(p []byte) (int, error) {
	if r.cancelled.Load() {
		return 0, errReadCancelled
	}
	n, err := r.File.Read(p)
	if r.cancelled.Load() && n == 0 {
		return 0, errReadCancelled
	}
	if !r.read && n == 0 && err == io.EOF {
		return 0, fmt.Errorf("it is %w: start its writer first", errNoPeer)
	}
	r.read = true
	return n, err
}

// Close closes the FIFO and forgets it.
func (r *fifoReader) Close() error {
	if h := r.held; h != nil {
		h.mu.Lock()
		delete(h.readers, r)
		h.mu.Unlock()
	}
	return r.File.Close()
}

// track notes r among the readers CancelReads ends; a nil h tracks none.
func (h *heldFiles) track(r *fifoReader) *fifoReader {
	if h == nil {
		return r
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	r.held = h
	h.readers[r] = true
	if h.cancelled {
		r.cancel()
	}
	return r
}

// cancel ends r's reads: the one waiting (through a deadline, where the
// OS lets Go poll the FIFO) and those to come.
func (r *fifoReader) cancel() {
	r.cancelled.Store(true)
	_ = r.File.SetReadDeadline(time.Unix(1, 0))
}

func (fs osFS) CancelReads() {
	if fs.held == nil {
		return
	}
	fs.held.mu.Lock()
	defer fs.held.mu.Unlock()
	fs.held.cancelled = true
	for r := range fs.held.readers {
		r.cancel()
	}
}

func (osFS) Head(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, err := io.ReadFull(f, b)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return b[:m], err
}

// maxLinks bounds the symlinks followed to an output's target, as the
// kernel bounds them (ELOOP).
const maxLinks = 40

// OutputTarget follows path's symlinks one by one, so that a dangling
// link leads to the file it names, and says how that file is written. A
// descriptor of this process (/dev/stdout leads to /proc/self/fd/1) is
// written through that path: its link names a pipe or a terminal, not a
// file to replace.
func (osFS) OutputTarget(path string) (Target, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if os.IsNotExist(err) {
			return Target{Path: path}, nil
		}
		if err != nil {
			return Target{}, err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			return classify(path, fi.Mode(), false)
		}
		if isDescriptor(path) {
			fi, err := os.Stat(path)
			if err != nil {
				return Target{}, err
			}
			return classify(path, fi.Mode(), true)
		}
		t, err := os.Readlink(path)
		if err != nil {
			return Target{}, err
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(path), t)
		}
		path = t
	}
	return Target{}, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// isDescriptor reports whether path is one of a process's descriptors:
// /proc/PID/fd/N, /proc/self/fd/N or /dev/fd/N.
func isDescriptor(path string) bool {
	dir := filepath.Dir(path)
	return dir == "/dev/fd" || filepath.Base(dir) == "fd" && filepath.Dir(filepath.Dir(dir)) == "/proc"
}

// classify says how an existing file of mode m at path is written; a
// descriptor is written through whatever it is.
func classify(path string, m os.FileMode, descriptor bool) (Target, error) {
	t := Target{Path: path, Exists: true, Mode: m.Type(), Through: descriptor}
	switch {
	case m.IsDir():
		return Target{}, fmt.Errorf("%s is a directory", path)
	case m.IsRegular():
	case m&(os.ModeDevice|os.ModeNamedPipe) != 0:
		t.Through = true
	default:
		return Target{}, fmt.Errorf("%s is a %v, which cannot be written", path, m.Type())
	}
	return t, nil
}

// openThrough opens a target written through, without waiting for a
// FIFO's reader: none is errNoPeer. A descriptor of this process that is
// a regular file (stdout redirected to one) is appended to.
func openThrough(t Target) (*os.File, error) {
	flag := os.O_WRONLY | syscall.O_NONBLOCK
	if t.Mode.IsRegular() {
		flag = os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(t.Path, flag, 0)
	if t.FIFO() && errors.Is(err, syscall.ENXIO) {
		return nil, fmt.Errorf("%s is %w: start its reader first", t.Path, errNoPeer)
	}
	if err != nil {
		return nil, err
	}
	if t.FIFO() {
		waitInWrites(f)
	}
	return f, nil
}

func (fs osFS) Hold(t Target) error {
	if !t.Through || fs.held == nil {
		return nil
	}
	fs.held.mu.Lock()
	defer fs.held.mu.Unlock()
	if fs.held.files[t.Path] != nil {
		return nil
	}
	f, err := openThrough(t)
	if err != nil {
		return err
	}
	if t.Sink() && alwaysFull(f.Fd()) {
		f.Close()
		return fmt.Errorf("%s is the full device, to which every write fails (no space left on device): give a file, or /dev/null to discard the output", t.Path)
	}
	fs.held.files[t.Path] = f
	return nil
}

func (fs osFS) Release() {
	if fs.held == nil {
		return
	}
	fs.held.mu.Lock()
	defer fs.held.mu.Unlock()
	for p, f := range fs.held.files {
		f.Close()
		delete(fs.held.files, p)
	}
}

// through returns the file held for t, or opens it.
func (fs osFS) through(t Target) (*os.File, error) {
	if fs.held != nil {
		fs.held.mu.Lock()
		f := fs.held.files[t.Path]
		delete(fs.held.files, t.Path)
		fs.held.mu.Unlock()
		if f != nil {
			return f, nil
		}
	}
	return openThrough(t)
}

// throughFile writes a device or a FIFO in place.
type throughFile struct{ f *os.File }

func (t throughFile) Write(p []byte) (int, error) { return t.f.Write(p) }
func (t throughFile) Commit() error               { return t.f.Close() }
func (t throughFile) Abort()                      { t.f.Close() }

// atomicFile is a temporary file renamed over path when committed.
type atomicFile struct {
	f    *os.File
	path string
	mode os.FileMode
}

func (a *atomicFile) Write(p []byte) (int, error) { return a.f.Write(p) }

func (a *atomicFile) Commit() error {
	err := a.f.Sync()
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(a.f.Name(), a.mode)
	}
	if err == nil {
		err = os.Rename(a.f.Name(), a.path)
	}
	if err != nil {
		os.Remove(a.f.Name())
	}
	return err
}

func (a *atomicFile) Abort() {
	a.f.Close()
	os.Remove(a.f.Name())
}

func (fs osFS) CreateOutput(path string) (OutputFile, error) {
	t, err := fs.OutputTarget(path)
	if err != nil {
		return nil, err
	}
	if t.Through {
		f, err := fs.through(t)
		if err != nil {
			return nil, err
		}
		return throughFile{f}, nil
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(t.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(t.Path), "."+filepath.Base(t.Path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{f: f, path: t.Path, mode: mode}, nil
}

func (osFS) Writable(dir string) error {
	if known, err := accessWrite(dir); known {
		return err
	}
	f, err := os.CreateTemp(dir, ".gobench-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

func (fs osFS) WriteOutput(path string, write func(io.Writer) error) error {
	f, err := fs.CreateOutput(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// AppendOutput appends to the target of path: a file written through (a
// FIFO, a device) is written as CreateOutput writes it.
func (fs osFS) AppendOutput(path string, write func(io.Writer) error) error {
	t, err := fs.OutputTarget(path)
	if err != nil {
		return err
	}
	var f *os.File
	if t.Through {
		f, err = fs.through(t)
	} else {
		f, err = os.OpenFile(t.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	}
	if err != nil {
		return err
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
