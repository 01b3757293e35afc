// Package wire is the binary protocol between the gobench coordinator and
// its worker processes.
//
// # Streams
//
// Each direction is one stream: the coordinator writes to a worker's stdin
// (Plan, then Start for each phase, or Stop), a worker writes to fd 3
// (Ready for each phase, Samples, Done per worker and phase, CPU per phase,
// IO per phase and once for the rest of the process's life, Error). A
// stream opens with an 8-byte header: the magic "GBNW", a little-endian
// uint16 version (Version: 5) and two zero bytes. Version 4 added the IO
// frame, version 5 a count to it (store.FileIO.SyncWrites); a reader refuses a stream of any other version, so a coordinator
// never misreads a worker built from other sources. Frames follow, each an 8-byte
// header (type byte, three zero bytes, little-endian uint32 payload length)
// and the payload.
//
// # Samples
//
// A Samples payload is the worker id and phase (uint32 each) and then
// fixed-size 32-byte samples of four little-endian uint64 words:
//
//   - the op in bits 0-7, the outcome class in bits 8-15 and the start
//     offset in nanoseconds in bits 16-63 (so a phase lasts at most 78
//     hours);
//   - the latency in nanoseconds;
//   - the open-loop schedule lag in nanoseconds (0 in closed loop);
//   - the flags in bits 0-7, the busy retries in bits 8-23 and the time
//     waited on them in nanoseconds in bits 24-63 (at most 18 minutes).
//
// Workers batch up to MaxBatch samples per frame.
//
// # I/O
//
// An IO payload is the phase (uint32; OutsidePhases for what the process
// did outside every phase: opening its connections, closing them), four
// zero bytes, then per file role (store.RoleDatabase, RoleJournal,
// RoleWAL, RoleOther) the counts of a store.FileIO in the order of its
// Fields, each a little-endian int64 that must not be negative.
//
// # Errors
//
// The Reader checks every frame in full (type, reserved bytes, length for
// its type, every sample's op and class) before handing it out, so a
// corrupt or truncated stream is reported as a *FrameError naming the
// stream and the byte offset, and a bad sample is never counted.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Version is the protocol version this package reads and writes.
const Version = 5

var magic = [4]byte{'G', 'B', 'N', 'W'}

const (
	streamHeaderLen = 8
	frameHeaderLen  = 8
	sampleLen       = 32
	batchHeaderLen  = 8
	// MaxBatch is the most samples a Samples frame may carry.
	MaxBatch = 4096
	// MaxPlan is the largest plan payload accepted.
	MaxPlan = 1 << 20
	// MaxMessage is the largest error message accepted.
	MaxMessage = 64 << 10
	// maxStart is the largest start offset a sample can carry.
	maxStart = 1<<48 - 1
	// maxWait is the largest busy wait a sample can carry.
	maxWait = 1<<40 - 1
	// ioCounts is how many counts an IO frame carries.
	ioCounts = store.NumRoles * 10
	ioLen    = 8 + 8*ioCounts
)

// OutsidePhases is the phase of an IO frame that counts what a worker
// process did outside every phase.
const OutsidePhases = 1<<32 - 1

// Type is a frame type.
type Type uint8

// Frame types.
const (
	TypePlan    Type = 1  // coordinator → worker: process index and JSON plan
	TypeReady   Type = 2  // worker → coordinator: phase, pid and clock; all connections open
	TypeStart   Type = 3  // coordinator → worker: start the phase; offsets count from the given instant
	TypeStop    Type = 4  // coordinator → worker: stop after the current op
	TypeSamples Type = 5  // worker → coordinator: a batch of samples
	TypeDone    Type = 6  // worker → coordinator: one worker finished a phase
	TypeError   Type = 7  // worker → coordinator: the worker failed, with a message
	TypeCPU     Type = 8  // worker → coordinator: the process's CPU time over a phase
	TypeIO      Type = 9  // worker → coordinator: the file I/O the process's engine counted over a phase
	TypeRSS     Type = 10 // worker → coordinator: the process's peak resident memory, as it ends
)

