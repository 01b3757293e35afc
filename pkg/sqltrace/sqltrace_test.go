package sqltrace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sample returns a few records of every kind a stream holds.
func sample() []Record {
	return []Record{
		{Kind: KindProcess, Process: Process{PID: 42, PPID: 1, Wall: 1_700_000_000_000_000_000, Mono: 5_000_000, Command: "python3 app.py --writers 3"}},
		{Kind: KindDB, DB: DB{ID: 1, Path: "/tmp/x/app.db"}},
		{Kind: KindOpen, Open: Open{Conn: 1, DB: 1, Time: 5_000_100, Flags: 6, Thread: 42}},
		{Kind: KindSnapFile, SnapFile: SnapFile{DB: 1, File: "snap-1.db", Time: 5_000_200}},
		{Kind: KindExec, Exec: Exec{Conn: 1, Thread: 42, SQL: "INSERT INTO users(name, age) VALUES (?, ?)", Start: 5_001_000, Span: 3000, InSQLite: 2500,
			Rows: 0, Changes: 1, Flags: FlagDone | FlagAutocommitBefore | FlagAutocommitAfter | FlagChanges,
			Snap: State{Kind: StateFile, Value: 7, At: 5_001_200}, Commit: State{Kind: StateFile, Value: 8, At: 5_003_900},
			Params: []Value{{Type: ValueText, Bytes: []byte("ann")}, {Type: ValueInt, Int: -31}}}},
		{Kind: KindExec, Exec: Exec{Conn: 1, Thread: 43, SQL: "SELECT * FROM users WHERE id = ?1 AND score > :s", Start: 5_000_900, Span: 9000, InSQLite: 100,
			Rows: 3, Flags: FlagReadOnly | FlagDigest | FlagOrdered, Digest: 0xfedcba9876543210, Code: 5, BusyWaits: 2,
			Params: []Value{{Type: ValueFloat, Float: math.Pi}, {Type: ValueNull}}}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "INSERT INTO users(name, age) VALUES (?, ?)", Start: 6_000_000, Flags: FlagCut,
			Params: []Value{{Type: ValueBlob, Bytes: []byte{0, 1, 2}}, {Type: ValueZeroBlob, Int: 4096}, {Type: ValueOmitted, Of: ValueText, Int: 2 << 20}}}},
		{Kind: KindSegment, Segment: Segment{DB: 1, Time: 7_000_000, Reason: SegmentRecovery}},
		{Kind: KindNote, Note: Note{Level: NoteWarning, Text: "the snapshot could not be taken"}},
		{Kind: KindClose, Close: Close{Conn: 1, Time: 8_000_000}},
		{Kind: KindSnapshot, Snapshot: Snapshot{DB: 1, Number: 1, Size: 4096, Time: 5_000_300}},
		{Kind: KindDigest, Digest: Digest{DB: 1, Time: 9, Tables: []TableDigest{{Name: "users", Rows: 2, Hash: "0a1b"}, {Name: "o", Hash: "ff"}}}},
	}
}

