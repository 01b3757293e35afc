package result

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry. Latencies are recorded in nanoseconds from 1 ns to
// HistogramMax at three significant digits (0.1% resolution); a latency
// above HistogramMax is recorded as HistogramMax and counted as clamped.
const (
	HistogramMin    = 1
	HistogramMax    = int64(time.Hour)
	histogramDigits = 3
	// timelineDigits is the precision of the per-second histograms, which
	// exist only while their second is open, and of each worker's own.
	timelineDigits = 2
)

func newHistogram() *hdr.Histogram {
	return hdr.New(HistogramMin, HistogramMax, histogramDigits)
}

func newTimelineHistogram() *hdr.Histogram {
	return hdr.New(HistogramMin, HistogramMax, timelineDigits)
}

// newWorkerHistogram is a worker's own latencies': some 30 KiB, one per
// worker (the coordinator's memory grows with workers, not with ops).
func newWorkerHistogram() *hdr.Histogram {
	return hdr.New(HistogramMin, HistogramMax, timelineDigits)
}

// checkGeometry reads only the header of an encoded histogram (HdrHistogram
// V2 compressed: base64 of a cookie, a length and a zlib stream whose first
// 40 bytes are the header) and refuses any geometry but gobench's own. A
// result file is outside input: decoding a header that claims a wide range
// at high precision would allocate gigabytes for its counts.
func checkGeometry(enc string) error {
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return fmt.Errorf("histogram is not base64: %w", err)
	}
	if len(raw) < 8 {
		return fmt.Errorf("histogram of %d bytes is too short", len(raw))
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[8:]))
	if err != nil {
		return fmt.Errorf("histogram is not compressed as expected: %w", err)
	}
	defer z.Close()
	var h [40]byte
	if _, err := io.ReadFull(z, h[:]); err != nil {
		return fmt.Errorf("histogram header: %w", err)
	}
	digits := int32(binary.BigEndian.Uint32(h[12:]))
	lowest := int64(binary.BigEndian.Uint64(h[16:]))
	highest := int64(binary.BigEndian.Uint64(h[24:]))
	if digits != histogramDigits || lowest != HistogramMin || highest != HistogramMax {
		return fmt.Errorf("histogram geometry %d..%d at %d digits is not gobench's (%d..%d at %d)", lowest, highest, digits, HistogramMin, HistogramMax, histogramDigits)
	}
	return nil
}