var typeNames = map[Type]string{
	TypePlan: "plan", TypeReady: "ready", TypeStart: "start", TypeStop: "stop",
	TypeSamples: "samples", TypeDone: "done", TypeError: "error", TypeCPU: "cpu", TypeIO: "io",
	TypeRSS: "rss",
}

// String returns the frame type's name.
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// payloadBounds returns the smallest and largest payload of a frame type.
func payloadBounds(t Type) (lo, hi int, ok bool) {
	switch t {
	case TypePlan:
		return 5, 4 + MaxPlan, true
	case TypeReady:
		return 16, 16, true
	case TypeStart:
		return 16, 16, true
	case TypeStop:
		return 0, 0, true
	case TypeSamples:
		return batchHeaderLen + sampleLen, batchHeaderLen + MaxBatch*sampleLen, true
	case TypeDone:
		return 24, 24, true
	case TypeError:
		return 0, MaxMessage, true
	case TypeCPU:
		return 24, 24, true
	case TypeIO:
		return ioLen, ioLen, true
	case TypeRSS:
		return 8, 8, true
	}
	return 0, 0, false
}

// FrameError is a malformed stream: where it went wrong and why.
type FrameError struct {
	// Source names the stream, such as "worker process 3".
	Source string
	// Offset is the byte offset in the stream where the bad frame or
	// header starts.
	Offset int64
	Err    error
}

// Error says where the stream went wrong and why.
func (e *FrameError) Error() string {
	return fmt.Sprintf("%s: corrupt stream at byte %d: %v", e.Source, e.Offset, e.Err)
}

// Unwrap returns the underlying cause.
func (e *FrameError) Unwrap() error { return e.Err }

// Frame is one decoded, validated frame. Its payload belongs to the Reader
// and is valid until the next call to Scan.
type Frame struct {
	Type    Type
	Offset  int64
	payload []byte
}

// Plan is the payload of a Plan frame.
type Plan struct {
	Proc int
	JSON []byte
}

// Ready is the payload of a Ready frame.
type Ready struct {
	Phase int
	PID   int
	// Clock is the worker's monotonic clock (runner.Now) when it sent
	// the frame; the coordinator checks it against its own.
	Clock int64
}

// Start is the payload of a Start frame.
type Start struct {
	Phase int
	// At is the coordinator's monotonic clock at START: workers measure
	// every offset of the phase from it.
	At int64
}

// Plan decodes a Plan frame. The JSON aliases the frame's payload.
func (f Frame) Plan() Plan {
	return Plan{Proc: int(binary.LittleEndian.Uint32(f.payload)), JSON: f.payload[4:]}
}

// Ready decodes a Ready frame.
func (f Frame) Ready() Ready {
	return Ready{
		Phase: int(binary.LittleEndian.Uint32(f.payload)),
		PID:   int(binary.LittleEndian.Uint32(f.payload[4:])),
		Clock: int64(binary.LittleEndian.Uint64(f.payload[8:])),
	}
}

// Start decodes a Start frame.
func (f Frame) Start() Start {
	return Start{Phase: int(binary.LittleEndian.Uint32(f.payload)), At: int64(binary.LittleEndian.Uint64(f.payload[8:]))}
}

// Done decodes a Done frame.
func (f Frame) Done() workload.WorkerStats {
	p := f.payload
	return workload.WorkerStats{
		Worker:  int(binary.LittleEndian.Uint32(p)),
		Phase:   int(binary.LittleEndian.Uint32(p[4:])),
		Samples: int64(binary.LittleEndian.Uint64(p[8:])),
		End:     time.Duration(binary.LittleEndian.Uint64(p[16:])),
	}
}

// CPU is the payload of a CPU frame: the processor time a worker process
// spent from a phase's START until all its workers finished it.
type CPU struct {
	Phase int
	CPU   workload.CPU
}

// CPU decodes a CPU frame.
func (f Frame) CPU() CPU {
	p := f.payload
	return CPU{Phase: int(binary.LittleEndian.Uint32(p)), CPU: workload.CPU{
		User:   time.Duration(binary.LittleEndian.Uint64(p[8:])),
		System: time.Duration(binary.LittleEndian.Uint64(p[16:])),
	}}
}

