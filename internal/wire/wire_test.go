package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

func sample(i int) workload.Sample {
	return workload.Sample{
		Op:      []workload.Op{workload.OpRead, workload.OpUpsert, workload.OpCommit}[i%3],
		Class:   store.Class(i % store.NumClasses),
		Start:   time.Duration(i) * time.Microsecond,
		Latency: time.Duration(i*7+1) * time.Nanosecond,
	}
}

// writeAll writes one of every frame, and n samples for worker 3 phase 1.
func writeAll(t testing.TB, n int) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Plan(2, []byte(`{"seed":1}`)))
	must(w.Ready(Ready{Phase: 1, PID: 4242, Clock: 123456789}))
	must(w.Start(Start{Phase: 1, At: 987654321}))
	s := NewSampleSink(w, 3, 1, 10)
	for i := range n {
		must(s.Record(sample(i)))
	}
	must(s.Done(workload.WorkerStats{Worker: 3, Phase: 1, Samples: int64(n), End: 5 * time.Second}))
	must(w.CPU(CPU{Phase: 1, CPU: workload.CPU{User: 1500 * time.Millisecond, System: 250 * time.Microsecond}}))
	must(w.IO(testIO(1)))
	must(w.IO(testIO(-1)))
	must(w.RSS(123 << 20))
	must(w.Error("disk full"))
	must(w.Stop())
	return buf.Bytes()
}

