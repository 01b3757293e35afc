package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
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
	// Notify relays interrupt signals (SIGINT, SIGTERM) to c.
	Notify func(c chan<- os.Signal)
	// IgnoreInterrupts makes this process ignore SIGINT and SIGTERM (a
	// worker process stops when its coordinator says so).
	IgnoreInterrupts func()
	// SampleOut returns the worker's sample stream, fd 3.
	SampleOut func() (io.WriteCloser, error)
	// Abort is closed by Main at a second interrupt: running workers are
	// killed at once.
	Abort <-chan struct{}
	// StderrIsTerminal tells whether progress may redraw one line.
	StderrIsTerminal bool
	PID              int
	FS               FS
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
	// WriteAtomic writes a file through a temporary file in the same
	// directory and a rename: a reader never sees half of it.
	WriteAtomic(path string, write func(io.Writer) error) error
	// Filesystem names the type of the filesystem holding path.
	Filesystem(path string) string
	// MountOptions returns the options of the mount holding path, or "".
	MountOptions(path string) string
	// Writable reports whether files can be created in dir.
	Writable(dir string) error
	// CreateAtomic starts writing path through a temporary file in the
	// same directory; Commit renames it into place, Abort removes it.
	CreateAtomic(path string) (AtomicFile, error)
}

// AtomicFile is a file that appears at its path only when committed.
type AtomicFile interface {
	io.Writer
	Commit() error
	Abort()
}

// OSEnv returns the Env of the real process.
func OSEnv() *Env {
	return &Env{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
		Notify: func(c chan<- os.Signal) { signal.Notify(c, os.Interrupt, syscall.SIGTERM) },
		IgnoreInterrupts: func() {
			signal.Ignore(os.Interrupt, syscall.SIGTERM)
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
		PID:              os.Getpid(),
		FS:               osFS{},
	}
}

type osFS struct{}

func (osFS) MkdirTemp(dir, pattern string) (string, error) { return os.MkdirTemp(dir, pattern) }
func (osFS) RemoveAll(path string) error                   { return os.RemoveAll(path) }
func (osFS) Stat(path string) (os.FileInfo, error)         { return os.Stat(path) }
func (osFS) Open(path string) (io.ReadCloser, error)       { return os.Open(path) }
func (osFS) Abs(path string) (string, error)               { return filepath.Abs(path) }
func (osFS) Filesystem(path string) string                 { return sysinfo.Filesystem(path) }
func (osFS) MountOptions(path string) string               { return sysinfo.MountOptions(path) }

type atomicFile struct {
	f    *os.File
	path string
}

func (a *atomicFile) Write(p []byte) (int, error) { return a.f.Write(p) }

func (a *atomicFile) Commit() error {
	if err := a.f.Sync(); err != nil {
		a.Abort()
		return err
	}
	if err := a.f.Close(); err != nil {
		os.Remove(a.f.Name())
		return err
	}
	if err := os.Chmod(a.f.Name(), 0o644); err != nil {
		os.Remove(a.f.Name())
		return err
	}
	return os.Rename(a.f.Name(), a.path)
}

func (a *atomicFile) Abort() {
	a.f.Close()
	os.Remove(a.f.Name())
}

func (osFS) CreateAtomic(path string) (AtomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{f: f, path: path}, nil
}

func (osFS) Writable(dir string) error {
	f, err := os.CreateTemp(dir, ".gobench-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

func (osFS) WriteAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
