package iorecord

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// Kind is the kind of a recorded event.
type Kind uint8

// The kinds of events. Their values are the record's format: C writes
// them too (ctrace.c).
const (
	KindWrite    Kind = 1  // Arg: offset; payload: the bytes
	KindTruncate Kind = 2  // Arg: the new size (with FlagGrow: at least this size)
	KindSync     Kind = 3  // Flags: SQLite's sync flags, or FlagDataSync
	KindCreate   Kind = 4  // the file of Role (or File, named by the payload in directory Arg) was created
	KindDelete   Kind = 5  // the file of Role (or the entry named by the payload in directory Arg) was removed
	KindDirSync  Kind = 6  // the database's directory (or directory File) was synced
	KindAck      Kind = 7  // payload: an Ack
	KindStart    Kind = 8  // the run's START: the files were copied just before
	KindEnd      Kind = 9  // the run ended: later events are not the run's
	KindFull     Kind = 10 // a process found the record at its limit and stopped
	KindMkdir    Kind = 11 // directory File, named by the payload, was made in directory Arg
	KindRename   Kind = 12 // payload: a Rename; File is the entry moved
	KindLink     Kind = 13 // file File got a second name, the payload, in directory Arg
	maxKind           = KindLink
)

// Event flags.
const (
	// FlagDataSync marks a sync of a file's data alone (fdatasync, or
	// msync, which reaches a file system as one), as SQLite's
	// SQLITE_SYNC_DATAONLY does.
	FlagDataSync = 0x10
	// FlagGrow marks a truncate that only grows a file (fallocate): a
	// file already longer keeps its size.
	FlagGrow = 0x100
	// FlagExchange marks a rename that swaps its two entries
	// (RENAME_EXCHANGE).
	FlagExchange = 0x200
	// FlagFailed marks a sync that failed (store.CrashFsyncFail injects
	// it): it returned EIO and, as Linux does after a failed writeback,
	// the pages it would have made durable are marked clean, never
	// written: what it covered is lost unless written again.
	FlagFailed = 0x400
)

// RootDir is the file id of the recorded directory itself, for events
// of the file system recorder.
const RootDir = 1

// HeaderLen is the length of an event's header.
const HeaderLen = 32

// AckLen is the length of an acknowledgement's payload.
const AckLen = 32

// MaxEvent bounds an event's length: SQLite writes at most a page (64
// KiB) or a WAL frame at once; a blob written through the WAL is still
// written page by page.
const MaxEvent = HeaderLen + 1<<20

// Event is one recorded event. Data aliases the reader's buffer.
type Event struct {
	Kind  Kind
	Role  uint8
	Flags uint16
	PID   uint32
	// File, when not 0, names the file (or directory) the event is about
	// by the number the file system recorder gave it, and the event's
	// Role only says what the file is for; 0 names it by its Role alone
	// (a VFS's events: the database, its journal, its WAL).
	File uint32
	Time int64
	Arg  int64
	Data []byte
	// Offset is where the event starts in the record (set by readers).
	Offset int64
}

// Ack is an acknowledgement: writes First to First+N-1 (in the worker's
// count of its writes in Phase) were committed, or, in a sql workload,
// the worker's scripts First to First+N-1. Start is when the first of
// them began (a monotonic clock reading); the event's Time is when the
// COMMIT had returned.
//
// A record workload's write is acknowledged on its own (N is 1) and
// names its record: Record is set, Key is the record's keynum (the
// event's Arg) and Field the field it wrote, or -1 for every field.
type Ack struct {
	Worker, Phase int
	First         uint64
	N             int
	Start         int64
	Record        bool
	Key           uint64
	Field         int
}

// AckEvent returns the event that records a.
func AckEvent(a Ack) Event {
	e := Event{Kind: KindAck, Data: AppendAck(nil, a)}
	if a.Record {
		e.Arg = int64(a.Key)
	}
	return e
}

// named reports whether an event of kind, from the file system
// recorder, carries the name of a directory entry.
func (k Kind) named() bool {
	switch k {
	case KindCreate, KindDelete, KindMkdir, KindRename, KindLink:
		return true
	}
	return false
}

// hasPayload reports whether an event of kind may carry a payload; byFile
// says it names its file by number.
func (k Kind) hasPayload(byFile bool) bool {
	return k == KindWrite || k == KindAck || byFile && k.named()
}

// Rename is a rename's payload: the entry Old in directory From became
// New in directory To (with FlagExchange, the two entries swapped).
type Rename struct {
	From, To uint32
	Old, New string
}

// AppendRename appends a rename's payload to dst.
func AppendRename(dst []byte, r Rename) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, r.From)
	dst = binary.LittleEndian.AppendUint32(dst, r.To)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(r.Old)))
	dst = append(dst, r.Old...)
	return append(dst, r.New...)
}