// checkCPU refuses a CPU payload with reserved bytes set or a negative
// time.
func checkCPU(p []byte) error {
	if binary.LittleEndian.Uint32(p[4:]) != 0 {
		return errors.New("reserved bytes are not zero")
	}
	if int64(binary.LittleEndian.Uint64(p[8:])) < 0 || int64(binary.LittleEndian.Uint64(p[16:])) < 0 {
		return errors.New("negative CPU time")
	}
	return nil
}

// IO is the payload of an IO frame: the file I/O a worker process's
// engine counted over a phase, or outside every phase (OutsidePhases).
type IO struct {
	Phase int
	IO    store.IOCounts
}

// IO decodes an IO frame.
func (f Frame) IO() IO {
	p := f.payload
	out := IO{Phase: int(binary.LittleEndian.Uint32(p))}
	if uint32(out.Phase) == OutsidePhases {
		out.Phase = -1
	}
	i := 8
	for r := range store.NumRoles {
		for _, c := range out.IO.Role(r).Fields() {
			*c = int64(binary.LittleEndian.Uint64(p[i:]))
			i += 8
		}
	}
	return out
}

// checkIO refuses an IO payload with reserved bytes set or a negative
// count.
func checkIO(p []byte) error {
	if binary.LittleEndian.Uint32(p[4:]) != 0 {
		return errors.New("reserved bytes are not zero")
	}
	for i := 8; i < len(p); i += 8 {
		if int64(binary.LittleEndian.Uint64(p[i:])) < 0 {
			return fmt.Errorf("negative count at byte %d", i)
		}
	}
	return nil
}

// RSS decodes an RSS frame: a worker process's peak resident memory in
// bytes.
func (f Frame) RSS() int64 { return int64(binary.LittleEndian.Uint64(f.payload)) }

// Message decodes an Error frame.
func (f Frame) Message() string { return string(f.payload) }

// Batch decodes a Samples frame.
func (f Frame) Batch() Batch {
	return Batch{
		Worker: int(binary.LittleEndian.Uint32(f.payload)),
		Phase:  int(binary.LittleEndian.Uint32(f.payload[4:])),
		data:   f.payload[batchHeaderLen:],
	}
}

// Batch is the samples of one Samples frame.
type Batch struct {
	Worker, Phase int
	data          []byte
}

// Len returns the number of samples.
func (b Batch) Len() int { return len(b.data) / sampleLen }

// At returns sample i.
func (b Batch) At(i int) workload.Sample {
	return decodeSample(b.data[i*sampleLen:])
}

func encodeSample(dst []byte, s *workload.Sample) {
	_ = dst[sampleLen-1] // one bounds check for the four words
	binary.LittleEndian.PutUint64(dst, uint64(min(max(s.Start, 0), maxStart))<<16|uint64(s.Class)<<8|uint64(s.Op))
	binary.LittleEndian.PutUint64(dst[8:], uint64(max(s.Latency, 0)))
	binary.LittleEndian.PutUint64(dst[16:], uint64(max(s.Lag, 0)))
	binary.LittleEndian.PutUint64(dst[24:], uint64(min(max(s.Wait, 0), maxWait))<<24|uint64(s.Retries)<<8|uint64(s.Flags))
}

func decodeSample(src []byte) workload.Sample {
	w := binary.LittleEndian.Uint64(src)
	return workload.Sample{
		Op:      workload.Op(w),
		Class:   store.Class(w >> 8),
		Start:   time.Duration(w >> 16),
		Latency: time.Duration(binary.LittleEndian.Uint64(src[8:])),
		Lag:     time.Duration(binary.LittleEndian.Uint64(src[16:])),
		Wait:    time.Duration(binary.LittleEndian.Uint64(src[24:]) >> 24),
		Retries: uint16(binary.LittleEndian.Uint64(src[24:]) >> 8),
		Flags:   workload.SampleFlags(src[24]),
	}
}

