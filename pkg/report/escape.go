package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"
)

// Every string a report writes that came from outside gobench (a script's
// file name, a setting's value, an op kind, a problem, an example, any
// text of a result file someone crafted) is escaped for the format it is
// written in, at one point per format: the writer every renderer of the
// format writes through escapes the arguments of its printf (errWriter
// with its format's escaper, and textTable for aligned tables), and the
// CSV writer escapes every cell. Format strings are the renderers' own
// and are written as they are; so is a trusted argument, which a
// renderer built from parts it escaped itself.

// trusted is text a renderer made safe for its format: escaped parts
// joined with the format's own markup. Writers pass it as it is.
type trusted string

// escapeArgs returns args with every string, error and fmt.Stringer
// escaped by esc (a nil esc escapes nothing); numbers, booleans and
// trusted text are left as they are.
func escapeArgs(esc func(string) string, args []any) []any {
	if esc == nil {
		return args
	}
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case trusted:
			out[i] = string(v)
		case string:
			out[i] = esc(v)
		case error:
			out[i] = esc(v.Error())
		case fmt.Stringer:
			out[i] = esc(v.String())
		default:
			out[i] = a
		}
	}
	return out
}

// visible returns s with every control character (C0, DEL, C1 and the
// line and paragraph separators) and every byte that is not UTF-8 shown
// as Go's %q shows it (\x1b, \a, \x00, \r, \t, \n, \u2028), so that no
// terminal reads a command in it and no line or column is forged; keep
// lists characters left as they are. The rest is unchanged.
func visible(s string, keep string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return needsQuote(r) && !strings.ContainsRune(keep, r) })
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case needsQuote(r) && !strings.ContainsRune(keep, r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// needsQuote reports whether r is a control or separator character a
// terminal or a line-based reader would act on.
func needsQuote(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff' ||
		(r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') // bidirectional overrides
}

// textEscape escapes a string for text (a terminal, a log, a pipe):
// control characters shown as %q would (see visible).
func textEscape(s string) string { return visible(s, "") }

// Line escapes the text of one line for a terminal (a progress line's
// fields): control characters shown as %q would.
func Line(s string) string { return textEscape(s) }

// Message escapes a message for a terminal (an error, a note, a stack
// dump on stderr): control characters shown as %q would, but for line
// breaks and tabs, which lay its lines out and command no terminal.
func Message(s string) string { return visible(s, "\n\t") }

// mdSpecial are the characters that make markdown structure: cells
// (|), HTML (<, >), links and images ([, ]), code (`), and the escape
// character itself, which must be escaped first.
var mdSpecial = strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", `\<`, ">", `\>`, "[", `\[`, "]", `\]`, "`", "\\`")

// mdEscape escapes a string for GitHub-flavoured markdown, in a table
// cell or a paragraph: control characters shown as %q would (a line
// break would end a table row), then every markdown character escaped
// with a backslash.
func mdEscape(s string) string { return mdSpecial.Replace(textEscape(s)) }

// mdCode returns s as an inline code span: a fence of backticks longer
// than any run of them in s, control characters shown as %q would, and
// a pipe escaped (a table's cells split on it even in code).
func mdCode(s string) trusted {
	s = strings.ReplaceAll(textEscape(s), "|", `\|`)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return trusted(fence + s + fence)
}

// mdBlock returns lines as a fenced code block: a fence of backticks
// longer than any run of them in the lines, control characters in each
// line shown as %q would.
func mdBlock(lines []string) trusted {
	longest := 2
	for i, l := range lines {
		lines[i] = textEscape(l)
		run := 0
		for _, r := range lines[i] {
			if r == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	fence := strings.Repeat("`", longest+1)
	return trusted(fence + "\n" + strings.Join(lines, "\n") + "\n" + fence)
}

// csvFormula are the characters that make a spreadsheet read a cell as a
// formula (tab and CR, which it may skip before one, are escaped first).
const csvFormula = "=+-@"

// csvEscape escapes a CSV cell: control characters shown as %q would
// (a tab or CR, which a spreadsheet skips before a formula, among them),
// and a cell that a spreadsheet would read as a formula (one that begins
// with = + - or @ and is not a number) prefixed with an apostrophe,
// which spreadsheets take as "text".
func csvEscape(s string) string {
	s = textEscape(s)
	if s != "" && strings.ContainsRune(csvFormula, rune(s[0])) {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			s = "'" + s
		}
	}
	return s
}

// csvWriter is the CSV format's writer: encoding/csv's, every cell
// escaped (csvEscape).
type csvWriter struct{ *csv.Writer }

func newCSVWriter(w io.Writer) csvWriter { return csvWriter{csv.NewWriter(w)} }

// Write writes one record, every cell escaped.
func (c csvWriter) Write(record []string) error {
	out := make([]string, len(record))
	for i, f := range record {
		out[i] = csvEscape(f)
	}
	return c.Writer.Write(out)
}

// errWriter is a format's writer: it keeps the first write error, and
// its printf escapes every argument with the format's escaper (nil: none,
// for output that is not text).
type errWriter struct {
	w   io.Writer
	esc func(string) string
	err error
	// width, if above 0, is the widest line: its tables are split to fit
	// it (its lines of words are wrapped by the lineFitter it writes to).
	width int
}

// textWriter and markdownWriter are the writers of the text and
// markdown formats.
func textWriter(w io.Writer) *errWriter {
	e := &errWriter{w: w, esc: textEscape}
	if f, ok := w.(*lineFitter); ok {
		e.width = f.width
	}
	return e
}
func markdownWriter(w io.Writer) *errWriter { return &errWriter{w: w, esc: mdEscape} }

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) {
	fmt.Fprintf(e, format, escapeArgs(e.esc, args)...)
}

// textTable is an aligned table of a text format (tabwriter's, padded
// with spaces): rows written with printf, cells separated by tabs in
// the format string, every argument escaped as the writer escapes them.
// A table wider than its writer's width is split into tables stacked one
// above the other, each repeating the first keys columns, which name the
// rows.
type textTable struct {
	raw   bytes.Buffer
	flags uint
	keys  int
	// breaks, if set, are the columns a split may begin a table at (a
	// group of columns under one heading stays together); nil: any.
	breaks []int
	ew     *errWriter
}

// aligned starts an aligned table on e, with tabwriter's flags; its first
// column names its rows.
func (e *errWriter) aligned(flags uint) *textTable { return e.keyedTable(flags, 1) }

// keyedTable starts an aligned table whose first keys columns name its
// rows (a matrix cell's settings): each table of a split repeats them.
func (e *errWriter) keyedTable(flags uint, keys int) *textTable {
	return &textTable{flags: flags, keys: max(keys, 1), ew: e}
}

func (t *textTable) printf(format string, args ...any) {
	fmt.Fprintf(&t.raw, format, escapeArgs(t.ew.esc, args)...)
}

// textCells returns vals as cells of a text table, each escaped, joined
// by tabs.
func textCells(vals []string) trusted {
	esc := make([]string, len(vals))
	for i, v := range vals {
		esc[i] = textEscape(v)
	}
	return trusted(strings.Join(esc, "\t"))
}

// tablePadding is the space between a text table's columns.
const tablePadding = 2

// flush writes the table out, split to fit the writer's width; its
// error is the writer's.
func (t *textTable) flush() {
	text := strings.TrimSuffix(t.raw.String(), "\n")
	t.raw.Reset()
	if text == "" {
		return
	}
	var rows [][]string
	for _, line := range strings.Split(text, "\n") {
		rows = append(rows, strings.Split(line, "\t"))
	}
	for _, group := range columnGroups(rows, t.keys, t.breaks, t.ew.width) {
		tw := tabwriter.NewWriter(t.ew, 0, 0, tablePadding, ' ', t.flags)
		for _, row := range rows {
			var line strings.Builder
			for _, c := range group {
				if c >= len(row) {
					break
				}
				line.WriteString(row[c])
				// Cells end in a tab as they did in the whole table, so
				// a group's last column stays aligned.
				if c < len(row)-1 {
					line.WriteString("\t")
				}
			}
			fmt.Fprintln(tw, line.String())
		}
		if err := tw.Flush(); err != nil && t.ew.err == nil {
			t.ew.err = err
		}
	}
}

// columnGroups splits a table's columns (of rows, cells as tabwriter
// reads them: the text after a row's last tab belongs to no column) into
// groups that each fit width, every group led by the first keys
// columns, each beginning at one of breaks (nil: at any column); one
// group, of every column, when the table fits. Columns too wide to fit
// beside the keys are a group of their own, over width.
func columnGroups(rows [][]string, keys int, breaks []int, width int) [][]int {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	colWidth := make([]int, n)
	for _, r := range rows {
		for c, cell := range r {
			w := columns(cell)
			if c < len(r)-1 {
				w += tablePadding
			}
			colWidth[c] = max(colWidth[c], w)
		}
	}
	all := make([]int, n)
	total := 0
	for c := range all {
		all[c], total = c, total+colWidth[c]
	}
	keys = min(keys, n)
	if width <= 0 || total <= width || keys >= n {
		return [][]int{all}
	}
	keyWidth := 0
	for c := range keys {
		keyWidth += colWidth[c]
	}
	// Runs of columns that stay together: from one break to the next.
	var runs [][]int
	for c := keys; c < n; c++ {
		if len(runs) == 0 || breaks == nil || slices.Contains(breaks, c) {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], c)
	}
	var groups [][]int
	var cur []int
	w := keyWidth
	for _, run := range runs {
		rw := 0
		for _, c := range run {
			rw += colWidth[c]
		}
		if len(cur) > 0 && w+rw > width {
			groups = append(groups, append(append([]int(nil), all[:keys]...), cur...))
			cur, w = nil, keyWidth
		}
		cur, w = append(cur, run...), w+rw
	}
	return append(groups, append(append([]int(nil), all[:keys]...), cur...))
}

// benchEscape escapes a part of a Go benchmark format line (a name's
// part, a configuration key or value): control characters shown as %q
// would, so no line is forged, and in a name or key (not a value) the
// characters that would end it (spaces; a key's colon) replaced by _.
func benchEscape(s string, value bool) string {
	s = textEscape(s)
	if value {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// hlogTag escapes an interval log's tag: control characters shown as %q
// would, and the comma that ends a tag and spaces replaced by _.
func hlogTag(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == ',' {
			return '_'
		}
		return r
	}, textEscape(s))
}
