// Package files stores each key in a file of its own, registered as
// "files": the "one file per blob" side of the database-against-its-
// filesystem comparison. Keys live flat in one directory, or in a tree of
// directories laid out as SQLite's kvtest lays out its export (three levels
// of at most 100 entries each up to a million keys; Options.Layout). Worker
// processes share the directory. A directory is gobench's when it holds
// the marker file; Init refuses any other non-empty directory.
package files

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/gobench/gobench/pkg/store"
)

// Marker is the file that marks a directory as gobench's own.
const Marker = ".gobench-files"

// Layouts.
const (
	Flat = "flat" // every key's file in the directory itself
	// Tree puts key k at dir/AA/BB/CC with AA = k/10000, BB = k/100%100,
	// CC = k%100, two digits each: kvtest's "export --tree". Directories
	// hold at most 100 entries (the top one 100 up to a million keys), and
	// neighbouring keys share a directory: 20,000 keys make 2 + 200
	// directories.
	Tree = "tree"
)

// Options are the files engine's settings, declared once
// (store.Declare): each field's flag, help and values.
type Options struct {
	// Layout is Flat or Tree.
	Layout string `json:"layout" flag:"layout" values:"flat,tree" help:"files engine: flat (one directory) or tree (kvtest's: key k at k/10000/k/100%100/k%100, at most 100 entries per directory)"`
	// Sync is the common --sync: off never syncs; normal fsyncs every
	// written file before the write returns (a power cut may lose a file
	// just created: its directory entry is not synced); full fsyncs the
	// directory too after a write that may have created the file, and
	// after a delete.
	Sync string `json:"sync,omitempty" flag:"sync"`
}

// DefaultOptions returns the flat layout, every write synced with its
// directory entry.
func DefaultOptions() Options { return Options{Layout: Flat, Sync: store.SyncFull} }

// Validate checks the options: a layout is one of the declared values.
func (o Options) Validate() error { return nil }

// declared is the declaration of Options.
var declared = store.Declare("the files engine", DefaultOptions)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() json.RawMessage { return declared.Encode(o) }

// Driver is the files engine.
type Driver struct{}

var _ store.Driver = Driver{}

// Name returns "files".
func (Driver) Name() string { return "files" }

// Open checks the options; the directory is made by Init.
func (Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	o, err := store.OpenOptions(declared, cfg, "a directory", "a directory it did not create: it would delete the files there")
	if err != nil {
		return nil, err
	}
	return &dir{path: cfg.Path, opts: o}, nil
}

var _ store.DiskFiler = Driver{}

// DiskFiles says the directory is the store's: a file per key, and the
// marker.
func (Driver) DiskFiles(cfg store.Config) (store.DiskFiles, error) {
	return store.DiskFiles{Dir: cfg.Path}, nil
}

type dir struct {
	path string
	opts Options
}

var (
	_ store.Store     = (*dir)(nil)
	_ store.Describer = (*dir)(nil)
)

// Init makes the directory gobench's (or checks it is) and empties it.
func (d *dir) Init(context.Context) error {
	entries, err := store.ClaimDir(d.path, Marker, "a gobench files store")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != Marker {
			if err := os.RemoveAll(filepath.Join(d.path, e.Name())); err != nil {
				return fmt.Errorf("emptying %s: %w", d.path, err)
			}
		}
	}
	return nil
}

func (d *dir) Conn(context.Context) (store.Conn, error) {
	if _, err := os.Stat(filepath.Join(d.path, Marker)); err != nil {
		return nil, fmt.Errorf("opening %s: not an initialised gobench files store: %w", d.path, err)
	}
	return &conn{d: d, name: make([]byte, 0, len(d.path)+32)}, nil
}

func (d *dir) Close() error { return nil }

var _ store.Checker = (*dir)(nil)

// Check reads every file of the store: the engine keeps no checksums or
// structure of its own, so what can break is a file that does not read
// back, or an entry that is not a file (a directory where a key's file
// belongs, in the flat layout).
func (d *dir) Check(ctx context.Context) ([]string, error) {
	var problems []string
	err := filepath.WalkDir(d.path, func(p string, e fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			problems = append(problems, err.Error())
			return nil
		}
		if e.IsDir() {
			if p != d.path && d.opts.Layout == Flat {
				problems = append(problems, p+" is a directory")
			}
			return nil
		}
		if _, err := os.ReadFile(p); err != nil {
			problems = append(problems, err.Error())
		}
		return nil
	})
	return problems, err
}