func checkSamples(data []byte) error {
	for i := 0; i < len(data); i += sampleLen {
		w := binary.LittleEndian.Uint64(data[i:])
		if op := workload.Op(w); !op.Valid() {
			return fmt.Errorf("sample %d: unknown op %d", i/sampleLen, uint8(op))
		}
		if c := uint8(w >> 8); int(c) >= store.NumClasses {
			return fmt.Errorf("sample %d: unknown outcome class %d", i/sampleLen, c)
		}
		lat, lag := binary.LittleEndian.Uint64(data[i+8:]), binary.LittleEndian.Uint64(data[i+16:])
		if lat > math.MaxInt64 {
			return fmt.Errorf("sample %d: impossible latency %d ns", i/sampleLen, lat)
		}
		f := workload.SampleFlags(data[i+24])
		if f&^workload.KnownFlags != 0 {
			return fmt.Errorf("sample %d: unknown flags %#x", i/sampleLen, uint8(f))
		}
		if lag > lat && f&workload.FlagSkipped == 0 {
			return fmt.Errorf("sample %d: schedule lag %d ns beyond its latency %d ns", i/sampleLen, lag, lat)
		}
	}
	return nil
}

// Reader reads frames from a stream, in the manner of bufio.Scanner.
type Reader struct {
	r      io.Reader
	source string
	off    int64
	buf    []byte
	frame  Frame
	err    error
	opened bool
}

// NewReader returns a Reader of r; source names the stream in errors.
func NewReader(r io.Reader, source string) *Reader {
	return &Reader{r: r, source: source, buf: make([]byte, 0, 4096)}
}

// Scan reads the next frame, checking it in full. It returns false at the
// end of the stream or on an error; Err tells which.
func (r *Reader) Scan() bool {
	if r.err != nil {
		return false
	}
	if !r.opened {
		var h [streamHeaderLen]byte
		if !r.fill(h[:], 0, true) {
			return false
		}
		if [4]byte(h[:4]) != magic {
			return r.fail(0, fmt.Errorf("bad magic %q (want %q)", h[:4], magic[:]))
		}
		if v := binary.LittleEndian.Uint16(h[4:]); v != Version {
			return r.fail(0, fmt.Errorf("protocol version %d (this gobench speaks %d)", v, Version))
		}
		if h[6] != 0 || h[7] != 0 {
			return r.fail(0, errors.New("reserved header bytes are not zero"))
		}
		r.off = streamHeaderLen
		r.opened = true
	}
	start := r.off
	var h [frameHeaderLen]byte
	if !r.fill(h[:], start, true) {
		return false
	}
	typ := Type(h[0])
	n := binary.LittleEndian.Uint32(h[4:])
	lo, hi, ok := payloadBounds(typ)
	switch {
	case !ok:
		return r.fail(start, fmt.Errorf("unknown frame type %d", h[0]))
	case h[1] != 0 || h[2] != 0 || h[3] != 0:
		return r.fail(start, fmt.Errorf("%v frame: reserved bytes are not zero", typ))
	case int64(n) < int64(lo) || int64(n) > int64(hi):
		return r.fail(start, fmt.Errorf("%v frame: impossible length %d (want %d to %d)", typ, n, lo, hi))
	case typ == TypeSamples && (n-batchHeaderLen)%sampleLen != 0:
		return r.fail(start, fmt.Errorf("samples frame: length %d is not a whole number of samples", n))
	}
	if cap(r.buf) < int(n) {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if !r.fill(r.buf, start, false) {
		return false
	}
	if typ == TypeSamples {
		if err := checkSamples(r.buf[batchHeaderLen:]); err != nil {
			return r.fail(start, fmt.Errorf("samples frame: %w", err))
		}
	}
	if typ == TypeCPU {
		if err := checkCPU(r.buf); err != nil {
			return r.fail(start, fmt.Errorf("cpu frame: %w", err))
		}
	}
	if typ == TypeRSS && int64(binary.LittleEndian.Uint64(r.buf)) < 0 {
		return r.fail(start, errors.New("rss frame: negative peak"))
	}
	if typ == TypeIO {
		if err := checkIO(r.buf); err != nil {
			return r.fail(start, fmt.Errorf("io frame: %w", err))
		}
	}
	r.frame = Frame{Type: typ, Offset: start, payload: r.buf}
	return true
}

// fill reads len(b) bytes. At a clean end of stream before the first byte
// (allowed only where atBoundary), it returns false with no error; a stream
// that ends part-way is an error at offset at, where the cut unit began.
func (r *Reader) fill(b []byte, at int64, atBoundary bool) bool {
	n, err := io.ReadFull(r.r, b)
	r.off += int64(n)
	switch {
	case err == nil:
		return true
	case err == io.EOF && atBoundary:
		return false
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		r.fail(at, fmt.Errorf("stream cut short: %d of %d bytes", n, len(b)))
	default:
		r.err = fmt.Errorf("%s: reading: %w", r.source, err)
	}
	return false
}

func (r *Reader) fail(off int64, err error) bool {
	r.err = &FrameError{Source: r.source, Offset: off, Err: err}
	return false
}

// Frame returns the frame read by the last successful Scan.
func (r *Reader) Frame() Frame { return r.frame }

// Err returns the first error, or nil at a clean end of stream.
func (r *Reader) Err() error { return r.err }

// Writer writes frames to a stream. It is safe for concurrent use: the
// workers of one process share one Writer.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	opened bool
	buf    []byte
	err    error
}

