package sqltrace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// flushAt is the payload size at which a stream writes its chunk out.
const flushAt = 64 << 10

// Writer writes a trace: the header when it is made, then the chunks of
// its streams and snapshots, then, at Close, the end. A Writer and its
// Streams are safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	err     error
	streams []*Stream
	records uint64
	closed  bool
}

// NewWriter writes a trace's header to w and returns its Writer.
func NewWriter(w io.Writer) (*Writer, error) {
	if err := WriteHeader(w); err != nil {
		return nil, err
	}
	return &Writer{w: w}, nil
}

// WriteHeader writes a trace file's header.
func WriteHeader(w io.Writer) error {
	var h [HeaderLen]byte
	copy(h[:], magic[:])
	binary.LittleEndian.PutUint32(h[8:], Version)
	_, err := w.Write(h[:])
	return err
}

// appendChunk appends a chunk's framing and payload, and its CRC.
func appendChunk(b []byte, typ byte, stream uint64, payload []byte) []byte {
	start := len(b)
	b = append(b, typ)
	b = putU(b, stream)
	b = putU(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable))
}

// chunk writes one chunk; w.mu is held.
func (w *Writer) chunk(typ byte, stream uint64, payload []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("the trace is closed")
	}
	if len(payload) > MaxChunk {
		return fmt.Errorf("a chunk of %d bytes is more than %d", len(payload), MaxChunk)
	}
	_, w.err = w.w.Write(appendChunk(nil, typ, stream, payload))
	return w.err
}

// Stream returns a new stream of records, numbered id (a process's; 0
// holds the capture's own records). Records written to it go out in
// chunks as they fill, and at its Flush and the Writer's Close.
func (w *Writer) Stream(id uint64) *Stream {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := &Stream{w: w, id: id, texts: map[string]uint64{}}
	w.streams = append(w.streams, s)
	return s
}