func (d *dir) Describe(context.Context) ([]store.Fact, error) {
	return append([]store.Fact{{Name: "driver", Value: "files"}, {Name: store.FactSyncPrimitive, Value: store.FileSyncPrimitive}}, declared.Facts(d.opts)...), nil
}

type conn struct {
	d    *dir
	name []byte
}

var (
	_ store.Conn     = (*conn)(nil)
	_ store.Updater  = (*conn)(nil)
	_ store.Deleter  = (*conn)(nil)
	_ store.Inserter = (*conn)(nil)
)

// path returns the file of key, built in a reused buffer.
func (c *conn) path(key uint64) string {
	b := append(c.name[:0], c.d.path...)
	b = append(b, '/')
	if c.d.opts.Layout == Tree {
		b = appendTwo(b, key/10000)
		b = append(b, '/')
		b = appendTwo(b, key/100%100)
		b = append(b, '/')
		b = appendTwo(b, key%100)
	} else {
		b = strconv.AppendUint(b, key, 10)
	}
	c.name = b
	return string(b)
}

// appendTwo appends n in decimal, at least two digits.
func appendTwo(b []byte, n uint64) []byte {
	if n >= 100 {
		return strconv.AppendUint(b, n, 10)
	}
	return append(b, byte('0'+n/10), byte('0'+n%10))
}

func (c *conn) Get(key uint64, dst []byte) ([]byte, error) {
	f, err := os.Open(c.path(key))
	if err != nil {
		return dst[:0], wrap(err)
	}
	defer f.Close()
	dst = dst[:0]
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := f.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, wrap(err)
		}
	}
}

// Put writes the file whole, creating it (and its directories) if needed.
func (c *conn) Put(key uint64, value []byte) error {
	return wrap(c.create(c.path(key), value, os.O_WRONLY|os.O_CREATE|os.O_TRUNC))
}

// Insert creates the file; an existing one fails with class constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	err := c.create(c.path(key), value, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if errors.Is(err, fs.ErrExist) {
		return store.Wrap(store.Constraint, err)
	}
	return wrap(err)
}

// create writes a file that may be new, making its tree directory on
// first use.
func (c *conn) create(p string, value []byte, flags int) error {
	err := c.write(p, value, flags)
	if errors.Is(err, fs.ErrNotExist) && c.d.opts.Layout == Tree {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		err = c.write(p, value, flags)
	}
	if err == nil {
		err = c.syncDir(p)
	}
	return err
}

// syncDir fsyncs the directory of p at --sync full, so that a file
// created or removed there stays so after a power cut. (A tree's new
// directories are not synced in their parents: the first write of a
// directory's hundred keys can still be lost.)
func (c *conn) syncDir(p string) error {
	if c.d.opts.Sync != store.SyncFull {
		return nil
	}
	return store.SyncDir(filepath.Dir(p))
}

// Update rewrites an existing file; a missing one is ErrNotFound.
func (c *conn) Update(key uint64, value []byte) error {
	return wrap(c.write(c.path(key), value, os.O_WRONLY|os.O_TRUNC))
}

func (c *conn) write(p string, value []byte, flags int) error {
	f, err := os.OpenFile(p, flags, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(value)
	if err == nil && c.d.opts.Sync != store.SyncOff {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (c *conn) Delete(key uint64) error {
	p := c.path(key)
	err := os.Remove(p)
	if err == nil {
		err = c.syncDir(p)
	}
	return wrap(err)
}

func (c *conn) Close() error { return nil }

// wrap classifies a file-system error.
func wrap(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return store.ErrNotFound
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return store.Wrap(store.Full, err)
	case errors.Is(err, syscall.EIO):
		return store.Wrap(store.IO, err)
	}
	return store.Wrap(store.Other, err)
}

var _ store.LiveCounter = (*dir)(nil)

// Live counts the files kept (one per key, its 8-byte key and its
// bytes).
func (d *dir) Live(context.Context) (store.Live, error) {
	var l store.Live
	err := filepath.WalkDir(d.path, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() || e.Name() == Marker {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		l.Keys++
		l.Bytes += 8 + fi.Size()
		return nil
	})
	return l, wrap(err)
}