// NewWriter returns a Writer to w. The stream header goes out with the
// first frame.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// write sends one frame whose first frameHeaderLen bytes of b are reserved
// for the header. The caller holds w.mu.
func (w *Writer) write(t Type, b []byte) error {
	if w.err != nil {
		return w.err
	}
	b[0] = byte(t)
	b[1], b[2], b[3] = 0, 0, 0
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-frameHeaderLen))
	if !w.opened {
		var h [streamHeaderLen]byte
		copy(h[:], magic[:])
		binary.LittleEndian.PutUint16(h[4:], Version)
		if _, err := w.w.Write(h[:]); err != nil {
			w.err = err
			return err
		}
		w.opened = true
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = err
		return err
	}
	return nil
}

// small writes a frame built from a few fixed fields.
func (w *Writer) small(t Type, build func(p []byte) []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = build(append(w.buf[:0], make([]byte, frameHeaderLen)...))
	return w.write(t, w.buf)
}

// Plan sends the plan for process proc.
func (w *Writer) Plan(proc int, planJSON []byte) error {
	if len(planJSON) == 0 || len(planJSON) > MaxPlan {
		return fmt.Errorf("plan of %d bytes (want 1 to %d)", len(planJSON), MaxPlan)
	}
	return w.small(TypePlan, func(p []byte) []byte {
		return append(binary.LittleEndian.AppendUint32(p, uint32(proc)), planJSON...)
	})
}

// Ready tells the coordinator that every worker of this process is ready
// for a phase.
func (w *Writer) Ready(r Ready) error {
	return w.small(TypeReady, func(p []byte) []byte {
		p = binary.LittleEndian.AppendUint32(p, uint32(r.Phase))
		p = binary.LittleEndian.AppendUint32(p, uint32(r.PID))
		return binary.LittleEndian.AppendUint64(p, uint64(r.Clock))
	})
}

// Start tells a worker process to start a phase.
func (w *Writer) Start(s Start) error {
	return w.small(TypeStart, func(p []byte) []byte {
		p = binary.LittleEndian.AppendUint32(p, uint32(s.Phase))
		p = binary.LittleEndian.AppendUint32(p, 0)
		return binary.LittleEndian.AppendUint64(p, uint64(s.At))
	})
}

// Stop tells a worker process to stop after its current ops.
func (w *Writer) Stop() error {
	return w.small(TypeStop, func(p []byte) []byte { return p })
}

// Done reports that a worker finished a phase.
func (w *Writer) Done(st workload.WorkerStats) error {
	return w.small(TypeDone, func(p []byte) []byte {
		p = binary.LittleEndian.AppendUint32(p, uint32(st.Worker))
		p = binary.LittleEndian.AppendUint32(p, uint32(st.Phase))
		p = binary.LittleEndian.AppendUint64(p, uint64(st.Samples))
		return binary.LittleEndian.AppendUint64(p, uint64(max(st.End, 0)))
	})
}

