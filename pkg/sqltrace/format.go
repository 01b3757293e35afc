package sqltrace

import (
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
)

// Version is the format version this package writes, and the newest it
// reads. Version 2 added an Exec's digest of its rows (FlagDigest); a
// version 1 trace reads as one whose statements have none.
const Version = 2

// magic opens every trace file.
var magic = [8]byte{'G', 'B', 'T', 'R', 'A', 'C', 'E', '\n'}

// Bounds of the format: what a writer never exceeds and a reader refuses.
const (
	// HeaderLen is the length of a trace file's header.
	HeaderLen = 16
	// MaxChunk is the largest chunk payload.
	MaxChunk = 4 << 20
	// MaxValue is the longest text or blob parameter kept whole; a longer
	// one is kept as its type and length (ValueOmitted).
	MaxValue = 1 << 20
	// MaxText is the longest SQL text.
	MaxText = 1 << 20
	// MaxString is the longest path, command or note.
	MaxString = 64 << 10
	// MaxParams is the most parameters an Exec carries (SQLite's default
	// SQLITE_MAX_VARIABLE_NUMBER).
	MaxParams = 32766
	// MaxTexts and MaxTextBytes bound the SQL texts one stream defines.
	MaxTexts     = 1 << 16
	MaxTextBytes = 16 << 20
	// maxAllTextBytes bounds the SQL texts a reader keeps over every
	// stream it reads.
	maxAllTextBytes = 256 << 20
)

// Chunk types.
const (
	chunkRecords  = 'R'
	chunkSnapshot = 'S'
	chunkEnd      = 'E'
)

// crcTable is CRC-32C's (Castagnoli), which the C writer computes too.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Kind is the kind of a record.
type Kind uint8

// Record kinds. KindData is the reader's for a chunk of a snapshot's
// bytes; it is never written as a record.
const (
	KindProcess  Kind = 1
	KindDB       Kind = 2
	KindOpen     Kind = 3
	KindClose    Kind = 4
	kindSQL      Kind = 5
	KindExec     Kind = 6
	KindSegment  Kind = 7
	KindNote     Kind = 8
	KindSnapshot Kind = 9
	KindSnapFile Kind = 10
	KindDigest   Kind = 11
	KindData     Kind = 100
)

var kindNames = map[Kind]string{
	KindProcess: "process", KindDB: "db", KindOpen: "open", KindClose: "close", kindSQL: "sql",
	KindExec: "exec", KindSegment: "segment", KindNote: "note", KindSnapshot: "snapshot",
	KindSnapFile: "snapfile", KindDigest: "digest", KindData: "data",
}

// String returns the kind's name.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Record is one record of a trace, as Reader.Next returns it: Kind says
// which of the fields holds it. Slices and strings stay valid until the
// next call to Next.
type Record struct {
	Kind Kind
	// Stream is the process the record belongs to (0: the capture's own
	// records), or for KindData the snapshot number.
	Stream uint64
	// Offset is where the record's chunk begins in the file.
	Offset int64

	Process  Process
	DB       DB
	Open     Open
	Close    Close
	Exec     Exec
	Segment  Segment
	Note     Note
	Snapshot Snapshot
	SnapFile SnapFile
	Digest   Digest
	// Data is a chunk of a snapshot's bytes (KindData), in order.
	Data []byte
}

// Process opens a process's stream.
type Process struct {
	PID, PPID uint64
	// Wall is when the process's capture began, in Unix nanoseconds;
	// Mono is the same instant on the monotonic clock.
	Wall, Mono int64
	// Command is the process's command line, its arguments separated by
	// spaces.
	Command string
}

// DB names a database file by an id of its stream's.
type DB struct {
	ID   uint64
	Path string
}

// Open is a connection opened (Code 0) or not.
type Open struct {
	Conn, DB uint64
	Time     int64
	Flags    uint64 // sqlite3_open_v2's flags
	Code     int    // the result code
	Thread   uint64
}

// Close is a connection closed.
type Close struct {
	Conn uint64
	Time int64
	Code int
}