// testIO is an IO payload whose every count differs.
func testIO(phase int) IO {
	io := IO{Phase: phase}
	n := int64(1)
	for r := range store.NumRoles {
		for _, c := range io.IO.Role(r).Fields() {
			*c = n * 1000003
			n++
		}
	}
	return io
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	const n = 25
	r := NewReader(bytes.NewReader(writeAll(t, n)), "test")
	var types []Type
	var got []workload.Sample
	for r.Scan() {
		f := r.Frame()
		types = append(types, f.Type)
		switch f.Type {
		case TypePlan:
			if p := f.Plan(); p.Proc != 2 || string(p.JSON) != `{"seed":1}` {
				t.Errorf("plan = %+v", p)
			}
		case TypeReady:
			if rd := f.Ready(); rd != (Ready{Phase: 1, PID: 4242, Clock: 123456789}) {
				t.Errorf("ready = %+v", rd)
			}
		case TypeStart:
			if s := f.Start(); s != (Start{Phase: 1, At: 987654321}) {
				t.Errorf("start = %+v", s)
			}
		case TypeSamples:
			b := f.Batch()
			if b.Worker != 3 || b.Phase != 1 {
				t.Errorf("batch worker/phase = %d/%d", b.Worker, b.Phase)
			}
			for i := range b.Len() {
				got = append(got, b.At(i))
			}
		case TypeDone:
			if d := f.Done(); d != (workload.WorkerStats{Worker: 3, Phase: 1, Samples: n, End: 5 * time.Second}) {
				t.Errorf("done = %+v", d)
			}
		case TypeCPU:
			if c := f.CPU(); c != (CPU{Phase: 1, CPU: workload.CPU{User: 1500 * time.Millisecond, System: 250 * time.Microsecond}}) {
				t.Errorf("cpu = %+v", c)
			}
		case TypeIO:
			io := f.IO()
			if io != testIO(1) && io != testIO(-1) {
				t.Errorf("io = %+v", io)
			}
		case TypeRSS:
			if got := f.RSS(); got != 123<<20 {
				t.Errorf("rss = %d", got)
			}
		case TypeError:
			if f.Message() != "disk full" {
				t.Errorf("message = %q", f.Message())
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("got %d samples, want %d", len(got), n)
	}
	for i, s := range got {
		if s != sample(i) {
			t.Fatalf("sample %d = %+v, want %+v", i, s, sample(i))
		}
	}
	// 25 samples in batches of 10: three Samples frames.
	want := []Type{TypePlan, TypeReady, TypeStart, TypeSamples, TypeSamples, TypeSamples, TypeDone, TypeCPU, TypeIO, TypeIO, TypeRSS, TypeError, TypeStop}
	if !slices.Equal(types, want) {
		t.Errorf("frame types = %v, want %v", types, want)
	}
}

// A sink flushes a batch once its samples span FlushInterval, so slow runs
// still stream.
func TestSinkFlushesOnTime(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	s := NewSampleSink(NewWriter(&buf), 0, 0, MaxBatch)
	if err := s.Record(workload.Sample{Op: workload.OpRead, Start: 0, Latency: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Fatalf("flushed after one fast sample")
	}
	if err := s.Record(workload.Sample{Op: workload.OpRead, Start: FlushInterval, Latency: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf, "test")
	if !r.Scan() || r.Frame().Type != TypeSamples || r.Frame().Batch().Len() != 2 {
		t.Fatalf("want one Samples frame of 2 after FlushInterval; err %v", r.Err())
	}
}

func TestCorruptStreams(t *testing.T) {
	t.Parallel()
	good := writeAll(t, 5)
	// Offsets into good: stream header 8; plan frame 8+14; ready 8+16;
	// start 8+16; then the samples frame.
	samplesAt := 8 + (8 + 14) + (8 + 16) + (8 + 16)
	cpuAt := samplesAt + (8 + 8 + 5*sampleLen) + (8 + 24) // after the samples and done frames
	ioAt := cpuAt + 8 + 24
	tests := []struct {
		name    string
		mutate  func(b []byte) []byte
		wantOff int64
		want    string
	}{
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }, 0, "bad magic"},
		{"wrong version", func(b []byte) []byte { b[4] = 9; return b }, 0, "protocol version 9"},
		{"reserved header", func(b []byte) []byte { b[7] = 1; return b }, 0, "reserved header"},
		{"unknown type", func(b []byte) []byte { b[8] = 99; return b }, 8, "unknown frame type 99"},
		{"reserved frame byte", func(b []byte) []byte { b[9] = 1; return b }, 8, "reserved bytes"},
		{"impossible length", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[samplesAt+4:], 1<<30)
			return b
		}, int64(samplesAt), "impossible length"},
		{"partial sample", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[samplesAt+4:], batchHeaderLen+sampleLen+3)
			return b
		}, int64(samplesAt), "not a whole number"},
		{"bad op", func(b []byte) []byte { b[samplesAt+16] = 200; return b }, int64(samplesAt), "unknown op 200"},
		{"bad class", func(b []byte) []byte { b[samplesAt+17] = 99; return b }, int64(samplesAt), "unknown outcome class 99"},
		{"cut in header", func(b []byte) []byte { return b[:samplesAt+3] }, int64(samplesAt), "cut short"},
		{"cut in payload", func(b []byte) []byte { return b[:samplesAt+20] }, int64(samplesAt), "cut short"},
		{"cpu reserved", func(b []byte) []byte { b[cpuAt+12] = 1; return b }, int64(cpuAt), "cpu frame: reserved bytes"},
		{"cpu negative", func(b []byte) []byte { b[cpuAt+8+15] = 0x80; return b }, int64(cpuAt), "negative CPU time"},
		{"io reserved", func(b []byte) []byte { b[ioAt+8+5] = 1; return b }, int64(ioAt), "io frame: reserved bytes"},
		{"io negative", func(b []byte) []byte { b[ioAt+8+8+7] = 0x80; return b }, int64(ioAt), "io frame: negative count"},
		{"cut in stream header", func(b []byte) []byte { return b[:5] }, 0, "cut short"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.mutate(bytes.Clone(good))
			r := NewReader(bytes.NewReader(b), "worker process 7")
			samples := 0
			for r.Scan() {
				if r.Frame().Type == TypeSamples {
					samples += r.Frame().Batch().Len()
				}
			}
			var fe *FrameError
			if !errors.As(r.Err(), &fe) {
				t.Fatalf("err = %v, want *FrameError", r.Err())
			}
			if fe.Offset != tt.wantOff || !strings.Contains(fe.Error(), tt.want) || !strings.Contains(fe.Error(), "worker process 7") {
				t.Errorf("err = %v (offset %d), want %q at %d", fe, fe.Offset, tt.want, tt.wantOff)
			}
			if samples != 0 && samples != 5 {
				t.Errorf("a corrupt stream delivered %d samples", samples)
			}
			if int64(samplesAt) == tt.wantOff && samples != 0 {
				t.Errorf("samples of the corrupt frame were delivered")
			}
		})
	}
}

func TestEmptyStreamIsClean(t *testing.T) {
	t.Parallel()
	r := NewReader(bytes.NewReader(nil), "test")
	if r.Scan() || r.Err() != nil {
		t.Fatalf("empty stream: scan true or err %v", r.Err())
	}
}

