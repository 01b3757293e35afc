package report

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/result"
)

func loadCapacityFixture(t *testing.T) *result.Capacity {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "capacity.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := result.ReadCapacity(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A recorded search (rollback and WAL, upsert p99 <= 20ms) in every
// format that renders one; the HTML has its chart, a point per step,
// confirmations included, and its limit labelled.
func TestCapacityGoldens(t *testing.T) {
	c := loadCapacityFixture(t)
	for _, tt := range []struct{ golden, format string }{
		{"capacity.txt", "text"}, {"capacity.md", "markdown"}, {"capacity.csv", "csv"},
	} {
		render, err := Render(tt.format, c, Options{Width: TextWidth}) // text as on a terminal
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tt.golden, buf.Bytes())
	}
	render, err := Render("html", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		t.Fatal(err)
	}
	points, confirmations := 0, 0
	for _, cv := range c.Cells {
		for _, st := range cv.Steps {
			points++
			if st.Confirmation {
				confirmations++
			}
		}
	}
	if want := `id="capacity-curve" data-points="` + strconv.Itoa(points) + `"`; confirmations == 0 || !strings.Contains(buf.String(), want) {
		t.Errorf("the HTML has no chart with %d points (%d confirmations)", points, confirmations)
	}
	for _, want := range []string{html.EscapeString("limit: " + c.Objectives[0]), "confirmations"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the chart does not show %q", want)
		}
	}
	if _, err := Render("benchfmt", c, Options{}); err == nil {
		t.Error("benchfmt rendered a capacity search")
	}
}

// The disk's fsync rate before and after a search is reported, with a
// warning when it fell by a third or more.
func TestCapacityDiskDrift(t *testing.T) {
	c := loadCapacityFixture(t)
	c.Cells[0].DiskBefore = &result.Ceiling{Filesystem: "ext4", FsyncPerSec: 9000, P99Micros: 400}
	c.Cells[0].DiskAfter = &result.Ceiling{Filesystem: "ext4", FsyncPerSec: 8500, P99Micros: 450}
	c.Cells[1].DiskBefore = &result.Ceiling{Filesystem: "ext4", FsyncPerSec: 9000, P99Micros: 400}
	c.Cells[1].DiskAfter = &result.Ceiling{Filesystem: "ext4", FsyncPerSec: 4000, P99Micros: 2000}
	var buf bytes.Buffer
	if err := capacityText(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "disk (ext4): 9000 fsync/s before the search (p99 400µs), 8500 after (p99 450µs)\n") {
		t.Errorf("no steady disk line:\n%s", out)
	}
	if strings.Count(out, "WARNING, the disk slowed during the search") != 1 {
		t.Errorf("want one warning, for the cell whose disk slowed:\n%s", out)
	}
}

// --baseline picks the cell factors compare with, by its varied settings
// (the cells carry all of theirs).
func TestCapacityBaseline(t *testing.T) {
	c := loadCapacityFixture(t)
	c.Baseline = result.Settings{{Name: "journal", Value: "wal"}}
	var buf bytes.Buffer
	if err := capacityText(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"journal=rollback vs journal=wal: sustains ×0.21 the rate", " baseline "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if got := c.Cells[1].Settings.Only(c.Varied).String(); got != "journal=wal" {
		t.Errorf("the WAL cell's varied settings: %q", got)
	}
}

// A step's summary, as the search's notes print it.
func TestStepSummary(t *testing.T) {
	c := loadCapacityFixture(t)
	steps := c.Cells[0].Steps
	for i, want := range map[int]string{
		0: "1274 ops/s offered, 1274 achieved: met (upsert p99 ",
		2: "5097 ops/s offered, 5097 achieved: NOT met (upsert p99 23.5ms)",
		7: "confirming 4881 ops/s offered, 4880 achieved: met (upsert p99 ",
	} {
		if got := StepSummary(steps[i]); !strings.HasPrefix(got, want) {
			t.Errorf("step %d: %q, want it to begin %q", i+1, got, want)
		}
	}
}