// Exec is one execution of one statement: from its first step after it was
// prepared or reset to its last (the step that returned SQLITE_DONE or an
// error, or the last before the application reset or finalized it).
type Exec struct {
	Conn, Thread uint64
	// SQL is the statement's text; SQLID the stream's id of it (0: a
	// text defined for this Exec alone).
	SQL   string
	SQLID uint64
	// Params are the values bound to the statement's parameters, by index
	// (Params[0] is parameter 1).
	Params []Value
	// Start is when the first step began; Span from then to the end of
	// the last step; InSQLite the time spent inside the steps.
	Start, Span, InSQLite int64
	// Code is 0 if the statement succeeded, else the extended result code
	// of the step that failed.
	Code int
	// Rows is how many rows the steps returned; Digest, with
	// FlagDigest, a hash of them, their values and types (see RowHash; in
	// order with FlagOrdered, else in any order); Changes, with
	// FlagChanges, how many rows the statement inserted, updated or
	// deleted (sqlite3_changes).
	Rows, Changes int64
	Digest        uint64
	Flags         Flags
	// BusyWaits counts the lock attempts that found the database busy
	// during the steps.
	BusyWaits int64
	// Snap is the database state the statement's transaction saw, if the
	// transaction began during this statement; Commit the state its
	// commit made, if one was made during it.
	Snap, Commit State
}

// Flags describe an Exec.
type Flags uint32

// Exec flags.
const (
	// FlagDone: the statement ran to its end (SQLITE_DONE).
	FlagDone Flags = 1 << iota
	// FlagAutocommitBefore and FlagAutocommitAfter: no transaction was
	// open on the connection before the first step, after the last.
	FlagAutocommitBefore
	FlagAutocommitAfter
	// FlagExec: one statement of an sqlite3_exec call.
	FlagExec
	// FlagMulti: the text may hold several statements (an sqlite3_exec
	// whose statements the capture could not see one by one).
	FlagMulti
	// FlagReadOnly: sqlite3_stmt_readonly said the statement writes
	// nothing to the database.
	FlagReadOnly
	// FlagChanges: Changes counts the rows the statement changed (it is
	// an INSERT, UPDATE or DELETE).
	FlagChanges
	// FlagUncertain: the capture could not tell which state the
	// statement saw (a commit of another connection was under way while
	// it ran, where the capture could not watch the engine's locks); a
	// replay does not compare its rows.
	FlagUncertain
	// FlagCut: the statement's text was longer than MaxText, and SQL
	// holds its first MaxText bytes only; a replay does not run it.
	FlagCut
	// FlagDigest: Digest is the digest of the rows the steps returned
	// (format version 2; a statement whose values the capture could not
	// read as SQLite returned them has none).
	FlagDigest
	// FlagOrdered: the statement orders its rows (ORDER BY), and Digest
	// combines them in their order.
	FlagOrdered
	flagsKnown = FlagOrdered<<1 - 1
)

// MadeCommit reports whether the statement made the commit its Commit
// state names: it has one, it did not fail, and it left no transaction
// open. A statement that leaves a transaction open commits nothing; the counter a capture
// recorded for it is another connection's (a BEGIN IMMEDIATE in WAL whose
// snapshot another commit had made stale takes the write lock, finds the
// index changed, lets the lock go and takes it again: the capture read
// the other's commit as the lock went), and counting it would number a
// state no replayed statement makes.
func (e *Exec) MadeCommit() bool {
	return e.Commit.Kind != StateNone && e.Flags&FlagAutocommitAfter != 0 && e.Code == 0
}

// Omits reports whether a parameter of the statement was too long to
// keep (ValueOmitted).
func (e *Exec) Omits() bool {
	for _, v := range e.Params {
		if v.Type == ValueOmitted {
			return true
		}
	}
	return false
}

// KeepSQL returns a statement's text as a trace keeps it: its first
// MaxText bytes, with FlagCut if it was longer.
func KeepSQL(text string) (string, Flags) {
	if len(text) > MaxText {
		return text[:MaxText], FlagCut
	}
	return text, 0
}

// MaxLossIDs is how many fingerprints a Loss names.
const MaxLossIDs = 10

// Loss counts the statements a trace does not hold whole (see FlagCut
// and ValueOmitted), and names their fingerprints' ids, the first
// MaxLossIDs seen.
type Loss struct {
	Statements int64    `json:"statements"`
	IDs        []string `json:"ids,omitempty"`
}

// Add counts a statement of fingerprint id (see FingerprintID).
func (l *Loss) Add(id string) {
	l.Statements++
	if len(l.IDs) < MaxLossIDs && !slices.Contains(l.IDs, id) {
		l.IDs = append(l.IDs, id)
	}
}

// Names lists the fingerprints' ids: "q1a2b3c4d, q5e6f7a8b", and "…"
// after the last if there may be more.
func (l Loss) Names() string {
	s := strings.Join(l.IDs, ", ")
	if len(l.IDs) == MaxLossIDs {
		s += ", …"
	}
	return s
}

// StateKind says which counter names a database state.
type StateKind uint8