// write writes records to stream 1 of a new trace, and snapshot 1's
// bytes, and returns the file.
func write(t testing.TB, recs []Record, snap []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	s := w.Stream(1)
	for i := range recs {
		r := recs[i]
		if err := s.Write(&r); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if snap != nil {
		if _, err := w.WriteSnapshot(1, bytes.NewReader(snap)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll reads a trace's records, deep-copied.
func readAll(b []byte) ([]Record, error) {
	r := NewReader(bytes.NewReader(b))
	var out []Record
	for r.Next() {
		rec := *r.Record()
		rec.Exec.Params = copyValues(rec.Exec.Params)
		rec.Data = append([]byte(nil), rec.Data...)
		out = append(out, rec)
	}
	return out, r.Err()
}

func copyValues(vs []Value) []Value {
	if vs == nil {
		return nil
	}
	out := make([]Value, len(vs))
	for i, v := range vs {
		out[i] = v
		if v.Bytes != nil {
			out[i].Bytes = append([]byte{}, v.Bytes...)
		}
	}
	return out
}

// comparable strips what the reader adds (stream, offset, SQL ids) and
// what the writer does not keep.
func normalize(recs []Record) []Record {
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		if r.Kind == KindData {
			continue
		}
		r.Stream, r.Offset, r.Exec.SQLID = 0, 0, 0
		if len(r.Exec.Params) == 0 {
			r.Exec.Params = nil
		}
		out = append(out, r)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	want := sample()
	snap := bytes.Repeat([]byte("page"), 1<<19) // 2 MiB: two chunks
	got, err := readAll(write(t, want, snap))
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, r := range got {
		if r.Kind == KindData {
			if r.Stream != 1 {
				t.Errorf("snapshot bytes of snapshot %d, want 1", r.Stream)
			}
			data = append(data, r.Data...)
		}
	}
	if !bytes.Equal(data, snap) {
		t.Errorf("snapshot: read %d bytes, wrote %d", len(data), len(snap))
	}
	if g, w := normalize(got), normalize(want); !reflect.DeepEqual(g, w) {
		for i := range min(len(g), len(w)) {
			if !reflect.DeepEqual(g[i], w[i]) {
				t.Errorf("record %d:\n got %v %+v\nwant %v %+v", i, g[i].Kind, g[i].Exec, w[i].Kind, w[i].Exec)
			}
		}
		t.Fatalf("read %d records, wrote %d", len(g), len(w))
	}
}

// TestSQLDefinedOnce: a text repeated in a stream is written once.
func TestSQLDefinedOnce(t *testing.T) {
	text := "SELECT name FROM users WHERE id = ? -- " + strings.Repeat("x", 1000)
	recs := make([]Record, 100)
	for i := range recs {
		recs[i] = Record{Kind: KindExec, Exec: Exec{Conn: 1, SQL: text, Start: int64(i), Params: []Value{{Type: ValueInt, Int: int64(i)}}}}
	}
	b := write(t, recs, nil)
	if n := bytes.Count(b, []byte(text)); n != 1 {
		t.Errorf("the text is in the file %d times, want 1", n)
	}
	got, err := readAll(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if r.Exec.SQL != text || r.Exec.Params[0].Int != int64(i) {
			t.Fatalf("record %d: %q %v", i, r.Exec.SQL, r.Exec.Params)
		}
	}
}

// TestTableFull: once a stream's table of texts is full, texts are defined
// for one Exec each, and still read back.
func TestTableFull(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf)
	s := w.Stream(1)
	s.textBytes = MaxTextBytes // as if full
	for i := range 3 {
		if err := s.Write(&Record{Kind: KindExec, Exec: Exec{SQL: fmt.Sprintf("SELECT %d", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := readAll(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if want := fmt.Sprintf("SELECT %d", i); r.Exec.SQL != want || r.Exec.SQLID != 0 {
			t.Errorf("record %d: %q (id %d), want %q (id 0)", i, r.Exec.SQL, r.Exec.SQLID, want)
		}
	}
}

// TestHugeExec: an Exec too large for a chunk keeps its parameters as
// their types and lengths.
func TestHugeExec(t *testing.T) {
	params := make([]Value, 6)
	for i := range params {
		params[i] = Value{Type: ValueBlob, Bytes: make([]byte, MaxValue)}
	}
	got, err := readAll(write(t, []Record{{Kind: KindExec, Exec: Exec{SQL: "INSERT INTO b VALUES (?,?,?,?,?,?)", Params: params}}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got[0].Exec.Params {
		if v.Type != ValueOmitted || v.Of != ValueBlob || v.Int != MaxValue {
			t.Errorf("parameter %d: %+v, want an omitted blob of %d bytes", i, v, MaxValue)
		}
	}
}

// TestStreams: records of interleaved streams read back each in its own
// stream, in order, with the filter choosing.
func TestStreams(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf)
	a, b := w.Stream(1), w.Stream(2)
	for i := range 3000 { // several chunks each
		s := a
		if i%3 == 0 {
			s = b
		}
		if err := s.Write(&Record{Kind: KindExec, Exec: Exec{Conn: uint64(i), SQL: fmt.Sprintf("SELECT %d, '%s'", i%7, strings.Repeat("y", 50)), Start: int64(i * 1000)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(bytes.NewReader(buf.Bytes()))
	r.Filter(func(s uint64) bool { return s == 2 }, false)
	n := 0
	for r.Next() {
		e := r.Record().Exec
		if r.Record().Stream != 2 || e.Conn%3 != 0 || e.Start != int64(e.Conn*1000) {
			t.Fatalf("stream %d conn %d start %d", r.Record().Stream, e.Conn, e.Start)
		}
		n++
	}
	if r.Err() != nil || n != 1000 {
		t.Fatalf("read %d records of stream 2 (want 1000): %v", n, r.Err())
	}
	if ok, streams, records := r.Ended(); !ok || streams != 2 || records != 3000 {
		t.Errorf("end: %v %d streams %d records", ok, streams, records)
	}
}

// TestDamaged: a truncated or corrupted trace fails with the offset of the
// damage, and a newer version says so.
func TestDamaged(t *testing.T) {
	good := write(t, sample(), []byte("snapshot"))
	flip := func(at int) []byte {
		b := append([]byte(nil), good...)
		b[at] ^= 0x40
		return b
	}
	newer := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(newer[8:], Version+1)
	tests := []struct {
		name string
		b    []byte
		want string
		off  int64
	}{
		{"empty", nil, "empty", 0},
		{"not a trace", []byte("SQLite format 3\x00 and more"), "not a gobench trace", 0},
		{"header cut", good[:10], "header is cut short", 10},
		{"no chunks", good[:HeaderLen], "without its end marker", HeaderLen},
		{"cut in a chunk", good[:HeaderLen+20], "cut short", HeaderLen + 20},
		{"no end", good[:len(good)-8], "cut short", int64(len(good) - 8)},
		// The snapshot's chunk (15 bytes) comes first, the records' next.
		{"flipped byte", flip(HeaderLen + 30), "checksum", HeaderLen + 15},
		{"trailing bytes", append(append([]byte(nil), good...), 'x'), "follow the trace's end", int64(len(good))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(tt.b)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a FormatError", err)
			}
			if !strings.Contains(fe.Msg, tt.want) || fe.Offset != tt.off {
				t.Errorf("error %q at %d, want %q at %d", fe.Msg, fe.Offset, tt.want, tt.off)
			}
		})
	}
	_, err := readAll(newer)
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), fmt.Sprintf("format version %d", Version+1)) {
		t.Errorf("newer version: %v", err)
	}
}

// inspectBytes runs Inspect on a trace in memory.
func inspectBytes(b []byte) (*Info, error) {
	return Inspect(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil })
}

// TestInspectChecksEveryChunk: Inspect, which reads no snapshot's bytes
// for its summary, still checks them: a byte changed in a snapshot's
// chunk, in the records or in the header, or a snapshot shorter than its
// record says, is a FormatError naming the offset, never a complete
// trace. A filtered Reader checks the chunks it skips too.
func TestInspectChecksEveryChunk(t *testing.T) {
	snap := bytes.Repeat([]byte("page"), 64)
	recs := []Record{
		{Kind: KindDB, DB: DB{ID: 1, Path: "/db"}},
		{Kind: KindOpen, Open: Open{Conn: 1, DB: 1}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "SELECT 1", Start: 10, Span: 5}},
		{Kind: KindSnapshot, Snapshot: Snapshot{DB: 1, Number: 1, Size: uint64(len(snap))}},
	}
	good := write(t, recs, snap)
	if in, err := inspectBytes(good); err != nil || !in.Complete {
		t.Fatalf("the good trace: %+v, %v", in, err)
	}
	// The first chunk of each type, by its framing.
	offs := map[byte]int64{}
	for at := int64(HeaderLen); at < int64(len(good)); {
		typ := good[at]
		_, n1 := binary.Uvarint(good[at+1:])
		length, n2 := binary.Uvarint(good[at+1+int64(n1):])
		if _, ok := offs[typ]; !ok {
			offs[typ] = at
		}
		at += 1 + int64(n1+n2) + int64(length) + 4
	}
	flip := func(at int64) []byte {
		b := append([]byte(nil), good...)
		b[at] ^= 0x40
		return b
	}
	short := write(t, []Record{recs[0], recs[1], recs[2], {Kind: KindSnapshot, Snapshot: Snapshot{DB: 1, Number: 1, Size: uint64(len(snap)) + 1}}}, snap)
	tests := []struct {
		name string
		b    []byte
		want string
		off  int64
	}{
		{"snapshot byte", flip(offs[chunkSnapshot] + 40), "checksum", offs[chunkSnapshot]},
		{"records byte", flip(offs[chunkRecords] + 8), "checksum", offs[chunkRecords]},
		{"header version", flip(12), "unknown version", 8},
		{"snapshot short of its size", short, "snapshot 1 holds 256 bytes, its record says 257", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := inspectBytes(tt.b)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Inspect: %+v, error %v, want a FormatError", in, err)
			}
			if !strings.Contains(fe.Msg, tt.want) || tt.off >= 0 && fe.Offset != tt.off {
				t.Errorf("error %q at %d, want %q at %d", fe.Msg, fe.Offset, tt.want, tt.off)
			}
		})
	}
	r := NewReader(bytes.NewReader(flip(offs[chunkSnapshot] + 40)))
	r.Filter(func(uint64) bool { return false }, false)
	for r.Next() {
	}
	var fe *FormatError
	if !errors.As(r.Err(), &fe) || fe.Offset != offs[chunkSnapshot] {
		t.Errorf("a filtered reader past a corrupt snapshot chunk: %v", r.Err())
	}
}

// TestLoss: statements cut to MaxText and parameters longer than
// MaxValue are marked in the trace as the writer keeps them, and
// Inspect and Merge count them with their fingerprints, so that --info
// and the capture's summary say so.
func TestLoss(t *testing.T) {
	long := "SELECT '" + strings.Repeat("y", MaxText) + "'"
	kept, cut := KeepSQL(long)
	if len(kept) != MaxText || cut != FlagCut {
		t.Fatalf("KeepSQL of %d bytes: %d bytes, flags %v", len(long), len(kept), cut)
	}
	if k, f := KeepSQL("SELECT 1"); k != "SELECT 1" || f != 0 {
		t.Fatalf("KeepSQL of a short text: %q, %v", k, f)
	}
	recs := []Record{
		{Kind: KindProcess, Process: Process{PID: 7}},
		{Kind: KindDB, DB: DB{ID: 1, Path: "/db"}},
		{Kind: KindOpen, Open: Open{Conn: 1, DB: 1}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: kept, Flags: cut, Start: 1}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "INSERT INTO t VALUES (?)", Start: 2, Params: []Value{Keep(ValueBlob, make([]byte, MaxValue+1))}}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "INSERT INTO t VALUES (?)", Start: 3, Params: []Value{Keep(ValueBlob, []byte("small"))}}},
	}
	var part bytes.Buffer
	w, _ := NewWriter(&part)
	s := w.Stream(0)
	for i := range recs {
		if err := s.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var merged bytes.Buffer
	st, err := Merge(&merged, []Part{{Name: "p", R: bytes.NewReader(part.Bytes())}}, func(string) (io.ReadCloser, error) { return nil, errors.New("none") }, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := inspectBytes(merged.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	cutID, omitID := FingerprintID(Fingerprint(kept)), FingerprintID(Fingerprint("INSERT INTO t VALUES (?)"))
	for _, c := range []struct {
		name         string
		cut, omitted Loss
	}{{"merge", st.Cut, st.Omitted}, {"inspect", in.Cut, in.Omitted}} {
		if !reflect.DeepEqual(c.cut, Loss{Statements: 1, IDs: []string{cutID}}) || !reflect.DeepEqual(c.omitted, Loss{Statements: 1, IDs: []string{omitID}}) {
			t.Errorf("%s: cut %+v, omitted %+v; want 1 of %s, 1 of %s", c.name, c.cut, c.omitted, cutID, omitID)
		}
	}
	var l Loss
	for i := range MaxLossIDs + 5 {
		l.Add(fmt.Sprintf("q%08x", i%(MaxLossIDs+2)))
	}
	if l.Statements != MaxLossIDs+5 || len(l.IDs) != MaxLossIDs || !strings.HasSuffix(l.Names(), ", …") {
		t.Errorf("a Loss of many: %d statements, %d ids, %q", l.Statements, len(l.IDs), l.Names())
	}
}

// TestMerge: processes' files become streams 1 and up, a file cut short
// keeps its whole chunks, and the snapshots are embedded in stream 0.
func TestMerge(t *testing.T) {
	part := func(pid uint64, db string, snapFile string, execs int) []byte {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf)
		s := w.Stream(0)
		recs := []Record{
			{Kind: KindProcess, Process: Process{PID: pid}},
			{Kind: KindDB, DB: DB{ID: 1, Path: db}},
		}
		if snapFile != "" {
			recs = append(recs, Record{Kind: KindSnapFile, SnapFile: SnapFile{DB: 1, File: snapFile}})
		}
		for i := range execs {
			recs = append(recs, Record{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "SELECT ?", Params: []Value{{Type: ValueInt, Int: int64(i)}}, Start: int64(i)}})
		}
		for i := range recs {
			if err := s.Write(&recs[i]); err != nil {
				t.Fatal(err)
			}
			if i == 3 {
				s.Flush() // the first chunk ends here
			}
		}
		s.Flush()
		return buf.Bytes() // no end marker, as the C library writes
	}
	p1 := part(10, "/d/a.db", "snap-a.db", 5)
	p2 := part(11, "/d/a.db", "", 8)
	p3 := part(12, "/d/b.db", "", 2)
	p2 = p2[:len(p2)-3] // cut short in its second chunk
	files := map[string]string{"snap-a.db": "SQLite format 3\x00..."}
	open := func(name string) (io.ReadCloser, error) {
		s, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("open %s: no such file", name)
		}
		return io.NopCloser(strings.NewReader(s)), nil
	}
	var out bytes.Buffer
	digest := func(path string) ([]TableDigest, error) {
		if path == "/d/b.db" {
			return nil, fmt.Errorf("gone")
		}
		return []TableDigest{{Name: "t", Rows: 3, Hash: "00ff"}}, nil
	}
	st, err := Merge(&out, []Part{{Name: "p1", R: bytes.NewReader(p1)}, {Name: "p2", R: bytes.NewReader(p2)}, {Name: "p3", R: bytes.NewReader(p3)}}, open, digest)
	if err != nil {
		t.Fatal(err)
	}
	if st.Streams != 3 || st.Snapshots != 1 || len(st.Notes) != 4 || !strings.Contains(st.TailMissing, "p2 (stream 2) is cut short") {
		t.Errorf("stats %+v, want 3 streams, 1 snapshot, 4 notes (p2 cut short, b.db without a snapshot or a digest, the trace's end may be missing)", st)
	}
	recs, err := readAll(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	execs := map[uint64]int{}
	var snaps []Snapshot
	var digests []Digest
	var data string
	for _, r := range recs {
		switch r.Kind {
		case KindExec:
			execs[r.Stream]++
		case KindSnapshot:
			snaps = append(snaps, r.Snapshot)
		case KindDigest:
			digests = append(digests, r.Digest)
		case KindData:
			data += string(r.Data)
		}
	}
	if len(digests) != 2 || len(digests[0].Tables) != 1 || digests[0].Tables[0].Rows != 3 || digests[1].Error != "gone" {
		t.Errorf("digests %+v", digests)
	}
	if execs[1] != 5 || execs[2] != 2 || execs[3] != 2 {
		t.Errorf("execs per stream %v, want 5, 2 (its first chunk) and 2", execs)
	}
	if len(snaps) != 2 || snaps[0].Error != "" || snaps[0].Size != uint64(len(files["snap-a.db"])) || snaps[1].Error == "" {
		t.Errorf("snapshots %+v", snaps)
	}
	if data != files["snap-a.db"] {
		t.Errorf("snapshot bytes %q", data)
	}
}

// TestWriterRefuses: a record the format cannot carry is refused.
func TestWriterRefuses(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf)
	s := w.Stream(1)
	bad := []Record{
		{Kind: KindData},
		{Kind: KindExec, Exec: Exec{Span: -1}},
		{Kind: KindExec, Exec: Exec{Params: []Value{{Type: 9}}}},
		{Kind: KindExec, Exec: Exec{Params: []Value{{Type: ValueText, Bytes: make([]byte, MaxValue+1)}}}},
		{Kind: KindExec, Exec: Exec{Flags: 1 << 20}},
		{Kind: KindSegment, Segment: Segment{Reason: 9}},
		{Kind: KindDB, DB: DB{Path: strings.Repeat("p", MaxString+1)}},
	}
	for i := range bad {
		if err := s.Write(&bad[i]); err == nil {
			t.Errorf("record %d (%v) written", i, bad[i].Kind)
		}
	}
}

// randomRecord returns a record of random fields, for the property test.
func randomRecord(rng *rand.Rand) Record {
	str := func() string { return strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(40)) }
	switch rng.IntN(6) {
	case 0:
		return Record{Kind: KindProcess, Process: Process{PID: rng.Uint64(), PPID: rng.Uint64(), Wall: rng.Int64() - rng.Int64(), Mono: rng.Int64(), Command: str()}}
	case 1:
		return Record{Kind: KindOpen, Open: Open{Conn: rng.Uint64(), DB: rng.Uint64(), Time: rng.Int64(), Flags: rng.Uint64(), Code: rng.IntN(1 << 20), Thread: rng.Uint64()}}
	case 2:
		return Record{Kind: KindNote, Note: Note{Level: uint8(rng.IntN(3)), Text: str()}}
	}
	e := Exec{Conn: rng.Uint64N(5), Thread: rng.Uint64(), SQL: "SELECT " + str(), Start: rng.Int64N(1 << 50), Span: rng.Int64N(1 << 40), InSQLite: rng.Int64N(1 << 40),
		Code: rng.IntN(4000), Rows: rng.Int64N(1 << 40), Changes: rng.Int64N(1 << 40), Flags: Flags(rng.Uint32()) & flagsKnown, BusyWaits: rng.Int64N(100)}
	if rng.IntN(2) == 0 {
		e.Snap = State{Kind: StateKind(1 + rng.IntN(3)), Value: rng.Uint64(), At: e.Start + rng.Int64N(1000)}
	}
	for range rng.IntN(5) {
		e.Params = append(e.Params, []Value{{Type: ValueNull}, {Type: ValueInt, Int: rng.Int64() - rng.Int64()}, {Type: ValueFloat, Float: rng.NormFloat64()},
			{Type: ValueText, Bytes: []byte(str())}, {Type: ValueBlob, Bytes: []byte(str())}, {Type: ValueZeroBlob, Int: rng.Int64N(1 << 20)}}[rng.IntN(6)])
	}
	return Record{Kind: KindExec, Exec: e}
}

// TestRoundTripProperty: random records read back as written.
func TestRoundTripProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		recs := make([]Record, 1+rng.IntN(200))
		for i := range recs {
			recs[i] = randomRecord(rng)
		}
		got, err := readAll(write(t, recs, nil))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if g, w := normalize(got), normalize(recs); !reflect.DeepEqual(g, w) {
			t.Fatalf("round %d: records differ", round)
		}
	}
}

