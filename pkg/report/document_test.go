package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
)

// A table block is written by each format from the same cells: text
// right-aligned under its head, markdown with its columns of numbers
// aligned right; each escapes what came from outside its own way.
func TestTableBlock(t *testing.T) {
	tb := &table{Head: []string{"op", "count", "errors"}, Num: []bool{false, true}, Rows: [][]string{{"re|ad", "12", "0"}, {"x\ty", "3", "1 (busy 1)"}}}
	for _, tt := range []struct {
		name  string
		write func(*bytes.Buffer)
		want  string
	}{
		{"text", func(b *bytes.Buffer) { tb.writeText(textWriter(b)) },
			"     op  count      errors\n  re|ad     12           0\n   x\\ty      3  1 (busy 1)\n"},
		{"markdown", func(b *bytes.Buffer) { tb.writeMarkdown(markdownWriter(b)) },
			"| op | count | errors |\n|---|--:|---|\n| re\\|ad | 12 | 0 |\n| x\\\\ty | 3 | 1 (busy 1) |\n"},
	} {
		var b bytes.Buffer
		tt.write(&b)
		if b.String() != tt.want {
			t.Errorf("%s:\n%q\nwant\n%q", tt.name, b.String(), tt.want)
		}
	}

	// A run's op table is one block: the rows text lists are the rows of
	// opTable, cell for cell, whatever the statistics.
	r := loadFixture(t, "mix-wal.json")
	stats, err := judge.LatencyStats([]string{"p50", "p99.99"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	phaseTable(textWriter(&b), r.Phases[0], stats)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	block := opTable(append(r.Phases[0].Ops, r.Phases[0].Total), stats, errorText)
	if len(lines) != 1+len(block.Rows) || strings.Join(strings.Fields(lines[0]), " ") != "op count ops/s p50 p99.99 errors" {
		t.Fatalf("text table:\n%s", b.String())
	}
	for i, row := range block.Rows {
		if got := strings.Join(strings.Fields(lines[i+1]), " "); got != strings.Join(row, " ") {
			t.Errorf("row %d: %q, the block's %q", i, got, row)
		}
	}
}
