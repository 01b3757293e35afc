//go:build cgo

package sqlite

import (
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite/internal/ctrace"
)

// cTrace is the tracing VFS in the SQLite mattn compiles, which the mattn
// and capi drivers share.
type cTrace struct{}

func (cTrace) traceVFS() (string, error) { return ctrace.Name, ctrace.Register() }
func (cTrace) ioCounts() store.IOCounts  { return ctrace.Counts() }
func (cTrace) traceNote() string {
	return "VFS " + ctrace.Name + " (C) over SQLite's unix VFS, in the SQLite mattn's package compiles"
}

func (cTrace) startRecord(path, db string, limit, failSync int64) error {
	return ctrace.StartRecording(path, db, limit, failSync)
}
func (cTrace) stopRecord()      { ctrace.StopRecording() }
func (cTrace) recordErr() error { return ctrace.RecordErr() }
