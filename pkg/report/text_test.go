package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/result"
)

// loadFixture reads a result recorded on a real run, shared with other
// packages' tests in the repository's testdata/.
func loadFixture(t *testing.T, name string) *result.Result {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := result.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTextGolden(t *testing.T) {
	for _, name := range []string{"mix-wal", "mix-rollback"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Text(&buf, loadFixture(t, name+".json")); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, name+".txt", buf.Bytes())
		})
	}
}

func TestTextIncomplete(t *testing.T) {
	r := loadFixture(t, "mix-wal.json")
	r.Complete = false
	r.Problems = []string{"interrupted"}
	var buf bytes.Buffer
	if err := Text(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "INCOMPLETE RESULT: interrupted\n") {
		t.Fatalf("incomplete result not flagged first:\n%s", buf.String())
	}
}

func TestMicros(t *testing.T) {
	for _, tt := range []struct {
		us   float64
		want string
	}{
		{0, "0"}, {0.25, "250ns"}, {1.234, "1.23µs"}, {12.34, "12.3µs"}, {123.4, "123µs"},
		{1234, "1.23ms"}, {45678, "45.7ms"}, {1.5e6, "1.50s"}, {3.6e9, "3600s"},
	} {
		if got := Micros(tt.us); got != tt.want {
			t.Errorf("Micros(%v) = %q, want %q", tt.us, got, tt.want)
		}
	}
	for _, tt := range []struct {
		r    float64
		want string
	}{{0, "0"}, {12.345, "12.3"}, {123.4, "123"}, {56789.1, "56789"}} {
		if got := Rate(tt.r); got != tt.want {
			t.Errorf("Rate(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("yaml"); err == nil || !strings.Contains(err.Error(), "benchfmt, csv, html, json, markdown, text") {
		t.Fatalf("Lookup(yaml) = %v", err)
	}
	r := loadFixture(t, "mix-wal.json")
	var buf bytes.Buffer
	if err := JSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := result.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Phases[0].Total.Count != r.Phases[0].Total.Count {
		t.Fatal("JSON round trip changed the counts")
	}
}

// The CRUD scaling table of a recorded run: five engines at two sizes.
func TestCRUDGolden(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "crud.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := result.ReadSuite(f)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := SummarizeCRUD(s, "mattn")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		render func(io.Writer, *CRUDTable) error
	}{{"crud.txt", CRUDText}, {"crud.md", CRUDMarkdown}, {"crud.csv", CRUDCSV}} {
		var buf bytes.Buffer
		if err := tt.render(&buf, tab); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tt.name, buf.Bytes())
	}
	// Engines without key order skip the scan; the others report it.
	for _, r := range tab.Rows {
		scan := r.Groups[3]
		if want := r.Driver != "map" && r.Driver != "files"; scan.Present != want {
			t.Errorf("%s: scan present = %v, want %v", r.Driver, scan.Present, want)
		}
	}
	if _, err := SummarizeCRUD(s, "oracle"); err == nil {
		t.Error("a baseline that did not run was accepted")
	}
}