// WriteSnapshot writes the bytes of snapshot number from r, in chunks,
// and returns how many it wrote. A KindSnapshot record, in some stream,
// says which database they are.
func (w *Writer) WriteSnapshot(number uint64, r io.Reader) (int64, error) {
	buf := make([]byte, 1<<20)
	var n int64
	for {
		k, err := io.ReadFull(r, buf)
		if k > 0 {
			w.mu.Lock()
			werr := w.chunk(chunkSnapshot, number, buf[:k])
			w.mu.Unlock()
			if werr != nil {
				return n, werr
			}
			n += int64(k)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// Close flushes every stream and writes the end of the trace. It does
// not close the io.Writer.
func (w *Writer) Close() error {
	for _, s := range w.streams {
		if err := s.Flush(); err != nil {
			return err
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	err := w.chunk(chunkEnd, 0, putU(putU(nil, uint64(len(w.streams))), w.records))
	w.closed = true
	return err
}

// Stream is one process's records in a trace.
type Stream struct {
	w  *Writer
	id uint64

	mu        sync.Mutex
	buf       []byte
	scratch   []byte
	lastStart int64
	texts     map[string]uint64
	textBytes int
	records   uint64
}

// Write appends a record to the stream; an Exec's SQL is defined in the
// stream the first time it comes (Exec.SQLID is the stream's to set).
// KindData records are not written this way (see Writer.WriteSnapshot).
func (s *Stream) Write(r *Record) error {
	if err := check(r); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, defLen := s.scratch[:0], 0
	if r.Kind == KindExec {
		rec, r.Exec.SQLID = s.define(rec, r.Exec.SQL)
		defLen = len(rec)
	}
	rec = appendRecord(rec, r, s.lastStart)
	if len(rec) > MaxChunk && r.Kind == KindExec {
		// Its parameters are too many and too long to keep whole: kept
		// as their types and lengths.
		e := r.Exec
		e.Params = omitAll(e.Params)
		rec = appendRecord(rec[:defLen], &Record{Kind: KindExec, Exec: e}, s.lastStart)
	}
	s.scratch = rec
	if len(s.buf)+len(rec) > MaxChunk {
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.buf = append(s.buf, rec...)
	if r.Kind == KindExec {
		s.lastStart = r.Exec.Start
	}
	s.records++
	if len(s.buf) >= flushAt {
		return s.flush()
	}
	return nil
}

// omitAll returns params with every text and blob kept as its type and
// length only.
func omitAll(params []Value) []Value {
	out := make([]Value, len(params))
	for i, v := range params {
		out[i] = v
		if v.Type == ValueText || v.Type == ValueBlob {
			out[i] = Value{Type: ValueOmitted, Of: v.Type, Int: int64(len(v.Bytes))}
		}
	}
	return out
}

// define returns the id of text in the stream, appending its definition
// to b first if it is new: id 0, for this Exec alone, once the table is
// full.
func (s *Stream) define(b []byte, text string) ([]byte, uint64) {
	if id, ok := s.texts[text]; ok {
		return b, id
	}
	id := uint64(0)
	if len(s.texts) < MaxTexts && s.textBytes+len(text) <= MaxTextBytes {
		id = uint64(len(s.texts) + 1)
		s.texts[text] = id
		s.textBytes += len(text)
	}
	return appendSQL(b, id, text), id
}

// Flush writes the stream's pending records out as a chunk.
func (s *Stream) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flush()
}

func (s *Stream) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	s.w.mu.Lock()
	err := s.w.chunk(chunkRecords, s.id, s.buf)
	if err == nil {
		s.w.records += s.records
	}
	s.w.mu.Unlock()
	s.buf, s.records = s.buf[:0], 0
	return err
}

// check refuses a record the format cannot carry, so that every trace a
// Writer writes reads back.
func check(r *Record) error {
	switch r.Kind {
	case KindProcess:
		return checkLen(r.Process.Command, MaxString, "command")
	case KindDB:
		return checkLen(r.DB.Path, MaxString, "path")
	case KindOpen, KindClose:
		if r.Open.Code < 0 || r.Close.Code < 0 {
			return errors.New("a negative result code")
		}
	case KindExec:
		return checkExec(&r.Exec)
	case KindSegment:
		if r.Segment.Reason != SegmentRecovery && r.Segment.Reason != SegmentLeftWAL {
			return errors.New("a segment of unknown reason")
		}
	case KindNote:
		return checkLen(r.Note.Text, MaxString, "note")
	case KindSnapshot:
		return checkLen(r.Snapshot.Error, MaxString, "error")
	case KindSnapFile:
		return errors.Join(checkLen(r.SnapFile.File, MaxString, "file name"), checkLen(r.SnapFile.Error, MaxString, "error"))
	case KindDigest:
		return checkDigest(&r.Digest)
	default:
		return fmt.Errorf("a record of kind %v cannot be written to a stream", r.Kind)
	}
	return nil
}

func checkDigest(d *Digest) error {
	if len(d.Tables) > maxTables {
		return fmt.Errorf("%d tables are more than the %d a digest holds", len(d.Tables), maxTables)
	}
	errs := []error{checkLen(d.Error, MaxString, "error")}
	for _, t := range d.Tables {
		errs = append(errs, checkLen(t.Name, MaxString, "table name"), checkLen(t.Hash, 64, "hash"))
		if t.Rows < 0 {
			errs = append(errs, errors.New("a negative row count"))
		}
	}
	return errors.Join(errs...)
}

func checkLen(s string, max int, what string) error {
	if len(s) > max {
		return fmt.Errorf("a %s of %d bytes is longer than the %d the format allows", what, len(s), max)
	}
	return nil
}

func checkExec(e *Exec) error {
	switch {
	case len(e.SQL) > MaxText:
		return fmt.Errorf("an SQL text of %d bytes is longer than the %d the format allows", len(e.SQL), MaxText)
	case len(e.Params) > MaxParams:
		return fmt.Errorf("%d parameters are more than the %d the format allows", len(e.Params), MaxParams)
	case e.Span < 0 || e.InSQLite < 0 || e.Code < 0 || e.Rows < 0 || e.Changes < 0 || e.BusyWaits < 0:
		return errors.New("an exec with a negative count, code or duration")
	case e.Flags&^flagsKnown != 0:
		return fmt.Errorf("unknown exec flags %#x", uint32(e.Flags))
	}
	for _, st := range []State{e.Snap, e.Commit} {
		if st.Kind > StateSeq {
			return fmt.Errorf("unknown state kind %d", st.Kind)
		}
	}
	for i, v := range e.Params {
		if err := checkValue(v); err != nil {
			return fmt.Errorf("parameter %d: %w", i+1, err)
		}
	}
	return nil
}

func checkValue(v Value) error {
	switch v.Type {
	case ValueNull, ValueInt, ValueFloat:
	case ValueText, ValueBlob:
		if len(v.Bytes) > MaxValue {
			return fmt.Errorf("%d bytes, more than %d (keep it as ValueOmitted)", len(v.Bytes), MaxValue)
		}
	case ValueZeroBlob, ValueOmitted:
		if v.Int < 0 || v.Int > 1<<31-1 {
			return fmt.Errorf("a length of %d", v.Int)
		}
		if v.Type == ValueOmitted && v.Of != ValueText && v.Of != ValueBlob {
			return errors.New("an omitted value of no known type")
		}
	default:
		return fmt.Errorf("unknown type %d", v.Type)
	}
	return nil
}

// Keep returns a parameter's value as a trace keeps it: bytes longer than
// MaxValue become ValueOmitted. b is copied.
func Keep(t ValueType, b []byte) Value {
	if len(b) > MaxValue {
		return Value{Type: ValueOmitted, Of: t, Int: int64(len(b))}
	}
	return Value{Type: t, Bytes: append([]byte{}, b...)}
}
