package sqltrace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// Reader reads a trace record by record, as bufio.Scanner reads lines:
//
//	r := sqltrace.NewReader(f)
//	for r.Next() {
//		rec := r.Record()
//		...
//	}
//	if err := r.Err(); err != nil { ... }
//
// It checks every chunk whole (its CRC, every record's fields) before it
// hands out any record of it, so a corrupt or truncated trace ends in a
// *FormatError naming the byte offset, and a trace of a newer version in
// ErrNewer. Its memory is one chunk and the SQL texts of the streams it
// reads (see the package's Bounds).
type Reader struct {
	br  *bufio.Reader
	off int64 // offset of the next byte br gives

	header  bool
	version uint32

	stream func(uint64) bool // which streams' records to read (nil: all)
	data   bool              // whether to hand out snapshot bytes

	payload []byte
	d       decoder // the records chunk being read, if d.b is not nil
	chunk   int64   // its offset
	sid     uint64  // its stream
	streams map[uint64]*streamState
	texts   int // bytes of SQL texts kept, over every stream

	rec     Record
	err     error
	ended   bool
	unended bool      // the file ended at a chunk's boundary, without the end marker
	counts  [2]uint64 // the end chunk's: streams, records
}

// streamState is what a stream's later records depend on.
type streamState struct {
	texts     map[uint64]string
	inline    string // the text defined as id 0, for the next Exec
	hasInline bool
	lastStart int64
}

// NewReader returns a Reader of the trace r, which reads every stream's
// records and every snapshot's bytes.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), data: true, streams: map[uint64]*streamState{}}
}

// Filter makes the Reader hand out only the records of the streams for
// which stream returns true (nil: all), and the bytes of snapshots only if
// data is true. The chunks it skips are read through and checked (their
// CRC), not decoded: a corrupt chunk ends the reading wherever it is.
func (r *Reader) Filter(stream func(uint64) bool, data bool) {
	r.stream, r.data = stream, data
}

// Version returns the trace's format version, once Next has been called.
func (r *Reader) Version() uint32 { return r.version }

// Record returns the record Next read. It is valid until the next call to
// Next.
func (r *Reader) Record() *Record { return &r.rec }

// Err returns the error that ended the reading, nil at a complete trace's
// end.
func (r *Reader) Err() error { return r.err }

// Offset returns how many bytes of the trace have been read.
func (r *Reader) Offset() int64 { return r.off }

// Ended reports whether the trace's end was read, and the streams and
// records its writer counted.
func (r *Reader) Ended() (ok bool, streams, records uint64) {
	return r.ended, r.counts[0], r.counts[1]
}

func (r *Reader) fail(off int64, format string, args ...any) bool {
	r.err = &FormatError{Offset: off, Msg: fmt.Sprintf(format, args...)}
	return false
}

// Next reads the next record the filter keeps, and reports whether there
// was one.
func (r *Reader) Next() bool {
	if r.err != nil || r.ended {
		return false
	}
	if !r.header && !r.readHeader() {
		return false
	}
	for {
		if r.d.b != nil && r.d.pos < len(r.d.b) {
			if r.nextRecord() {
				return true
			}
			if r.err != nil {
				return false
			}
			continue
		}
		r.d.b = nil
		done, ok := r.nextChunk()
		if done || r.err != nil {
			return false
		}
		if ok {
			return true
		}
	}
}

func (r *Reader) readHeader() bool {
	var h [HeaderLen]byte
	n, err := io.ReadFull(r.br, h[:])
	r.off += int64(n)
	switch {
	case n >= len(magic) && !bytes.Equal(h[:len(magic)], magic[:]):
		return r.fail(0, "not a gobench trace (its first bytes are not %q)", string(magic[:7]))
	case err != nil && n == 0:
		return r.fail(0, "the file is empty: not a gobench trace")
	case err != nil:
		if n < len(magic) && !bytes.HasPrefix(magic[:], h[:n]) {
			return r.fail(0, "not a gobench trace (its first bytes are not %q)", string(magic[:7]))
		}
		return r.fail(int64(n), "the header is cut short (%d of %d bytes)", n, HeaderLen)
	}
	r.version = binary.LittleEndian.Uint32(h[8:])
	if r.version > Version {
		r.err = &newerError{r.version}
		return false
	}
	if r.version == 0 || binary.LittleEndian.Uint32(h[12:]) != 0 {
		return r.fail(8, "the header holds an unknown version or flags")
	}
	r.header = true
	return true
}

