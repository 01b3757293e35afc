package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
)

// Java's Double.toString, as YCSB prints its doubles.
func TestJavaDouble(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {1, "1.0"}, {512.63, "512.63"}, {665.33599467731, "665.33599467731"},
		{1e7, "1.0E7"}, {12345678.9, "1.23456789E7"}, {0.001, "0.001"}, {0.0001234, "1.234E-4"}, {-2.5, "-2.5"},
	} {
		if got := javaDouble(tt.f); got != tt.want {
			t.Errorf("javaDouble(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

// A YCSB run (workload F: READ and READ-MODIFY-WRITE), a mix run (any
// preset's result reads in YCSB's lines) and a matrix, in YCSB's summary
// format: every line one that YCSB's own parsers read.
func TestYCSBFormat(t *testing.T) {
	line := regexp.MustCompile(`^(\[[A-Z-]+\], [A-Za-z0-9()/=_.-]+, -?[0-9.E-]+|# .+|Command line: gobench .+)$`)
	for _, tt := range []struct {
		golden string
		v      any
	}{
		{"ycsb-f.ycsb", loadFixture(t, "ycsb-f.json")},
		{"mix-wal.ycsb", loadFixture(t, "mix-wal.json")},
		{"matrix.ycsb", loadSuiteFixture(t, "matrix.json")},
	} {
		render, err := Render("ycsb", tt.v, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			if !line.MatchString(l) {
				t.Errorf("%s: %q is not a line of YCSB's summary", tt.golden, l)
			}
		}
		golden.Check(t, tt.golden, buf.Bytes())
	}
}

// Ops that found nothing and ops that failed are YCSB's Return=NOT_FOUND
// and Return=ERROR; the ops that did neither, Return=OK.
func TestYCSBReturns(t *testing.T) {
	r := loadFixture(t, "ycsb-f.json")
	o := &r.Phases[0].Ops[0]
	o.NotFound, o.Errors.Total, o.Errors.Busy = 3, 2, 2
	var buf bytes.Buffer
	if err := runYCSB(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[READ], Operations, 200\n", "[READ], Return=OK, 195\n", "[READ], Return=NOT_FOUND, 3\n", "[READ], Return=ERROR, 2\n", "[READ-MODIFY-WRITE], Return=OK, 200\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("no line %q in:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), "[READ-MODIFY-WRITE], Return=ERROR") {
		t.Error("an op kind without errors has a Return=ERROR line")
	}
}
