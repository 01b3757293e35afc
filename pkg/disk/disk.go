// Package disk measures a disk's own speed, the ceiling under every
// durable commit: sequential write and read by block size, with a choice
// of sync mode and O_DIRECT, and the latency of small writes each made
// durable with fdatasync. It needs no store. Linux-only calls (O_DIRECT,
// posix_fadvise) live in per-OS files.
package disk

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
)

// SyncMode says how writes are made durable.
type SyncMode string

// The sync modes.
const (
	SyncNone      SyncMode = "none"      // no sync at all: data may sit in the page cache
	SyncDsync     SyncMode = "dsync"     // O_DSYNC: every write durable when it returns (dd oflag=dsync)
	SyncFdatasync SyncMode = "fdatasync" // fdatasync after every block
	SyncFsyncEnd  SyncMode = "fsync-end" // one fsync after the last block, inside the clock (dd conv=fsync)
)

// ParseSyncMode checks a sync mode's name.
func ParseSyncMode(s string) (SyncMode, error) {
	switch m := SyncMode(s); m {
	case SyncNone, SyncDsync, SyncFdatasync, SyncFsyncEnd:
		return m, nil
	}
	return "", fmt.Errorf("unknown sync mode %q (want none, dsync, fdatasync or fsync-end)", s)
}

// DirectAlign is the alignment O_DIRECT needs of buffers, offsets and
// block sizes here.
const DirectAlign = 4096

// ErrDirect marks a file system or OS that refuses O_DIRECT.
var ErrDirect = errors.New("O_DIRECT refused")

// checkDirect refuses a block size O_DIRECT cannot use.
func checkDirect(bs int64) error {
	if bs%DirectAlign != 0 {
		return fmt.Errorf("%w: block size %d is not a multiple of %d bytes, which O_DIRECT needs", ErrDirect, bs, DirectAlign)
	}
	return nil
}

// Sequential is one block size's sequential write and read.
type Sequential struct {
	BlockSize int64 `json:"block_size"`
	Bytes     int64 `json:"bytes"`
	// Write and read speeds in bytes per second.
	WriteBytesPerSec float64 `json:"write_bytes_per_sec"`
	ReadBytesPerSec  float64 `json:"read_bytes_per_sec"`
	// CacheDropped says whether the file's pages were evicted from the
	// page cache before the read (posix_fadvise DONTNEED); CacheNote says
	// why not, when they were not.
	CacheDropped bool   `json:"cache_dropped"`
	CacheNote    string `json:"cache_note,omitempty"`
}

// alignedBuffer returns n bytes of random data aligned for O_DIRECT.
func alignedBuffer(n int64) []byte {
	b := make([]byte, n+DirectAlign)
	off := 0
	if r := int(uintptr(unsafePointer(b)) % DirectAlign); r != 0 {
		off = DirectAlign - r
	}
	b = b[off : off+int(n)]
	_, _ = rand.Read(b) // incompressible: no file system or device can shortcut it
	return b
}

// MeasureSequential writes size bytes (rounded down to whole blocks; a
// block larger than size is refused) to a new file in dir in blocks of bs, then reads them back,
// and removes the file. The write clock includes the sync the mode asks
// for; the read starts after the file's pages were dropped from the page
// cache where the OS allows.
func MeasureSequential(ctx context.Context, dir string, size, bs int64, mode SyncMode, direct bool) (Sequential, error) {
	res := Sequential{BlockSize: bs}
	if bs <= 0 || bs > size {
		return res, fmt.Errorf("block size %d: want 1 byte to the size %d", bs, size)
	}
	if direct {
		if err := checkDirect(bs); err != nil {
			return res, err
		}
	}
	blocks := size / bs
	res.Bytes = blocks * bs
	f, err := os.CreateTemp(dir, "gobench-disk-*")
	if err != nil {
		return res, err
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	buf := alignedBuffer(bs)
	if res.WriteBytesPerSec, err = writeBlocks(ctx, name, buf, blocks, mode, direct); err != nil {
		return res, err
	}
	r, err := openFile(name, os.O_RDONLY, direct)
	if err != nil {
		return res, err
	}
	defer r.Close()
	if direct {
		res.CacheDropped, res.CacheNote = true, "O_DIRECT reads bypass the page cache"
	} else if err := dropCache(r); err != nil {
		res.CacheNote = "the page cache could not be dropped (" + err.Error() + "): reads may come from memory"
	} else {
		res.CacheDropped = true
	}
	t0 := time.Now()
	for i := int64(0); i < blocks; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if _, err := readFull(r, buf); err != nil {
			return res, fmt.Errorf("reading block %d: %w", i, err)
		}
	}
	res.ReadBytesPerSec = float64(res.Bytes) / time.Since(t0).Seconds()
	return res, nil
}

