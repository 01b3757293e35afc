package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
)

// payload is what a crafted result or a hostile file name puts in every
// string: markdown cells, raw HTML, a javascript: link and an image,
// code, a spreadsheet formula, and terminal commands (set the window
// title, clear the screen, ring the bell), a NUL, a carriage return and
// a tab, a line break, and a byte that is not UTF-8.
const payload = "=HYPERLINK(\"http://x\")|injected|cells<img src=x onerror=alert(1)>[a](javascript:alert(1))![i](x)`code`+1-2@3" +
	"\x1b]0;pwned\a\x1b[2J\x07\x00\r\t\nfake line\xff\u202e"

// hostile returns v with every string it holds, in every struct field,
// slice element and map value it can set, prefixed with payload (map
// keys, which name things, are left).
func hostile[T any](t *testing.T, v *T) *T {
	t.Helper()
	n := 0
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() && !strings.Contains(f.Name, "Hist") { // encoded histograms
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(v.MapIndex(k))
				walk(e)
				v.SetMapIndex(k, e)
			}
		case reflect.String:
			if v.CanSet() {
				v.SetString(payload + v.String())
				n++
			}
		}
	}
	walk(reflect.ValueOf(v))
	if n == 0 {
		t.Fatalf("no string in %T", v)
	}
	return v
}

// Every format renders a result, a suite, a comparison, a capacity search
// and a disk report whose every string holds the payload with no
// markdown structure broken (no cell added, no HTML, link or image), no
// CSV cell a spreadsheet reads as a formula, and no control character
// (but the line breaks of the format's own lines) anywhere; and the
// payload is there, shown. Every result file of the repository's
// testdata is among them (a sql run's scripts and statements, a ycsb
// run, a suite of one cell, a crash run), each in every format.
func TestHostileStrings(t *testing.T) {
	run := hostile(t, loadFixture(t, "mix-fidelity.json"))
	run.Complete, run.Problems = false, []string{payload}
	matrix := hostile(t, loadSuiteFixture(t, "crash-matrix.json"))
	cmp, err := judge.Compare(payload, matrix, payload+"new", matrix, judge.DefaultMetrics(matrix), judge.CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	cmp.Warnings = append(cmp.Warnings, payload)
	capacity := hostile(t, loadCapacityFixture(t))
	d := diskReport()
	d.Dir, d.Filesystem = payload, payload
	d.Sequential[2].CacheNote = payload
	kinds := []struct {
		name string
		v    any
	}{
		{"run", run}, {"suite", matrix}, {"comparison", cmp}, {"capacity", capacity}, {"disk", d},
		{"crud", hostile(t, loadSuiteFixture(t, "crud.json"))}, {"blob", hostile(t, loadSuiteFixture(t, "blob.json"))},
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no result files in testdata (%v)", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		var v any
		switch f := hostileFixture(t, file).(type) {
		case *result.Result:
			v = hostile(t, f)
		case *result.Suite:
			v = hostile(t, f)
		case *result.Capacity:
			v = hostile(t, f)
		default:
			t.Fatalf("%s: a %T", name, f)
		}
		kinds = append(kinds, struct {
			name string
			v    any
		}{name, v})
	}
	for _, format := range Formats() {
		for _, k := range kinds {
			render, err := Render(format, k.v, Options{Units: bytesize.Units{}})
			if err != nil {
				continue // the format does not render this kind
			}
			t.Run(format+"/"+k.name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := render(&buf); err != nil {
					t.Fatal(err)
				}
				out := buf.String()
				noControl(t, out, format != "json") // JSON keeps the text whole, control bytes escaped
				switch format {
				case "markdown":
					checkMarkdown(t, out)
				case "csv":
					checkCSV(t, out)
				case "json", "html":
					return // their own encoders escape: JSON's, html/template's
				}
				if !strings.Contains(out, "injected") {
					t.Errorf("the payload is not in the output:\n%s", out)
				}
			})
		}
	}
}

// hostileFixture reads a result file of testdata, whatever it holds (a
// run, a suite, a capacity search), with its engines' options named.
func hostileFixture(t *testing.T, path string) any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := result.ReadAny(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	switch x := v.(type) {
	case *result.Result:
		x.Name(all.Registry())
	case *result.Suite:
		if v, err = x.Named(all.Registry()); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return v
}

// noControl fails on a control character other than a line break (with
// shown, on a bidirectional override too), and on bytes that are not
// UTF-8.
func noControl(t *testing.T, out string, shown bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("output is not UTF-8")
	}
	for i, r := range out {
		if r != '\n' && (unicode.IsControl(r) || shown && needsQuote(r)) {
			t.Errorf("control character %q at byte %d: %q", r, i, out[max(0, i-40):min(len(out), i+40)])
			return
		}
	}
}