// nextChunk reads the next chunk. It reports done at the end chunk, and ok
// when the chunk is a record to hand out (snapshot bytes); a records chunk
// kept is left in r.d.
func (r *Reader) nextChunk() (done, ok bool) {
	start := r.off
	head := make([]byte, 0, 24)
	typ, err := r.br.ReadByte()
	if err == io.EOF {
		r.unended = true
		return true, r.fail(start, "the trace ends without its end marker: it is truncated (did the capture stop early?)")
	}
	if err != nil {
		return true, r.fail(start, "reading: %v", err)
	}
	r.off++
	head = append(head, typ)
	stream, head, ok1 := r.uvarint(head)
	length, head, ok2 := r.uvarint(head)
	switch {
	case !ok1 || !ok2:
		return true, false
	case typ != chunkRecords && typ != chunkSnapshot && typ != chunkEnd:
		return true, r.fail(start, "a chunk of unknown type %q", typ)
	case length > MaxChunk:
		return true, r.fail(start, "a chunk of %d bytes, more than the %d the format allows", length, MaxChunk)
	}
	if !r.readPayload(start, head, int(length)) {
		return true, false
	}
	if !r.keeps(typ, stream) {
		return false, false
	}
	switch typ {
	case chunkEnd:
		return true, r.end(start)
	case chunkSnapshot:
		r.rec = Record{Kind: KindData, Stream: stream, Offset: start, Data: r.payload}
		return false, true
	}
	r.d, r.chunk, r.sid = decoder{b: r.payload}, start, stream
	return false, false
}

// keeps reports whether the filter keeps a chunk.
func (r *Reader) keeps(typ byte, stream uint64) bool {
	switch typ {
	case chunkRecords:
		return r.stream == nil || r.stream(stream)
	case chunkSnapshot:
		return r.data
	}
	return true
}

// uvarint reads a chunk header's uvarint, appending its bytes to head.
func (r *Reader) uvarint(head []byte) (uint64, []byte, bool) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c, err := r.br.ReadByte()
		if err != nil {
			return 0, head, r.fail(r.off, "a chunk's header is cut short: the trace is truncated")
		}
		r.off++
		head = append(head, c)
		if shift == 63 && c > 1 || shift > 63 {
			return 0, head, r.fail(r.off-1, "a chunk's header holds a number too large")
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, head, true
		}
	}
}

// readPayload reads a chunk's payload and CRC into r.payload and checks
// it.
func (r *Reader) readPayload(start int64, head []byte, n int) bool {
	if cap(r.payload) < n+4 {
		r.payload = make([]byte, n+4)
	}
	buf := r.payload[:n+4]
	k, err := io.ReadFull(r.br, buf)
	r.off += int64(k)
	if err != nil {
		return r.fail(r.off, "a chunk begun at offset %d is cut short (%d of its %d bytes): the trace is truncated", start, k+len(head), n+4+len(head))
	}
	sum := crc32.Update(crc32.Checksum(head, crcTable), crcTable, buf[:n])
	if sum != binary.LittleEndian.Uint32(buf[n:]) {
		return r.fail(start, "a chunk's checksum does not match its bytes: the trace is corrupt")
	}
	r.payload = buf[:n]
	return true
}

// end reads the end chunk's counts and checks nothing follows it.
func (r *Reader) end(start int64) bool {
	d := decoder{b: r.payload}
	r.counts = [2]uint64{d.u(), d.u()}
	if d.err != nil || d.pos != len(d.b) {
		return r.fail(start, "the end marker is malformed")
	}
	if _, err := r.br.Peek(1); err != io.EOF {
		return r.fail(r.off, "bytes follow the trace's end marker")
	}
	r.ended = true
	return false
}

// nextRecord decodes the next record of the chunk in r.d. It reports
// whether it is one to hand out (not an SQL text's definition).
func (r *Reader) nextRecord() bool {
	st := r.streams[r.sid]
	if st == nil {
		st = &streamState{texts: map[uint64]string{}}
		r.streams[r.sid] = st
	}
	at := r.d.pos
	r.rec = Record{Exec: Exec{Params: r.rec.Exec.Params[:0]}}
	id, text := decodeRecord(&r.d, &r.rec, st)
	if r.d.err != nil {
		return r.fail(r.chunk, "record at byte %d of the chunk: %v", at, r.d.err)
	}
	r.rec.Stream, r.rec.Offset = r.sid, r.chunk
	switch r.rec.Kind {
	case kindSQL:
		return r.define(st, id, text, at)
	case KindExec:
		return r.resolve(st, at)
	}
	return true
}

// define keeps an SQL text's definition.
func (r *Reader) define(st *streamState, id uint64, text string, at int) bool {
	if id == 0 {
		st.inline, st.hasInline = text, true
		return false
	}
	if old, ok := st.texts[id]; ok {
		r.texts -= len(old)
	}
	if len(st.texts) >= MaxTexts || r.texts+len(text) > maxAllTextBytes {
		return r.fail(r.chunk, "record at byte %d of the chunk: more SQL texts than the format allows", at)
	}
	st.texts[id] = text
	r.texts += len(text)
	return false
}

// resolve gives an Exec its SQL text.
func (r *Reader) resolve(st *streamState, at int) bool {
	e := &r.rec.Exec
	if e.SQLID == 0 {
		if !st.hasInline {
			return r.fail(r.chunk, "record at byte %d of the chunk: an exec without its SQL text", at)
		}
		e.SQL, st.inline, st.hasInline = st.inline, "", false
		return true
	}
	text, ok := st.texts[e.SQLID]
	if !ok {
		return r.fail(r.chunk, "record at byte %d of the chunk: an exec names SQL text %d, which the stream never defined", at, e.SQLID)
	}
	e.SQL = text
	return true
}