// CPU reports the processor time the worker process spent on a phase.
func (w *Writer) CPU(c CPU) error {
	return w.small(TypeCPU, func(p []byte) []byte {
		p = binary.LittleEndian.AppendUint32(p, uint32(c.Phase))
		p = binary.LittleEndian.AppendUint32(p, 0)
		p = binary.LittleEndian.AppendUint64(p, uint64(max(c.CPU.User, 0)))
		return binary.LittleEndian.AppendUint64(p, uint64(max(c.CPU.System, 0)))
	})
}

// RSS reports the worker process's peak resident memory in bytes (its
// VmHWM on Linux), sent as it ends; negative is sent as 0.
func (w *Writer) RSS(peak int64) error {
	return w.small(TypeRSS, func(p []byte) []byte {
		return binary.LittleEndian.AppendUint64(p, uint64(max(peak, 0)))
	})
}

// IO reports the file I/O the worker process's engine counted over a
// phase; a phase of -1 is OutsidePhases. Negative counts are sent as 0.
func (w *Writer) IO(io IO) error {
	return w.small(TypeIO, func(p []byte) []byte {
		p = binary.LittleEndian.AppendUint32(p, uint32(io.Phase))
		p = binary.LittleEndian.AppendUint32(p, 0)
		for r := range store.NumRoles {
			for _, c := range io.IO.Role(r).Fields() {
				p = binary.LittleEndian.AppendUint64(p, uint64(max(*c, 0)))
			}
		}
		return p
	})
}

// Error reports a worker failure; long messages are cut to MaxMessage.
func (w *Writer) Error(msg string) error {
	if len(msg) > MaxMessage {
		msg = msg[:MaxMessage]
	}
	return w.small(TypeError, func(p []byte) []byte { return append(p, msg...) })
}

// FlushInterval is the longest a SampleSink holds samples before sending
// them, measured on the samples' own clock, so the coordinator sees a run's
// progress even when ops are slow.
const FlushInterval = 100 * time.Millisecond

// SampleSink batches one worker's samples for one phase into Samples
// frames. It implements workload.Sink; it is used by one goroutine.
type SampleSink struct {
	w         *Writer
	buf       []byte
	n         int
	size      int
	lastFlush time.Duration
}

var _ workload.Sink = (*SampleSink)(nil)

// NewSampleSink returns a sink for worker in phase that sends frames of up
// to batch samples (at most MaxBatch) through w.
func NewSampleSink(w *Writer, worker, phase, batch int) *SampleSink {
	batch = min(max(batch, 1), MaxBatch)
	buf := make([]byte, frameHeaderLen+batchHeaderLen, frameHeaderLen+batchHeaderLen+batch*sampleLen)
	binary.LittleEndian.PutUint32(buf[frameHeaderLen:], uint32(worker))
	binary.LittleEndian.PutUint32(buf[frameHeaderLen+4:], uint32(phase))
	return &SampleSink{w: w, buf: buf, size: batch}
}

// Record adds a sample, sending the batch when it is full or older than
// FlushInterval.
func (s *SampleSink) Record(smp workload.Sample) error {
	s.buf = s.buf[:len(s.buf)+sampleLen]
	encodeSample(s.buf[len(s.buf)-sampleLen:], &smp)
	s.n++
	if end := smp.Start + smp.Latency; s.n == s.size || end-s.lastFlush >= FlushInterval {
		s.lastFlush = end
		return s.flush()
	}
	return nil
}

func (s *SampleSink) flush() error {
	if s.n == 0 {
		return nil
	}
	s.w.mu.Lock()
	err := s.w.write(TypeSamples, s.buf)
	s.w.mu.Unlock()
	s.buf = s.buf[:frameHeaderLen+batchHeaderLen]
	s.n = 0
	return err
}

// Done sends the remaining samples and then the worker's Done frame.
func (s *SampleSink) Done(st workload.WorkerStats) error {
	if err := s.flush(); err != nil {
		return err
	}
	return s.w.Done(st)
}
