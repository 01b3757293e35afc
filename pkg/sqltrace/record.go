package sqltrace

import (
	"errors"
	"math"
)

// appendRecord appends r's kind and fields (not its SQL text, which the
// stream defines in a record of its own, and not Exec.SQLID's definition)
// to b. prevStart is the stream's previous Exec start.
func appendRecord(b []byte, r *Record, prevStart int64) []byte {
	b = append(b, byte(r.Kind))
	switch r.Kind {
	case KindProcess:
		p := &r.Process
		b = putStr(putI(putI(putU(putU(b, p.PID), p.PPID), p.Wall), p.Mono), p.Command)
	case KindDB:
		b = putStr(putU(b, r.DB.ID), r.DB.Path)
	case KindOpen:
		o := &r.Open
		b = putU(putU(putU(putI(putU(putU(b, o.Conn), o.DB), o.Time), o.Flags), uint64(o.Code)), o.Thread)
	case KindClose:
		b = putU(putI(putU(b, r.Close.Conn), r.Close.Time), uint64(r.Close.Code))
	case KindExec:
		b = appendExec(b, &r.Exec, prevStart)
	case KindSegment:
		b = append(putI(putU(b, r.Segment.DB), r.Segment.Time), r.Segment.Reason)
	case KindNote:
		b = putStr(append(b, r.Note.Level), r.Note.Text)
	case KindSnapshot:
		s := &r.Snapshot
		b = putStr(putI(putU(putU(putU(b, s.DB), s.Number), s.Size), s.Time), s.Error)
	case KindSnapFile:
		s := &r.SnapFile
		b = putStr(putI(putStr(putU(b, s.DB), s.File), s.Time), s.Error)
	case KindDigest:
		d := &r.Digest
		b = putU(putStr(putI(putU(b, d.DB), d.Time), d.Error), uint64(len(d.Tables)))
		for _, t := range d.Tables {
			b = putStr(putU(putStr(b, t.Name), uint64(t.Rows)), t.Hash)
		}
	}
	return b
}

func appendExec(b []byte, e *Exec, prevStart int64) []byte {
	b = putU(putU(putU(b, e.Conn), e.Thread), e.SQLID)
	b = putI(b, e.Start-prevStart)
	b = putU(putU(b, uint64(e.Span)), uint64(e.InSQLite))
	b = putU(putU(b, uint64(e.Code)), uint64(e.Flags))
	b = putU(putU(putU(b, uint64(e.Rows)), uint64(e.Changes)), uint64(e.BusyWaits))
	b = putState(putState(b, e.Snap, e.Start), e.Commit, e.Start)
	b = putU(b, uint64(len(e.Params)))
	for _, v := range e.Params {
		b = putValue(b, v)
	}
	if e.Flags&FlagDigest != 0 {
		b = appendDigest(b, e.Digest)
	}
	return b
}

// appendSQL appends the definition of SQL text id.
func appendSQL(b []byte, id uint64, text string) []byte {
	return putStr(putU(append(b, byte(kindSQL)), id), text)
}

// errKind is a record of no known kind.
var errKind = errors.New("a record of unknown kind")

// decodeRecord reads the record at d's position into r (KindSQL records
// too, into sqlID and sqlText), its strings copied, Exec's params into
// r.Exec.Params' storage, their bytes slices of the chunk.
func decodeRecord(d *decoder, r *Record, st *streamState) (sqlID uint64, sqlText string) {
	r.Kind = Kind(d.byte1())
	switch r.Kind {
	case KindProcess:
		r.Process = Process{PID: d.u(), PPID: d.u(), Wall: d.i(), Mono: d.i(), Command: d.str(MaxString, "a command")}
	case KindDB:
		r.DB = DB{ID: d.u(), Path: d.str(MaxString, "a path")}
	case KindOpen:
		r.Open = Open{Conn: d.u(), DB: d.u(), Time: d.i(), Flags: d.u(), Code: code(d), Thread: d.u()}
	case KindClose:
		r.Close = Close{Conn: d.u(), Time: d.i(), Code: code(d)}
	case kindSQL:
		return d.u(), d.str(MaxText, "an SQL text")
	case KindExec:
		decodeExec(d, &r.Exec, st.lastStart)
		st.lastStart = r.Exec.Start
	case KindSegment:
		r.Segment = Segment{DB: d.u(), Time: d.i(), Reason: d.byte1()}
		if r.Segment.Reason != SegmentRecovery && r.Segment.Reason != SegmentLeftWAL {
			d.fail(errors.New("a segment of unknown reason"))
		}
	case KindNote:
		r.Note = Note{Level: d.byte1(), Text: d.str(MaxString, "a note")}
	case KindSnapshot:
		r.Snapshot = Snapshot{DB: d.u(), Number: d.u(), Size: d.u(), Time: d.i(), Error: d.str(MaxString, "an error")}
	case KindSnapFile:
		r.SnapFile = SnapFile{DB: d.u(), File: d.str(MaxString, "a file name"), Time: d.i(), Error: d.str(MaxString, "an error")}
	case KindDigest:
		decodeDigest(d, &r.Digest)
	default:
		d.fail(errKind)
	}
	return 0, ""
}

// maxTables bounds the tables of a Digest record.
const maxTables = 1 << 16

func decodeDigest(d *decoder, g *Digest) {
	*g = Digest{DB: d.u(), Time: d.i(), Error: d.str(MaxString, "an error")}
	n := int(d.bounded(maxTables, "a digest's table count"))
	for i := 0; i < n && d.err == nil; i++ {
		g.Tables = append(g.Tables, TableDigest{Name: d.str(MaxString, "a table name"), Rows: nonNeg(d, "a row count"), Hash: d.str(64, "a hash")})
	}
}

// code reads a result code.
func code(d *decoder) int { return int(d.bounded(math.MaxInt32, "a result code")) }

// nonNeg reads a count or a duration.
func nonNeg(d *decoder, what string) int64 { return int64(d.bounded(math.MaxInt64, what)) }

func decodeExec(d *decoder, e *Exec, prevStart int64) {
	params := e.Params[:0]
	*e = Exec{Conn: d.u(), Thread: d.u(), SQLID: d.u()}
	e.Start = prevStart + d.i()
	e.Span, e.InSQLite = nonNeg(d, "a span"), nonNeg(d, "a time")
	e.Code = code(d)
	e.Flags = Flags(d.bounded(uint64(flagsKnown), "an exec's flags"))
	e.Rows, e.Changes, e.BusyWaits = nonNeg(d, "a row count"), nonNeg(d, "a change count"), nonNeg(d, "a busy count")
	e.Snap, e.Commit = d.state(e.Start), d.state(e.Start)
	n := int(d.bounded(MaxParams, "a parameter count"))
	for i := 0; i < n && d.err == nil; i++ {
		if i < cap(params) {
			params = params[:i+1]
		} else {
			params = append(params, Value{})
		}
		d.value(&params[i])
	}
	e.Params = params
	if e.Flags&FlagDigest != 0 {
		e.Digest = d.u64()
	}
}
