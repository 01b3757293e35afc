package cli

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/report"
)

// Every command's --format help lists exactly the formats that render
// what it writes (pkg/report declares them), so a new format shows up in
// every command that can use it, and none lists one it cannot render.
func TestFormatHelpListsRenderers(t *testing.T) {
	env := &Env{}
	listed := regexp.MustCompile(`^[^:]*: ([a-z]+(?:, [a-z]+)*)`)
	checked := 0
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		f := c.Flags().Lookup("format")
		if f == nil {
			return
		}
		m := listed.FindStringSubmatch(f.Usage)
		if m == nil {
			t.Errorf("%s --format: usage %q lists no formats", c.CommandPath(), f.Usage)
			return
		}
		got := strings.Split(m[1], ", ")
		want := report.FormatsFor(formatsOf[c.Annotations[rendersKind]])
		if !slices.Equal(got, want) {
			t.Errorf("%s --format lists %v, want the formats that render its output: %v", c.CommandPath(), got, want)
		}
		checked++
	}
	walk(newRootCommand(env))
	if checked < 5 {
		t.Fatalf("checked %d commands' --format, want every command that has one (report, compare, ab, disk, the run commands)", checked)
	}
}

// An output file's extension names its format, as pkg/report declares.
func TestFormatOfPath(t *testing.T) {
	for path, want := range map[string]string{"r.html": "html", "R.HTM": "html", "s.md": "markdown", "x.markdown": "markdown", "a.json": "json", "b.csv": "csv", "c.txt": "text", "d.out": "text"} {
		if got := formatOf(path, "text"); got != want {
			t.Errorf("formatOf(%q) = %s, want %s", path, got, want)
		}
	}
}
