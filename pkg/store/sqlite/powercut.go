package sqlite

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.DiskFiler     = (*Driver)(nil)
	_ store.PowerCutter   = (*Driver)(nil)
	_ store.PowerCutStore = (*db)(nil)
	_ store.AckRecorder   = (*txn)(nil)
)

// recordingBackend is a tracing backend whose VFS appends the events of
// the recorded database's files to the crash record itself (the C VFS,
// with a descriptor of its own); ncruces's Go VFS appends through the
// process's Go recorder instead.
type recordingBackend interface {
	startRecord(path, db string, limit, failSync int64) error
	stopRecord()
	recordErr() error
}

// PowerCutSupport says why a run of cfg cannot be recorded for the
// power-cut simulation: a driver whose I/O is not traced (modernc), a
// database in memory. Worker processes and goroutines both can.
func (d *Driver) PowerCutSupport(cfg store.Config, _ string) error {
	if _, ok := d.be.(tracingBackend); !ok {
		return fmt.Errorf("the %s driver cannot record a run: its I/O is not traced (see its io_trace fact); mattn, capi and ncruces can", d.name)
	}
	o, err := DecodeOptions(cfg.Options)
	if err != nil {
		return err
	}
	if o.Memory {
		return errors.New("a power cut loses what files on disk did not sync: an in-memory database has none")
	}
	return nil
}

// DiskFiles says where the database of cfg keeps its files, for the
// FUSE recording file system: its database file, its journal and its
// WAL (and its -shm, which no model keeps) beside one another, named
// after the database, in the database's directory.
func (d *Driver) DiskFiles(cfg store.Config) (store.DiskFiles, error) {
	o, err := DecodeOptions(cfg.Options)
	if err != nil {
		return store.DiskFiles{}, err
	}
	if o.Memory {
		return store.DiskFiles{}, errors.New("an in-memory database keeps no files")
	}
	name := filepath.Base(cfg.Path)
	return store.DiskFiles{Dir: filepath.Dir(cfg.Path), Prefix: name, Path: name, Roles: []store.RoleSuffix{
		{Suffix: "-journal", Role: store.RoleJournal}, {Suffix: "-wal", Role: store.RoleWAL}, {Suffix: "-shm", Role: store.RoleOther}},
		Scratch: []string{"-shm"}}, nil
}

// files returns the database's files by role: the database, its journal,
// its WAL.
func (s *db) files() [3]string {
	return [3]string{s.path, s.path + "-journal", s.path + "-wal"}
}

// fullPath is the database's path as SQLite names it to its VFS:
// absolute, symbolic links resolved.
func (s *db) fullPath() (string, error) {
	abs, err := filepath.Abs(s.path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

// recMu guards starting and stopping the process's recording.
var recMu sync.Mutex

// startProcRecording makes this process record the events of s's files
// to rec, if it does not already.
func (s *db) startProcRecording(rec store.Record) error {
	recMu.Lock()
	defer recMu.Unlock()
	if procRecording() != nil {
		return nil
	}
	full, err := s.fullPath()
	if err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	r, err := iorecord.OpenRecorder(rec.Path, rec.Limit)
	if err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	if rb, ok := s.d.be.(recordingBackend); ok {
		if err := rb.startRecord(rec.Path, full, rec.Limit, rec.FailSync); err != nil {
			r.Close()
			return fmt.Errorf("--crash: %w", err)
		}
	}
	recording.Store(&procRec{r: r, db: full, failSync: rec.FailSync})
	return nil
}

// stopProcRecording stops the process's recording, returning the first
// error an append met.
func (s *db) stopProcRecording() error {
	recMu.Lock()
	defer recMu.Unlock()
	p := recording.Swap(nil)
	if p == nil {
		return nil
	}
	var err error
	if rb, ok := s.d.be.(recordingBackend); ok {
		err = rb.recordErr()
		rb.stopRecord()
	}
	return errors.Join(err, p.r.Close())
}

// StartRecording makes the database's files and directory durable,
// copies the files into dir/base, appends the run's start to the record
// and records this process's I/O on them from now on.
func (s *db) StartRecording(dir string, rec store.Record) error {
	base := filepath.Join(dir, "base")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	for _, f := range s.files() {
		if err := syncAndCopy(f, filepath.Join(base, filepath.Base(f))); err != nil {
			return fmt.Errorf("--crash: copying %s at the start: %w", f, err)
		}
	}
	if err := syncDir(filepath.Dir(s.path)); err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	if err := s.startProcRecording(rec); err != nil {
		return err
	}
	procRecording().event(iorecord.Event{Kind: iorecord.KindStart})
	return nil
}

// StopRecording appends the run's end and stops this process's
// recording.
func (s *db) StopRecording() error {
	if p := procRecording(); p != nil {
		p.event(iorecord.Event{Kind: iorecord.KindEnd})
	}
	return s.stopProcRecording()
}

// RecordAck appends an acknowledgement to the process's record, if it
// records.
func (t *txn) RecordAck(a store.Ack) {
	if p := procRecording(); p != nil {
		p.event(iorecord.AckEvent(iorecord.Ack{Worker: a.Worker, Phase: a.Phase, First: a.First, N: a.N, Start: a.Start,
			Record: a.Record, Key: a.Key, Field: a.Field}))
	}
}

// syncAndCopy syncs the file at src, if it exists, and copies it to dst.
func syncAndCopy(src, dst string) error {
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	if err := in.Sync(); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// syncDir syncs a directory, so the entries of its files are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