// Rename decodes a rename's payload.
func (e *Event) Rename() (Rename, error) {
	p := e.Data
	if len(p) < 10 {
		return Rename{}, fmt.Errorf("a rename of %d bytes", len(p))
	}
	n := int(binary.LittleEndian.Uint16(p[8:]))
	if 10+n > len(p) {
		return Rename{}, fmt.Errorf("a rename's old name of %d bytes in %d", n, len(p)-10)
	}
	return Rename{From: binary.LittleEndian.Uint32(p), To: binary.LittleEndian.Uint32(p[4:]),
		Old: string(p[10 : 10+n]), New: string(p[10+n:])}, nil
}

// Len returns the event's encoded length.
func (e *Event) Len() int { return HeaderLen + len(e.Data) }

// AppendEvent appends e's encoding to dst.
func AppendEvent(dst []byte, e *Event) []byte {
	var h [HeaderLen]byte
	binary.LittleEndian.PutUint32(h[0:], uint32(e.Len()))
	h[4], h[5] = byte(e.Kind), e.Role
	binary.LittleEndian.PutUint16(h[6:], e.Flags)
	binary.LittleEndian.PutUint32(h[8:], e.PID)
	binary.LittleEndian.PutUint32(h[12:], e.File)
	binary.LittleEndian.PutUint64(h[16:], uint64(e.Time))
	binary.LittleEndian.PutUint64(h[24:], uint64(e.Arg))
	dst = append(dst, h[:]...)
	return append(dst, e.Data...)
}

// AppendAck appends an acknowledgement's payload to dst.
func AppendAck(dst []byte, a Ack) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(a.Worker))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(a.Phase))
	dst = binary.LittleEndian.AppendUint64(dst, a.First)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(a.N))
	dst = binary.LittleEndian.AppendUint32(dst, ackFieldCode(a))
	return binary.LittleEndian.AppendUint64(dst, uint64(a.Start))
}

// ackFieldCode is the payload's word at offset 20: 0 for a key-value
// write or a script (or a record from before records were named), 1
// for a record write of every field, 2+f for one of field f.
func ackFieldCode(a Ack) uint32 {
	if !a.Record {
		return 0
	}
	return uint32(a.Field + 2)
}

// Ack decodes an acknowledgement's payload (and a record write's key,
// from the event's Arg).
func (e *Event) Ack() Ack {
	p := e.Data
	a := Ack{
		Worker: int(binary.LittleEndian.Uint32(p)),
		Phase:  int(int32(binary.LittleEndian.Uint32(p[4:]))), // a preload's is -1
		First:  binary.LittleEndian.Uint64(p[8:]),
		N:      int(binary.LittleEndian.Uint32(p[16:])),
		Start:  int64(binary.LittleEndian.Uint64(p[24:])),
	}
	if code := binary.LittleEndian.Uint32(p[20:]); code != 0 {
		a.Record, a.Key, a.Field = true, uint64(e.Arg), int(code)-2
	}
	return a
}

// parseHeader decodes a header into e, checking it; n is the event's
// length.
func parseHeader(h []byte, e *Event) (n int, err error) {
	n = int(binary.LittleEndian.Uint32(h))
	e.Kind, e.Role = Kind(h[4]), h[5]
	e.Flags = binary.LittleEndian.Uint16(h[6:])
	e.PID = binary.LittleEndian.Uint32(h[8:])
	e.File = binary.LittleEndian.Uint32(h[12:])
	e.Time = int64(binary.LittleEndian.Uint64(h[16:]))
	e.Arg = int64(binary.LittleEndian.Uint64(h[24:]))
	switch {
	case n < HeaderLen || n > MaxEvent:
		return 0, fmt.Errorf("impossible event length %d", n)
	case e.Kind == 0 || e.Kind > maxKind:
		return 0, fmt.Errorf("unknown event kind %d", h[4])
	case e.Kind == KindAck && n != HeaderLen+AckLen:
		return 0, fmt.Errorf("acknowledgement of %d bytes (want %d)", n, HeaderLen+AckLen)
	case e.File == 0 && e.Kind >= KindMkdir:
		return 0, fmt.Errorf("event of kind %d names no file", e.Kind)
	case n != HeaderLen && !e.Kind.hasPayload(e.File != 0):
		return 0, fmt.Errorf("event of kind %d with a payload", e.Kind)
	case n == HeaderLen && e.File != 0 && e.Kind.named():
		return 0, fmt.Errorf("event of kind %d without its name", e.Kind)
	case e.Arg < 0:
		return 0, fmt.Errorf("negative offset or size %d", e.Arg)
	}
	return n, nil
}

// Reader reads a record from its start, in the manner of bufio.Scanner.
type Reader struct {
	r   *bufio.Reader
	off int64
	buf []byte
	ev  Event
	err error
}

// NewReader returns a Reader of r, which starts at offset off of the
// record.
func NewReader(r io.Reader, off int64) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 256<<10), off: off}
}

