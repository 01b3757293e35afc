package report

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
)

func loadBlobTable(t *testing.T) *blobReport {
	t.Helper()
	tab, err := summarizeBlob(loadSuiteFixture(t, "blob.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// The blob comparison of a recorded run: 300 blobs on db, flat and tree.
func TestBlobGolden(t *testing.T) {
	tab := loadBlobTable(t)
	for _, tt := range []struct {
		name   string
		render func(io.Writer, *blobReport, bytesize.Units) error
		si     bool
	}{{"blob.txt", blobText, false}, {"blob-si.txt", blobText, true}, {"blob.md", blobMarkdown, false}, {"blob.csv", blobCSV, false}} {
		var buf bytes.Buffer
		render := func(w io.Writer) error { return tt.render(w, tab, bytesize.Units{SI: tt.si}) }
		if strings.HasSuffix(tt.name, ".txt") {
			render = fitted(render, TextWidth) // as Render does for a terminal
		}
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tt.name, buf.Bytes())
	}
}

// Rates come from the exact bytes of the blobs visited: for a pass over
// every blob, the sum of all blob sizes over the pass's wall time.
func TestBlobRates(t *testing.T) {
	tab := loadBlobTable(t)
	if got := len(tab.Rows); got != 3 || tab.Rows[0].Target != "db" || tab.Rows[1].Target != "flat" || tab.Rows[2].Target != "tree" {
		t.Fatalf("rows: %+v", tab.Rows)
	}
	for ci, c := range tab.Suite.Cells {
		r := c.Runs[0]
		var all int64
		for k := range r.Plan.Keys.Count {
			all += int64(r.Plan.ValueSizeOf(k))
		}
		for i, name := range blobPassNames {
			p := tab.Rows[ci].Passes[i]
			ph := r.Phases[i]
			if ph.Name != name || !p.Present || p.Blobs != int64(r.Plan.Keys.Count) {
				t.Fatalf("%s %s: %+v", tab.Rows[ci].Target, name, p)
			}
			if want := float64(all) / ph.WallSeconds; p.BytesPerSec != want {
				t.Errorf("%s %s: %v bytes/s, want %v", tab.Rows[ci].Target, name, p.BytesPerSec, want)
			}
		}
		if tab.Rows[ci].Size == nil || tab.Rows[ci].Size.AllocatedBytes < all {
			t.Errorf("%s: size %+v smaller than its %d bytes of blobs", tab.Rows[ci].Target, tab.Rows[ci].Size, all)
		}
	}
}

// A factor names the side it favours.
func TestBlobFactor(t *testing.T) {
	row := func(target string, read float64, alloc int64) *blobRow {
		return &blobRow{Target: target, Passes: []blobPassStats{{Present: true, BytesPerSec: read}, {}}, Size: &result.DiskSize{AllocatedBytes: alloc}}
	}
	db := row("db", 300, 80)
	for _, tt := range []struct {
		other         *blobRow
		measure, want string
	}{
		{row("flat", 100, 100), "read", "db 3.00× faster"},
		{row("flat", 600, 100), "read", "flat 2.00× faster"},
		{row("tree", 100, 100), "space", "db 20.0% smaller"},
		{row("tree", 100, 40), "space", "db 100% larger"},
		{row("tree", 100, 40), "update", "–"},
	} {
		if got := blobFactor(db, tt.other, tt.measure); got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.other.Target, tt.measure, got, tt.want)
		}
	}
}