// FuzzReader: no input makes the reader panic, run past its bounds or
// accept a trace it cannot read back; a trace it reads whole round-trips.
func FuzzReader(f *testing.F) {
	good := write(f, sample(), []byte("snap"))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("GBTRACE\n\x01\x00\x00\x00\x00\x00\x00\x00E\x00\x02\x00\x00\x00\x00\x00"))
	bad := append([]byte(nil), good...)
	bad[HeaderLen+5] ^= 0x40 // in the snapshot's chunk, which comes first
	f.Add(bad)
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := readAll(b)
		if in, ierr := inspectBytes(b); ierr == nil && err != nil {
			// What --info calls readable must read.
			t.Fatalf("Inspect read it (complete %v); a full read failed: %v", in.Complete, err)
		}
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) && !errors.Is(err, ErrNewer) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var keep []Record
		for _, r := range recs {
			if r.Kind != KindData {
				keep = append(keep, r)
			}
		}
		again, err := readAll(write(t, keep, nil))
		if err != nil {
			t.Fatalf("rewritten: %v", err)
		}
		if !reflect.DeepEqual(normalize(again), normalize(keep)) {
			t.Fatalf("rewritten records differ")
		}
	})
}

func TestFingerprint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT * FROM users WHERE id = 42", "select * from users where id = ?"},
		{"select *  from users\n where id=?1;", "select * from users where id = ?"},
		{"SELECT name FROM \"Users\" WHERE name = 'O''Brien' AND k = :k -- who", `select name from "Users" where name = ? and k = ?`},
		{"INSERT INTO t(a, b) VALUES (1.5e3, x'00ff')", "insert into t(a, b) values(?, ?)"},
		{"SELECT * FROM t WHERE id IN (1, 2, 3)", "select * from t where id in (?, ...)"},
		{"SELECT * FROM t WHERE id IN (?, ?)", "select * from t where id in (?, ...)"},
		{"UPDATE t SET v = v + -1 WHERE k = @k", "update t set v = v + - ? where k = ?"},
		{"SELECT a.b FROM a /* c */ WHERE x >= 0x1F", "select a.b from a where x >= ?"},
	}
	for _, tt := range tests {
		if got := Fingerprint(tt.in); got != tt.want {
			t.Errorf("Fingerprint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if FingerprintID("select ?") == FingerprintID("select ? from t") || len(FingerprintID("x")) != 9 {
		t.Error("fingerprint ids")
	}
}

// FuzzRecords fuzzes the records inside a chunk whose framing and checksum
// are right, where FuzzReader's inputs mostly stop at the checksum.
func FuzzRecords(f *testing.F) {
	good := write(f, sample(), nil)
	r := NewReader(bytes.NewReader(good))
	r.Next()
	f.Add(r.payload)
	f.Add([]byte{byte(kindSQL), 1, 3, 'S', 'E', 'L', byte(KindExec), 1, 0, 1})
	f.Fuzz(func(t *testing.T, payload []byte) {
		if len(payload) > MaxChunk {
			return
		}
		var buf bytes.Buffer
		WriteHeader(&buf)
		buf.Write(appendChunk(nil, chunkRecords, 1, payload))
		buf.Write(appendChunk(nil, chunkEnd, 0, []byte{1, 0}))
		recs, err := readAll(buf.Bytes())
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset != HeaderLen {
				t.Fatalf("error %v, want a FormatError at the chunk", err)
			}
			return
		}
		again, err := readAll(write(t, recs, nil))
		if err != nil {
			t.Fatalf("rewritten: %v", err)
		}
		if !reflect.DeepEqual(normalize(again), normalize(recs)) {
			t.Fatalf("rewritten records differ")
		}
	})
}