// Scan reads the next event; false at the end of the record or on an
// error (Err). A record cut short in the middle of an event (a process
// killed while it wrote cannot do that: an append is one system call;
// a full disk can) ends with an error.
func (r *Reader) Scan() bool {
	if r.err != nil {
		return false
	}
	var h [HeaderLen]byte
	n, err := io.ReadFull(r.r, h[:])
	if err == io.EOF {
		return false
	}
	if err != nil {
		r.err = fmt.Errorf("record cut short at byte %d: %d of %d header bytes", r.off, n, HeaderLen)
		return false
	}
	ev := Event{Offset: r.off}
	size, err := parseHeader(h[:], &ev)
	if err != nil {
		r.err = fmt.Errorf("corrupt record at byte %d: %w", r.off, err)
		return false
	}
	if cap(r.buf) < size-HeaderLen {
		r.buf = make([]byte, size-HeaderLen)
	}
	ev.Data = r.buf[:size-HeaderLen]
	if _, err := io.ReadFull(r.r, ev.Data); err != nil {
		r.err = fmt.Errorf("record cut short at byte %d: an event of %d bytes", r.off, size)
		return false
	}
	r.off += int64(size)
	r.ev = ev
	return true
}

// Event returns the event the last Scan read; its Data is valid until
// the next Scan.
func (r *Reader) Event() *Event { return &r.ev }

// Err returns the error that stopped Scan, nil at the end of the record.
func (r *Reader) Err() error { return r.err }

// ReadEventAt reads the event at offset off of f into buf (grown as
// needed) and returns it; its Data aliases buf.
func ReadEventAt(f io.ReaderAt, off int64, buf *[]byte) (Event, error) {
	var h [HeaderLen]byte
	if _, err := f.ReadAt(h[:], off); err != nil {
		return Event{}, fmt.Errorf("reading the event at byte %d: %w", off, err)
	}
	ev := Event{Offset: off}
	size, err := parseHeader(h[:], &ev)
	if err != nil {
		return Event{}, fmt.Errorf("corrupt record at byte %d: %w", off, err)
	}
	if cap(*buf) < size-HeaderLen {
		*buf = make([]byte, size-HeaderLen)
	}
	ev.Data = (*buf)[:size-HeaderLen]
	if len(ev.Data) == 0 {
		return ev, nil
	}
	if _, err := f.ReadAt(ev.Data, off+HeaderLen); err != nil {
		return Event{}, fmt.Errorf("reading the event at byte %d: %w", off, err)
	}
	return ev, nil
}

// checkEvery is how many bytes a process appends between two looks at
// the record's size: the record may overrun its limit by this much per
// process.
const checkEvery = 64 << 10

// Recorder appends events to a record, each with a single write(2) to a
// file opened with O_APPEND. It is safe for concurrent use. Once the
// record holds its limit, the Recorder appends one KindFull event and
// nothing more.
type Recorder struct {
	f     *os.File
	pid   uint32
	limit int64
	since atomic.Int64
	full  atomic.Bool
	mu    sync.Mutex // guards err
	err   error
	pool  sync.Pool
}

// OpenRecorder opens the record at path for appending (creating it), to
// hold at most limit bytes.
func OpenRecorder(path string, limit int64) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the crash record: %w", err)
	}
	r := &Recorder{f: f, pid: uint32(os.Getpid()), limit: limit}
	r.pool.New = func() any { b := make([]byte, 0, 4096+HeaderLen); return &b }
	return r, nil
}

// Append appends e (its PID is the process's); data, if not nil, is the
// payload, in place of e.Data.
func (r *Recorder) Append(e Event) {
	if r.full.Load() {
		return
	}
	e.PID = r.pid
	bp := r.pool.Get().(*[]byte)
	b := AppendEvent((*bp)[:0], &e)
	r.write(b)
	*bp = b
	r.pool.Put(bp)
}

// write appends one encoded event and looks at the record's size every
// checkEvery bytes.
func (r *Recorder) write(b []byte) {
	n, err := r.f.Write(b)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		r.fail(fmt.Errorf("appending to the crash record: %w", err))
		return
	}
	if r.since.Add(int64(n)) < checkEvery {
		return
	}
	r.since.Store(0)
	fi, err := r.f.Stat()
	if err != nil {
		r.fail(fmt.Errorf("crash record: %w", err))
		return
	}
	if fi.Size() >= r.limit && !r.full.Swap(true) {
		var e Event
		e.Kind, e.PID = KindFull, r.pid
		_, _ = r.f.Write(AppendEvent(nil, &e))
	}
}

// fail keeps the first error and stops appending.
func (r *Recorder) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.full.Store(true)
}

// Err returns the first error an append met: the record is incomplete.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Close closes the record, returning the first error an append met.
func (r *Recorder) Close() error {
	return errors.Join(r.Err(), r.f.Close())
}