// writeBlocks writes blocks copies of buf to the file name, syncing as
// mode says inside the clock, and returns the rate. The file is synced
// again afterwards (outside the clock), so its pages are clean and can be
// dropped from the page cache.
func writeBlocks(ctx context.Context, name string, buf []byte, blocks int64, mode SyncMode, direct bool) (float64, error) {
	flags := os.O_WRONLY | os.O_TRUNC
	if mode == SyncDsync {
		flags |= oDSYNC
	}
	w, err := openFile(name, flags, direct)
	if err != nil {
		return 0, err
	}
	defer w.Close()
	t0 := time.Now()
	for i := int64(0); i < blocks; i++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if _, err := w.Write(buf); err != nil {
			return 0, fmt.Errorf("writing block %d: %w", i, err)
		}
		if mode == SyncFdatasync {
			if err := fdatasync(w); err != nil {
				return 0, fmt.Errorf("fdatasync: %w", err)
			}
		}
	}
	if mode == SyncFsyncEnd {
		if err := w.Sync(); err != nil {
			return 0, fmt.Errorf("fsync: %w", err)
		}
	}
	rate := float64(int64(len(buf))*blocks) / time.Since(t0).Seconds()
	if err := w.Sync(); err != nil {
		return 0, err
	}
	return rate, w.Close()
}

func readFull(f *os.File, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := f.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// FsyncLatency is the latency of a durable small write.
type FsyncLatency struct {
	Ops       int     `json:"ops"`
	WriteSize int64   `json:"write_size"`
	OpsPerSec float64 `json:"ops_per_sec"`
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	MaxMicros float64 `json:"max_us"`
}

// MeasureFsync appends n writes of size bytes to a new file in dir, each
// followed by fdatasync, and times each pair: how many durable commits per
// second the disk allows, the ceiling of a database's synchronous commits.
func MeasureFsync(ctx context.Context, dir string, n int, size int64) (FsyncLatency, error) {
	res := FsyncLatency{Ops: n, WriteSize: size}
	f, err := os.CreateTemp(dir, "gobench-fsync-*")
	if err != nil {
		return res, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := alignedBuffer(size)
	h := hdr.New(1, int64(time.Hour), 3)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		s := time.Now()
		if _, err := f.Write(buf); err != nil {
			return res, fmt.Errorf("write %d: %w", i, err)
		}
		if err := fdatasync(f); err != nil {
			return res, fmt.Errorf("fdatasync %d: %w", i, err)
		}
		_ = h.RecordValue(int64(time.Since(s)))
	}
	res.OpsPerSec = float64(n) / time.Since(t0).Seconds()
	res.P50Micros = float64(percentile.Value(h, 50)) / 1e3
	res.P99Micros = float64(percentile.Value(h, 99)) / 1e3
	res.MaxMicros = float64(h.Max()) / 1e3
	return res, nil
}

// Describe says what the mode does, for a report's header.
func (m SyncMode) Describe() string {
	switch m {
	case SyncNone:
		return "no sync: writes may end in the page cache, so the write rate can be memory's"
	case SyncDsync:
		return "O_DSYNC: every block durable before its write returns (dd oflag=dsync)"
	case SyncFdatasync:
		return "fdatasync after every block"
	case SyncFsyncEnd:
		return "one fsync after the last block, inside the write clock (dd conv=fsync)"
	}
	return string(m)
}