func TestParamIndex(t *testing.T) {
	tests := []struct {
		sql   string
		names map[string]int
		count int
	}{
		{"SELECT ?, ?, ?", map[string]int{}, 3},
		{"SELECT ?2, ?", map[string]int{}, 3},
		{"SELECT :a, @b, :a, $c, ? -- :d", map[string]int{":a": 1, "@b": 2, "$c": 3}, 4},
		{"SELECT ':x', \"?\" FROM t WHERE a = :y", map[string]int{":y": 1}, 1},
	}
	for _, tt := range tests {
		names, count := ParamIndex(tt.sql)
		if count != tt.count || !reflect.DeepEqual(names, tt.names) {
			t.Errorf("ParamIndex(%q) = %v, %d; want %v, %d", tt.sql, names, count, tt.names, tt.count)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"SELECT 1", []string{"SELECT 1"}},
		{"CREATE TABLE t(x); INSERT INTO t VALUES (';'); ", []string{"CREATE TABLE t(x);", "INSERT INTO t VALUES (';');"}},
		{"-- a; comment\nSELECT 1; /* b; */ SELECT 2", []string{"-- a; comment\nSELECT 1;", "/* b; */ SELECT 2"}},
		{"CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); DELETE FROM v; END; SELECT 3;",
			[]string{"CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); DELETE FROM v; END;", "SELECT 3;"}},
		{";;", nil},
	}
	for _, tt := range tests {
		if got := SplitStatements(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitStatements(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFindDatabase: --database names a trace's database by its path as
// stored, another path of the same file (relative, through a symbolic
// link), or its base name when one database has it; otherwise the error
// lists the trace's databases.
func TestFindDatabase(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/shop.db", "b/shop.db", "a/log.db"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "a", "shop.db"), filepath.Join(dir, "link.db")); err != nil {
		t.Fatal(err)
	}
	in := &Info{Databases: []DBInfo{{Path: filepath.Join(dir, "a", "shop.db")}, {Path: filepath.Join(dir, "b", "shop.db")}, {Path: filepath.Join(dir, "a", "log.db")}}}
	t.Chdir(filepath.Join(dir, "b"))
	tests := []struct {
		name, want, err string
	}{
		{filepath.Join(dir, "a", "log.db"), "a/log.db", ""},
		{"log.db", "a/log.db", ""},
		{"shop.db", "b/shop.db", ""}, // the file in the working directory
		{"../a/shop.db", "a/shop.db", ""},
		{"../link.db", "a/shop.db", ""},
		{"../a/./log.db", "a/log.db", ""},
		{"other.db", "", "no database of the trace is that file; the trace's databases are \"" + dir + "/a/shop.db\", "},
	}
	for _, tt := range tests {
		d, err := in.FindDatabase(tt.name)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case d.Path != filepath.Join(dir, tt.want):
			t.Errorf("%s: %s, want %s", tt.name, d.Path, tt.want)
		}
	}
	t.Chdir(dir)
	if _, err := in.FindDatabase("shop.db"); err == nil || !strings.Contains(err.Error(), "2 of its databases are named shop.db: give the path") {
		t.Errorf("an ambiguous base name: %v", err)
	}
}

// TestMergeTail: a part's Tail (records its process had not written)
// follows its records, and a NoteTail mark makes the trace one whose end
// may be missing, which Inspect reports; a trace without the mark (every
// trace written before it existed) is not marked.
func TestMergeTail(t *testing.T) {
	var part bytes.Buffer
	w, _ := NewWriter(&part)
	s := w.Stream(0)
	for _, r := range []Record{
		{Kind: KindProcess, Process: Process{PID: 7}},
		{Kind: KindDB, DB: DB{ID: 1, Path: "/db"}},
		{Kind: KindOpen, Open: Open{Conn: 1, DB: 1}},
		{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "SELECT 1", Start: 1}},
	} {
		if err := s.Write(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	body := part.Bytes()
	// The tail: two more Execs, encoded as a part's records chunk holds
	// them (the first defines its text).
	var more bytes.Buffer
	mw, _ := NewWriter(&more)
	ms := mw.Stream(0)
	ms.lastStart = 1 // the part's stream went as far
	ms.texts = map[string]uint64{"SELECT 1": 1}
	for _, start := range []int64{2, 3} {
		if err := ms.Write(&Record{Kind: KindExec, Exec: Exec{Conn: 1, SQL: "SELECT 1", Start: start}}); err != nil {
			t.Fatal(err)
		}
	}
	tail := append([]byte(nil), ms.buf...)
	none := func(string) (io.ReadCloser, error) { return nil, errors.New("none") }
	for _, tt := range []struct {
		name       string
		tail       []byte
		marks      []Note
		statements int64
		missing    string
	}{
		{"whole", nil, nil, 1, ""},
		{"tail", tail, nil, 3, ""},
		{"marked", tail, []Note{{Level: NoteTail, Text: "the program died of signal 9"}}, 3, "the program died of signal 9"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var merged bytes.Buffer
			st, err := Merge(&merged, []Part{{Name: "p", R: bytes.NewReader(body), Tail: tt.tail}}, none, nil, tt.marks...)
			if err != nil {
				t.Fatal(err)
			}
			in, err := inspectBytes(merged.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if in.Statements != tt.statements || in.TailMissing != tt.missing || st.TailMissing != tt.missing || !in.Complete {
				t.Errorf("statements %d, tail missing %q (merge %q), complete %v; want %d, %q", in.Statements, in.TailMissing, st.TailMissing, in.Complete, tt.statements, tt.missing)
			}
		})
	}
}
