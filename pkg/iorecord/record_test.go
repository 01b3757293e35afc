package iorecord

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func sampleEvents() []Event {
	return []Event{
		{Kind: KindStart, Time: 10},
		{Kind: KindCreate, Role: 1, PID: 7, Time: 11},
		{Kind: KindWrite, Role: 1, PID: 7, Time: 12, Arg: 4096, Data: bytes.Repeat([]byte{0xab}, 512)},
		{Kind: KindSync, Role: 1, Flags: 2, PID: 7, Time: 13},
		{Kind: KindDirSync, Role: 1, PID: 7, Time: 14},
		{Kind: KindTruncate, Role: 2, PID: 8, Time: 15, Arg: 0},
		{Kind: KindAck, PID: 8, Time: 16, Data: AppendAck(nil, Ack{Worker: 3, Phase: 1, First: 41, N: 2, Start: 9})},
		{Kind: KindDelete, Role: 1, PID: 7, Time: 17},
		{Kind: KindMkdir, File: 2, Arg: RootDir, PID: 9, Time: 18, Data: []byte("sub")},
		{Kind: KindCreate, File: 3, Arg: 2, PID: 9, Time: 19, Data: []byte("000001.log")},
		{Kind: KindWrite, File: 3, Role: 2, PID: 9, Time: 20, Arg: 7, Data: []byte("entry")},
		{Kind: KindSync, File: 3, Role: 2, Flags: FlagDataSync, PID: 9, Time: 21},
		{Kind: KindTruncate, File: 3, Flags: FlagGrow, PID: 9, Time: 22, Arg: 1 << 20},
		{Kind: KindRename, File: 3, Flags: FlagExchange, PID: 9, Time: 23, Data: AppendRename(nil, Rename{From: 2, To: RootDir, Old: "000001.log", New: "CURRENT"})},
		{Kind: KindLink, File: 3, Arg: 2, PID: 9, Time: 24, Data: []byte("again")},
		{Kind: KindDelete, File: 3, Arg: 2, PID: 9, Time: 25, Data: []byte("again")},
		{Kind: KindDirSync, File: 2, PID: 9, Time: 26},
		{Kind: KindEnd, Time: 27},
	}
}

// An acknowledgement reads back as it was recorded: a record write's
// with its record's keynum and field, a key-value write's (or an old
// record's, whose reserved word is 0) with none.
func TestAckRoundTrip(t *testing.T) {
	tests := []Ack{
		{Worker: 3, Phase: 1, First: 41, N: 2, Start: 9},
		{Worker: 0, Phase: -1, N: 20000}, // a preload's
		{Worker: 2, Phase: 0, First: 7, N: 1, Start: 5, Record: true, Key: 1<<40 + 3, Field: 4},
		{Worker: 0, Phase: 0, First: 8, N: 1, Start: 6, Record: true, Key: 0, Field: -1},
	}
	for _, a := range tests {
		e := AckEvent(a)
		buf := AppendEvent(nil, &e)
		r := NewReader(bytes.NewReader(buf), 0)
		if !r.Scan() {
			t.Fatalf("%+v: %v", a, r.Err())
		}
		got := r.Event()
		if got.Kind != KindAck {
			t.Fatalf("%+v: kind %d", a, got.Kind)
		}
		if g := got.Ack(); g != a {
			t.Errorf("ack %+v read back as %+v", a, g)
		}
	}
}

// A rename's payload reads back as it was written; one cut short does
// not read.
func TestRename(t *testing.T) {
	r := Rename{From: 4, To: 9, Old: "a.tmp", New: "MANIFEST-000002"}
	e := Event{Kind: KindRename, File: 5, Data: AppendRename(nil, r)}
	if got, err := e.Rename(); err != nil || got != r {
		t.Errorf("%+v, %v", got, err)
	}
	e.Data = e.Data[:11]
	if _, err := e.Rename(); err == nil {
		t.Error("a rename cut short was read")
	}
}