// delimiterRow is a markdown table's row of delimiters, under its header.
var delimiterRow = regexp.MustCompile(`^\|( *:?-+:? *\|)+$`)

// unescapedPipe is a pipe that no backslash escapes: a cell separator.
var unescapedPipe = regexp.MustCompile(`(^|[^\\])(\\\\)*\|`)

// checkMarkdown fails when the markdown has raw HTML, a link, an image
// or an autolink, or a table row with more or fewer cells than its
// header (GitHub drops the extra ones, so an injected cell shows as a
// lost one).
func checkMarkdown(t *testing.T, out string) {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	src := []byte(out)
	doc := md.Parser().Parse(text.NewReader(src))
	var shown strings.Builder
	tableRows := 0 // rows goldmark read as a table's, header rows included
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case east.KindTableHeader, east.KindTableRow:
			tableRows++
		case ast.KindRawHTML, ast.KindHTMLBlock, ast.KindLink, ast.KindImage, ast.KindAutoLink:
			return ast.WalkStop, fmt.Errorf("a %s node", n.Kind())
		case ast.KindText:
			shown.Write(n.(*ast.Text).Segment.Value(src))
		case ast.KindString:
			shown.Write(n.(*ast.String).Value)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Errorf("%v in:\n%s", err, out)
	}
	cells, rows := -1, 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		if !delimiterRow.MatchString(line) {
			rows++
		}
		n := len(unescapedPipe.FindAllString(line, -1))
		if cells < 0 {
			cells = n
		} else if n != cells {
			t.Errorf("a row of %d cell separators in a table of %d: %s", n, cells, line)
		}
	}
	if tableRows != rows {
		t.Errorf("%d rows of tables written, %d read as a table's (a header and a delimiter row that disagree make no table)", rows, tableRows)
	}
	if !strings.Contains(shown.String(), "<img src=x") {
		t.Errorf("the payload is not shown as text")
	}
}

// checkCSV fails when a record has another number of fields than the
// header, or a field that a spreadsheet would read as a formula.
func checkCSV(t *testing.T, out string) {
	t.Helper()
	r := csv.NewReader(strings.NewReader(out))
	r.FieldsPerRecord = 0 // every record as many as the first
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rec {
			if f == "" || !strings.ContainsRune("=+-@\t\r", rune(f[0])) {
				continue
			}
			if _, err := strconv.ParseFloat(f, 64); err != nil {
				t.Errorf("a formula cell: %q", f)
			}
		}
	}
}

// Each escaper: what it leaves, what it shows.
func TestEscapers(t *testing.T) {
	for _, tt := range []struct {
		name, got, want string
	}{
		{"text", textEscape("a\x1b[2Jb\a\x00\r\t\n\xff\u202ez ok é"), `a\x1b[2Jb\a\x00\r\t\n\xff\u202ez ok é`},
		{"message keeps line breaks and tabs", Message("line one\n\tline\x1b two\r"), "line one\n\tline\\x1b two\\r"},
		{"markdown", mdEscape("a|b<c>[d](e)`f`\\|"), "a\\|b\\<c\\>\\[d\\](e)\\`f\\`\\\\\\|"},
		{"code span", string(mdCode("x`y|z")), "``x`y\\|z``"},
		{"code span at a backtick", string(mdCode("`x")), "`` `x ``"},
		{"csv formula", csvEscape("=1+2"), "'=1+2"},
		{"csv number", csvEscape("-1.5"), "-1.5"},
		{"csv tab formula", csvEscape("\t=cmd"), `\t=cmd`},
		{"csv at", csvEscape("@SUM(A1)"), "'@SUM(A1)"},
		{"bench name", benchEscape("a b:c\nd", false), `a_b_c\nd`},
		{"hlog tag", hlogTag("a b,c"), "a_b_c"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if strings.IndexFunc(textEscape(payload), func(r rune) bool { return unicode.IsControl(r) }) >= 0 {
		t.Error("textEscape left a control character")
	}
}
