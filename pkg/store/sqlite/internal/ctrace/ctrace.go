//go:build cgo

// Package ctrace is gobench's tracing VFS in C, registered in the SQLite
// that github.com/mattn/go-sqlite3 compiles into the binary (the one the
// mattn and capi drivers both run): a thin layer over the unix VFS that
// counts every write, truncate, sync, deletion and directory sync by the
// role of the file, and, while a run records, appends them to the crash
// record (see package iotrace). A connection uses it when its URI says
// vfs=Name. It exists only in cgo builds.
package ctrace

/*
#include <stdlib.h>
#include "ctrace.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"syscall"
	"unsafe"

	_ "github.com/mattn/go-sqlite3" // provides the sqlite3_* functions the VFS calls

	"github.com/gobench/gobench/pkg/store"
)

// Name is the VFS's name, for a URI's vfs parameter.
const Name = "gobench-trace"

var (
	once   sync.Once
	regErr error
)

// Register registers the VFS, once per process; every call returns the
// first one's error.
func Register() error {
	once.Do(func() {
		cs := C.CString(Name) // kept for the process's life: SQLite keeps the pointer
		if rc := C.gbt_register(cs); rc != 0 {
			regErr = fmt.Errorf("registering the tracing VFS: SQLite result code %d", int(rc))
		}
	})
	return regErr
}

// Counts returns the counts since the process started.
func Counts() store.IOCounts {
	var c C.gbt_counts
	C.gbt_snapshot(&c)
	var io store.IOCounts
	for r := range store.NumRoles {
		// The C VFS keeps the counts store.FileIO had when it was
		// written, in their order; those added since (SyncWrites: a
		// VFS sees no descriptor's O_DSYNC) stay zero.
		for i, p := range io.Role(r).Fields()[:len(c.n[r])] {
			*p = int64(c.n[r][i])
		}
	}
	return io
}

// StartRecording appends, from now on, every event on the files of the
// database at db (its full path, as SQLite names it: the database, its
// -journal and its -wal) to the record at path, which is to hold at most
// limit bytes. A failSync above 0 makes the failSync-th sync of those
// files (counting from 1) fail with SQLITE_IOERR_FSYNC, recorded with
// iorecord.FlagFailed.
func StartRecording(path, db string, limit, failSync int64) error {
	cp, cd := C.CString(path), C.CString(db)
	defer C.free(unsafe.Pointer(cp))
	defer C.free(unsafe.Pointer(cd))
	if e := C.gbt_record_start(cp, cd, C.longlong(limit), C.longlong(failSync)); e != 0 {
		return fmt.Errorf("opening the crash record %s: %w", path, syscall.Errno(e))
	}
	return nil
}

// StopRecording stops appending and closes the record.
func StopRecording() { C.gbt_record_stop() }

// RecordErr returns the error of the first append that failed (the
// record is then incomplete), or nil.
func RecordErr() error {
	if e := C.gbt_record_errno(); e != 0 {
		return fmt.Errorf("appending to the crash record: %w", syscall.Errno(e))
	}
	return nil
}