// Every event reads back as it was written, with its offset.
func TestRecordRoundTrip(t *testing.T) {
	var buf []byte
	var offs []int64
	for _, e := range sampleEvents() {
		offs = append(offs, int64(len(buf)))
		buf = AppendEvent(buf, &e)
	}
	r := NewReader(bytes.NewReader(buf), 0)
	i := 0
	for r.Scan() {
		got, want := r.Event(), sampleEvents()[i]
		if got.Kind != want.Kind || got.Role != want.Role || got.Flags != want.Flags || got.PID != want.PID ||
			got.Time != want.Time || got.Arg != want.Arg || !bytes.Equal(got.Data, want.Data) || got.Offset != offs[i] {
			t.Errorf("event %d = %+v, want %+v at %d", i, got, want, offs[i])
		}
		if got.Kind == KindAck {
			if a := got.Ack(); a != (Ack{Worker: 3, Phase: 1, First: 41, N: 2, Start: 9}) {
				t.Errorf("ack = %+v", a)
			}
		}
		var scratch []byte
		at, err := ReadEventAt(bytes.NewReader(buf), offs[i], &scratch)
		if err != nil || at.Kind != want.Kind || !bytes.Equal(at.Data, want.Data) {
			t.Errorf("ReadEventAt(%d) = %+v, %v", offs[i], at, err)
		}
		i++
	}
	if r.Err() != nil || i != len(sampleEvents()) {
		t.Fatalf("read %d events, err %v", i, r.Err())
	}
}

// A record cut short or corrupt stops the reader with an error naming
// the byte where the bad event starts.
func TestRecordCorrupt(t *testing.T) {
	var good []byte
	for _, e := range sampleEvents() {
		good = AppendEvent(good, &e)
	}
	for _, tt := range []struct {
		name string
		bad  func([]byte) []byte
		want string
	}{
		{"cut in a header", func(b []byte) []byte { return b[:40] }, "cut short at byte 32"},
		{"cut in a payload", func(b []byte) []byte { return b[:64+32+100] }, "cut short at byte 64"},
		{"unknown kind", func(b []byte) []byte { b[4] = 99; return b }, "unknown event kind 99"},
		{"short length", func(b []byte) []byte { b[0] = 3; return b }, "impossible event length 3"},
		{"payload on a sync", func(b []byte) []byte { b[0] = 40; return b }, "with a payload"},
		{"a directory made by no number", func(b []byte) []byte { b[4] = byte(KindMkdir); return b }, "names no file"},
		{"a creation by number without its name", func(b []byte) []byte { b[4], b[12] = byte(KindCreate), 5; return b }, "without its name"},
	} {
		r := NewReader(bytes.NewReader(tt.bad(bytes.Clone(good))), 0)
		for r.Scan() {
		}
		if r.Err() == nil || !strings.Contains(r.Err().Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, r.Err(), tt.want)
		}
	}
}

// Appends from many goroutines land whole, each one event; once the
// record holds its limit, one full event marks it, and after it come at
// most the appends already under way (one per goroutine): readers take
// the record up to the first full event.
func TestRecorderConcurrentAndLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "record")
	const limit = 256 << 10
	r, err := OpenRecorder(path, limit)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte{7}, 4096)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				r.Append(Event{Kind: KindWrite, Role: uint8(g % 3), Arg: int64(i), Data: data})
			}
		})
	}
	wg.Wait()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewReader(f, 0)
	writes, full, after := 0, 0, 0
	for rd.Scan() {
		e := rd.Event()
		switch {
		case e.Kind == KindFull:
			full++
		case full > 0:
			after++
		case e.Kind == KindWrite && len(e.Data) == len(data):
			writes++
		}
	}
	if rd.Err() != nil {
		t.Fatal(rd.Err())
	}
	fi, _ := f.Stat()
	if full != 1 || after > 8 || writes < limit/(len(data)+HeaderLen) || fi.Size() > limit+checkEvery+2*int64(len(data)+HeaderLen) {
		t.Errorf("%d writes, %d full marks, %d events after it, %d bytes (limit %d)", writes, full, after, fi.Size(), limit)
	}
}

// FuzzReader feeds arbitrary bytes to the record reader: it never panics,
// and every event it accepts re-encodes to its own bytes.
func FuzzReader(f *testing.F) {
	var good []byte
	for _, e := range sampleEvents() {
		good = AppendEvent(good, &e)
	}
	f.Add(good)
	f.Add(good[:50])
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(bytes.NewReader(b), 0)
		for r.Scan() {
			e := r.Event()
			if e.Offset < 0 || e.Offset+int64(e.Len()) > int64(len(b)) {
				t.Fatalf("event at %d of %d bytes outside the %d-byte input", e.Offset, e.Len(), len(b))
			}
			if enc := AppendEvent(nil, e); !bytes.Equal(enc, b[e.Offset:e.Offset+int64(e.Len())]) {
				t.Fatalf("event at %d does not re-encode to its bytes", e.Offset)
			}
			if e.Kind == KindAck {
				_ = e.Ack()
			}
		}
	})
}