// State kinds.
const (
	// StateNone: no state was seen.
	StateNone StateKind = 0
	// StateFile: the database file's change counter (bytes 24-27), which
	// a commit in a rollback journal mode increments, read while the
	// commit's exclusive lock, or the reader's shared lock, was held.
	StateFile StateKind = 1
	// StateWAL: the WAL index's transaction counter, which every commit
	// in WAL mode increments, read when the commit released the write
	// lock, or when the reader took its read lock.
	StateWAL StateKind = 2
	// StateSeq: the order of commits one process observed, where its
	// engine's locks could not be watched (exact for commits; a read
	// that overlapped a commit may be placed either side of it).
	StateSeq StateKind = 3
)

// State is a database state: the value of a counter of its kind, and when
// it was read (monotonic ns).
type State struct {
	Kind  StateKind
	Value uint64
	At    int64
}

// Segment reasons: why a database's state counters restart.
const (
	// SegmentRecovery: a connection rebuilt the WAL index, which starts
	// its transaction counter anew.
	SegmentRecovery = 1
	// SegmentLeftWAL: the database left WAL mode; its file's change
	// counter names states again.
	SegmentLeftWAL = 2
)

// Segment marks where a database's state counters restart.
type Segment struct {
	DB     uint64
	Time   int64
	Reason uint8
}

// Note levels.
const (
	NoteInfo    = 1
	NoteWarning = 2
	// NoteTail marks a trace whose last statements may be missing: the
	// program died of a signal, or a process's part was cut short. Its
	// text says why; a reader of a trace shows it as its state
	// (Info.TailMissing). A reader older than the level shows it as a
	// note.
	NoteTail = 3
)

// Note is something the capture wants read: what it could not do.
type Note struct {
	Level uint8
	Text  string
}

// Snapshot says where a database's content at the start of the capture
// is: the KindData chunks of snapshot Number (Size bytes), or, with Error,
// why there is none.
type Snapshot struct {
	DB     uint64
	Number uint64
	Size   uint64
	Time   int64
	Error  string
}

// SnapFile is a snapshot a capture's process wrote to a file of the
// capture's directory (its base name), or, with Error, could not.
type SnapFile struct {
	DB    uint64
	File  string
	Time  int64
	Error string
}

// ValueType is the type of a parameter.
type ValueType uint8

// Parameter types.
const (
	ValueNull  ValueType = 0
	ValueInt   ValueType = 1
	ValueFloat ValueType = 2
	ValueText  ValueType = 3
	ValueBlob  ValueType = 4
	// ValueZeroBlob is a blob of Int zero bytes (sqlite3_bind_zeroblob).
	ValueZeroBlob ValueType = 5
	// ValueOmitted is a text or blob (Of) of Int bytes, longer than
	// MaxValue, whose bytes were not kept.
	ValueOmitted ValueType = 6
)

// Value is a parameter's value.
type Value struct {
	Type  ValueType
	Int   int64
	Float float64
	// Bytes holds a text's or a blob's bytes.
	Bytes []byte
	// Of is an omitted value's type (ValueText or ValueBlob).
	Of ValueType
}

// Any returns the value as database/sql binds it: nil, int64, float64,
// string or []byte. A zero blob is that many zero bytes; an omitted value
// is as long as it was, of zero bytes (a blob) or of 'x' (a text).
func (v Value) Any() any {
	switch v.Type {
	case ValueInt:
		return v.Int
	case ValueFloat:
		return v.Float
	case ValueText:
		return string(v.Bytes)
	case ValueBlob:
		return append([]byte{}, v.Bytes...)
	case ValueZeroBlob:
		return make([]byte, v.Int)
	case ValueOmitted:
		b := make([]byte, v.Int)
		if v.Of == ValueText {
			for i := range b {
				b[i] = 'x'
			}
			return string(b)
		}
		return b
	}
	return nil
}

// ErrNewer is the error of a trace written by a newer format version than
// this package reads.
var ErrNewer = errors.New("trace format is newer than this gobench reads")

// FormatError is a trace that is truncated or corrupt: what was wrong, and
// at which byte offset of the file.
type FormatError struct {
	Offset int64
	Msg    string
}

// Error names the offset and what was wrong there.
func (e *FormatError) Error() string {
	return fmt.Sprintf("trace corrupt or truncated at byte offset %d: %s", e.Offset, e.Msg)
}

// newerError is a trace of a newer version.
type newerError struct{ version uint32 }

func (e *newerError) Error() string {
	return fmt.Sprintf("the trace is format version %d, newer than the %d this gobench reads: use a newer gobench", e.version, Version)
}

// Is makes it ErrNewer.
func (e *newerError) Is(target error) bool { return target == ErrNewer }