// FuzzReader feeds arbitrary bytes to the Reader: it must never panic,
// every frame it accepts must decode, and every accepted Samples frame must
// re-encode to the same bytes.
func FuzzReader(f *testing.F) {
	f.Add(writeAll(f, 3))
	f.Add(writeAll(f, 0))
	f.Add([]byte("GBNW\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(bytes.NewReader(b), "fuzz")
		for r.Scan() {
			fr := r.Frame()
			switch fr.Type {
			case TypePlan:
				_ = fr.Plan()
			case TypeReady:
				_ = fr.Ready()
			case TypeStart:
				_ = fr.Start()
			case TypeDone:
				_ = fr.Done()
			case TypeCPU:
				if c := fr.CPU(); c.CPU.User < 0 || c.CPU.System < 0 {
					t.Fatalf("accepted a negative CPU time %+v", c)
				}
			case TypeIO:
				io := fr.IO()
				for r := range store.NumRoles {
					for _, c := range io.IO.Role(r).Fields() {
						if *c < 0 {
							t.Fatalf("accepted a negative count %+v", io)
						}
					}
				}
			case TypeError:
				_ = fr.Message()
			case TypeSamples:
				b := fr.Batch()
				if b.Len() < 1 || b.Len() > MaxBatch {
					t.Fatalf("accepted a batch of %d samples", b.Len())
				}
				for i := range b.Len() {
					s := b.At(i)
					if !s.Op.Valid() || int(s.Class) >= store.NumClasses || s.Latency < 0 || s.Start < 0 {
						t.Fatalf("accepted invalid sample %+v", s)
					}
					var enc [sampleLen]byte
					encodeSample(enc[:], &s)
					if !bytes.Equal(enc[:], b.data[i*sampleLen:(i+1)*sampleLen]) {
						t.Fatalf("sample %d does not re-encode to its bytes", i)
					}
				}
			}
		}
		if r.Err() != nil {
			var fe *FrameError
			if !errors.As(r.Err(), &fe) {
				t.Fatalf("error is not a FrameError: %v", r.Err())
			}
			if fe.Offset < 0 || fe.Offset > int64(len(b)) {
				t.Fatalf("error offset %d outside the %d-byte input", fe.Offset, len(b))
			}
		}
	})
}

// FuzzSampleRoundTrip checks that every valid sample survives encoding.
func FuzzSampleRoundTrip(f *testing.F) {
	f.Add(uint8(1), uint8(0), int64(0), int64(1), int64(0), int64(0), uint16(0), uint8(0))
	f.Add(uint8(15), uint8(7), int64(maxStart), int64(1<<62), int64(1<<61), int64(maxWait), uint16(65535), uint8(1))
	f.Add(uint8(1), uint8(0), int64(5), int64(0), int64(7), int64(0), uint16(0), uint8(3))
	f.Fuzz(func(t *testing.T, op, class uint8, start, lat, lag, wait int64, retries uint16, flags uint8) {
		s := workload.Sample{Op: workload.Op(op), Class: store.Class(class), Start: time.Duration(start), Latency: time.Duration(lat),
			Lag: time.Duration(lag), Wait: time.Duration(wait), Retries: retries, Flags: workload.SampleFlags(flags)}
		skipped := s.Flags&workload.FlagSkipped != 0
		if !s.Op.Valid() || int(s.Class) >= store.NumClasses || start < 0 || start > maxStart || lat < 0 || lag < 0 || wait < 0 || wait > maxWait ||
			flags&^3 != 0 || (lag > lat && !skipped) {
			t.Skip()
		}
		var buf bytes.Buffer
		sink := NewSampleSink(NewWriter(&buf), 1, 0, 1)
		if err := sink.Record(s); err != nil {
			t.Fatal(err)
		}
		r := NewReader(&buf, "fuzz")
		if !r.Scan() {
			t.Fatalf("scan: %v", r.Err())
		}
		if got := r.Frame().Batch().At(0); got != s {
			t.Fatalf("round trip: %+v, want %+v", got, s)
		}
	})
}

// BenchmarkSampleSink is the worker-side cost of recording one sample:
// encoding plus its share of a frame write.
func BenchmarkSampleSink(b *testing.B) {
	s := NewSampleSink(NewWriter(io.Discard), 0, 0, 256)
	smp := sample(1)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Record(smp)
	}
}

// BenchmarkReader is the coordinator-side cost of decoding one sample.
func BenchmarkReader(b *testing.B) {
	var buf bytes.Buffer
	s := NewSampleSink(NewWriter(&buf), 0, 0, 256)
	for i := range 256 * 64 {
		_ = s.Record(sample(i))
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(sampleLen)
	n := 0
	for b.Loop() {
		if n == 0 {
			b.StopTimer()
			r := NewReader(bytes.NewReader(data), "bench")
			b.StartTimer()
			for r.Scan() {
				bt := r.Frame().Batch()
				for i := range bt.Len() {
					_ = bt.At(i)
				}
				n += bt.Len()
			}
		}
		n--
	}
}

// An IO frame carries every count of every role.
func TestIOCarriesEveryCount(t *testing.T) {
	var f store.FileIO
	if n := len(f.Fields()); n*store.NumRoles != ioCounts {
		t.Fatalf("store.FileIO has %d counts, the IO frame carries %d per role", n, ioCounts/store.NumRoles)
	}
}
