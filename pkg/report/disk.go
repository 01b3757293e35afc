package report

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/units"
)

// diskText writes a disk report: a header naming the directory, its file
// system, the sync mode and the units; the write and read rate per block
// size; the fsync latency.
func diskText(w io.Writer, r *disk.Report, u bytesize.Units) error {
	ew := textWriter(w)
	ew.printf("gobench disk: %s (%s)\n", r.Dir, r.Filesystem)
	if note := memoryFSNote(r.Filesystem); note != "" {
		ew.printf("note: %s\n", note)
	}
	if len(r.Sequential) > 0 {
		direct := ""
		if r.Direct {
			direct = ", O_DIRECT"
		}
		ew.printf("sequential: %s per block size%s; writes: %s\n", u.Size(r.Size), direct, r.Sync.Describe())
		ew.printf("rates in %s\n\n", u.Header())
		tw := ew.aligned(tabwriter.AlignRight)
		tw.printf("block size\twrite %s\tread %s\t\n", u.RateUnit(), u.RateUnit())
		var notes []string
		for _, s := range r.Sequential {
			mark := ""
			if !s.CacheDropped {
				mark = "*"
				notes = append(notes, s.CacheNote)
			}
			tw.printf("%s\t%.1f\t%.1f%s\t\n", u.Size(s.BlockSize), u.PerSec(s.WriteBytesPerSec), u.PerSec(s.ReadBytesPerSec), mark)
		}
		tw.flush()
		if len(notes) > 0 {
			ew.printf("* %s\n", notes[0])
		}
	}
	if f := r.Fsync; f != nil {
		ew.printf("\n")
		ew.printf("fsync latency: %d writes of %s, each followed by fdatasync (the ceiling of durable commits)\n\n", f.Ops, u.Size(f.WriteSize))
		tw := ew.aligned(tabwriter.AlignRight)
		tw.printf("durable writes/s\tp50\tp99\tmax\t\n")
		tw.printf("%s\t%s\t%s\t%s\t\n", units.Rate(f.OpsPerSec), units.Micros(f.P50Micros), units.Micros(f.P99Micros), units.Micros(f.MaxMicros))
		tw.flush()
	}
	return ew.err
}

// memoryFSNote warns about file systems that keep files in memory, where
// no rate is a disk's.
func memoryFSNote(fs string) string {
	if fs == "tmpfs" || fs == "ramfs" {
		return fs + " keeps files in memory: fsync does nothing and no rate here is a disk's"
	}
	return ""
}

// diskMarkdown writes a disk report as markdown tables.
func diskMarkdown(w io.Writer, r *disk.Report, u bytesize.Units) error {
	ew := markdownWriter(w)
	ew.printf("**gobench disk** · %s (%s)\n\n", r.Dir, r.Filesystem)
	if note := memoryFSNote(r.Filesystem); note != "" {
		ew.printf("> **Note:** %s\n\n", note)
	}
	if len(r.Sequential) > 0 {
		direct := ""
		if r.Direct {
			direct = ", O_DIRECT"
		}
		ew.printf("Sequential, %s per block size%s; writes: %s. Rates in %s.\n\n", u.Size(r.Size), direct, r.Sync.Describe(), u.Header())
		ew.printf("| block size | write %s | read %s | page cache dropped before read |\n|--:|--:|--:|---|\n", u.RateUnit(), u.RateUnit())
		for _, s := range r.Sequential {
			dropped := "yes"
			if !s.CacheDropped {
				dropped = "no: " + s.CacheNote
			}
			ew.printf("| %s | %.1f | %.1f | %s |\n", u.Size(s.BlockSize), u.PerSec(s.WriteBytesPerSec), u.PerSec(s.ReadBytesPerSec), dropped)
		}
	}
	if f := r.Fsync; f != nil {
		if len(r.Sequential) > 0 {
			ew.printf("\n")
		}
		ew.printf("fsync latency: %d writes of %s, each followed by fdatasync.\n\n", f.Ops, u.Size(f.WriteSize))
		ew.printf("| durable writes/s | p50 | p99 | max |\n|--:|--:|--:|--:|\n")
		ew.printf("| %s | %s | %s | %s |\n", units.Rate(f.OpsPerSec), units.Micros(f.P50Micros), units.Micros(f.P99Micros), units.Micros(f.MaxMicros))
	}
	return ew.err
}

// diskCSV writes one row per block size, then the fsync probe as a row
// with test "fsync". Rates are in bytes per second whatever the units.
func diskCSV(w io.Writer, r *disk.Report, _ bytesize.Units) error {
	cw := newCSVWriter(w)
	_ = cw.Write([]string{"test", "filesystem", "sync", "direct", "block_size", "bytes", "write_bytes_per_sec", "read_bytes_per_sec", "cache_dropped",
		"ops", "ops_per_sec", "p50_us", "p99_us", "max_us"})
	direct := fmt.Sprint(r.Direct)
	for _, s := range r.Sequential {
		_ = cw.Write([]string{"sequential", r.Filesystem, string(r.Sync), direct, i64(s.BlockSize), i64(s.Bytes), f64(math.Round(s.WriteBytesPerSec)), f64(math.Round(s.ReadBytesPerSec)), fmt.Sprint(s.CacheDropped),
			"", "", "", "", ""})
	}
	if f := r.Fsync; f != nil {
		_ = cw.Write([]string{"fsync", r.Filesystem, "fdatasync", "false", i64(f.WriteSize), i64(int64(f.Ops) * f.WriteSize), "", "", "",
			fmt.Sprint(f.Ops), csvRate(f.OpsPerSec), csvSig3(f.P50Micros), csvSig3(f.P99Micros), csvSig3(f.MaxMicros)})
	}
	cw.Flush()
	return cw.Error()
}

// diskJSON writes a disk report as indented JSON; rates are in bytes per
// second whatever the units.
func diskJSON(w io.Writer, r *disk.Report, _ bytesize.Units) error { return writeJSON(w, r) }
