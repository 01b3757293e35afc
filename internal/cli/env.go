package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"golang.org/x/term"

	"github.com/gobench/gobench/internal/sysinfo"
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
	// Args is the command line after the program name, recorded in
	// results and plan files (Main sets it).
	Args []string
	PID  int
	FS   FS
}

// FS is the file system as the commands use it.
type FS interface {
	// MkdirTemp makes a new directory in dir ("" for the OS's temporary
	// directory).
	MkdirTemp(dir, pattern string) (string, error)
	RemoveAll(path string) error
	Stat(path string) (os.FileInfo, error)
	Open(path string) (io.ReadCloser, error)
	Abs(path string) (string, error)
	// WriteOutput writes an output file with write (see CreateOutput).
	WriteOutput(path string, write func(io.Writer) error) error
	// AppendOutput appends to a file with write, creating it if need be
	// (a job summary collects every step's output).
	AppendOutput(path string, write func(io.Writer) error) error
	// OutputTarget says what writing path would write: the file its
	// symlinks lead to (even one that does not exist yet), and whether
	// that is written through in place (a device or a FIFO) rather than
	// replaced. A directory, or a file of a kind that cannot be written
	// (a socket), is an error.
	OutputTarget(path string) (target string, through bool, err error)
	// Filesystem names the type of the filesystem holding path.
	Filesystem(path string) string
	// Writable reports whether files can be created in dir.
	Writable(dir string) error
	// CreateOutput starts writing an output file. A new path or a
	// regular file is written through a temporary file in its directory,
	// renamed into place by Commit (a reader never sees half of it; the
	// old file keeps its permissions); Abort removes the temporary file.
	// A symlink is followed: its target is what gets written. A device or
	// a FIFO is written through in place, never replaced.
	CreateOutput(path string) (OutputFile, error)
}

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
		PID: os.Getpid(),
		FS:  osFS{},
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

type osFS struct{}

func (osFS) MkdirTemp(dir, pattern string) (string, error) { return os.MkdirTemp(dir, pattern) }
func (osFS) RemoveAll(path string) error                   { return os.RemoveAll(path) }
func (osFS) Stat(path string) (os.FileInfo, error)         { return os.Stat(path) }
func (osFS) Open(path string) (io.ReadCloser, error)       { return os.Open(path) }
func (osFS) Abs(path string) (string, error)               { return filepath.Abs(path) }
func (osFS) Filesystem(path string) string                 { return sysinfo.Filesystem(path) }

// maxLinks bounds the symlinks followed to an output's target, as the
// kernel bounds them (ELOOP).
const maxLinks = 40

// OutputTarget follows path's symlinks one by one, so that a dangling
// link leads to the file it names, and says how that file is written.
func (osFS) OutputTarget(path string) (string, bool, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if os.IsNotExist(err) {
			return path, false, nil
		}
		if err != nil {
			return "", false, err
		}
		switch m := fi.Mode(); {
		case m&os.ModeSymlink != 0:
			t, err := os.Readlink(path)
			if err != nil {
				return "", false, err
			}
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(path), t)
			}
			path = t
			continue
		case m.IsRegular():
			return path, false, nil
		case m.IsDir():
			return "", false, fmt.Errorf("%s is a directory", path)
		case m&(os.ModeDevice|os.ModeCharDevice|os.ModeNamedPipe) != 0:
			return path, true, nil
		default:
			return "", false, fmt.Errorf("%s is a %v, which cannot be written", path, m.Type())
		}
	}
	return "", false, fmt.Errorf("%s: too many levels of symbolic links", path)
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
	target, through, err := fs.OutputTarget(path)
	if err != nil {
		return nil, err
	}
	if through {
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return throughFile{f}, nil
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{f: f, path: target, mode: mode}, nil
}

func (osFS) Writable(dir string) error {
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

func (osFS) AppendOutput(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
