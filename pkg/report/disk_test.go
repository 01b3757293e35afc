package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
)

// A fixed report: 100 MiB/s writes and 200 MiB/s reads at every block
// size, one read that came from the page cache.
func diskReport() *disk.Report {
	const mib = 1 << 20
	return &disk.Report{
		Dir: "/tmp/gobench-disk-1", Filesystem: "ext4", Size: 256 * mib, Sync: disk.SyncFsyncEnd,
		Sequential: []disk.Sequential{
			{BlockSize: 4096, Bytes: 256 * mib, WriteBytesPerSec: 100 * mib, ReadBytesPerSec: 200 * mib, CacheDropped: true},
			{BlockSize: 100 * 1024, Bytes: 2684 * 100 * 1024, WriteBytesPerSec: 100 * mib, ReadBytesPerSec: 200 * mib, CacheDropped: true},
			{BlockSize: mib, Bytes: 256 * mib, WriteBytesPerSec: 100 * mib, ReadBytesPerSec: 200 * mib, CacheNote: "the page cache could not be dropped (no fadvise): reads may come from memory"},
		},
		Fsync: &disk.FsyncLatency{Ops: 1000, WriteSize: 4096, OpsPerSec: 1250, P50Micros: 780, P99Micros: 1900, MaxMicros: 4100},
	}
}

func TestDiskFormats(t *testing.T) {
	for _, tt := range []struct {
		name, format string
		si           bool
	}{
		{"disk.txt", "text", false}, {"disk-si.txt", "text", true}, {"disk.md", "markdown", false}, {"disk.csv", "csv", false},
	} {
		render, err := Render(tt.format, diskReport(), Options{Units: bytesize.Units{SI: tt.si}, Width: TextWidth}) // text as on a terminal
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tt.name, buf.Bytes())
	}
	if _, err := Render("benchfmt", diskReport(), Options{}); err == nil || !strings.Contains(err.Error(), `unknown format "benchfmt" for a disk report (want one of csv, json, markdown, text)`) {
		t.Errorf("benchfmt for a disk report: %v", err)
	}
}

func TestDiskJSONRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := diskJSON(&buf, diskReport(), bytesize.Units{SI: true}); err != nil {
		t.Fatal(err)
	}
	var back disk.Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	want := diskReport()
	if back.Sequential[2].ReadBytesPerSec != want.Sequential[2].ReadBytesPerSec || *back.Fsync != *want.Fsync || back.Sync != want.Sync {
		t.Errorf("round trip: %+v", back)
	}
}
