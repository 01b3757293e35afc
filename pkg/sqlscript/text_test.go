package sqlscript

import (
	"errors"
	"strings"
	"testing"
)

// A script is text: a NUL byte is refused wherever it is, with its line
// and column, before any driver could see it.
func TestParseRefusesNUL(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want string
	}{
		{"SELECT 1;\x00SELECT 2;", "s.sql:1: a NUL byte at column 10"},
		{"SELECT 1;\n\nSELECT\x00 2;", "s.sql:3: a NUL byte at column 7"},
		{"SELECT 1;\n\\set a 1\x00\n", "s.sql:2: a NUL byte at column 9"},
		{"SELECT 'a\x00b';", "s.sql:1: a NUL byte at column 10"},
		{"SELECT 1; -- \x00 in a comment", "s.sql:1: a NUL byte at column 14"},
		{"\x00", "s.sql:1: a NUL byte at column 1"},
	} {
		_, err := Parse("s.sql", tt.src, 1)
		var se *Error
		if err == nil || !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an *Error beginning %q", tt.src, err, tt.want)
		}
	}
}

// parsed is what a script parsed to, comparable across encodings: each
// command's line and, for SQL, its text (without CRs) and parameters.
func parsed(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		switch {
		case c.Set != nil:
			out = append(out, itoa(c.Line)+` \set `+c.Set.Name)
		default:
			out = append(out, itoa(c.Line)+" "+strings.ReplaceAll(c.SQL.Text, "\r", "")+" "+strings.Join(c.SQL.Params, ","))
		}
	}
	return out
}

// Line ends in CRLF and a byte order mark change nothing: the same
// commands on the same lines.
func TestParseEncodings(t *testing.T) {
	want, err := Parse("u.sql", userScript, 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"crlf":     strings.ReplaceAll(userScript, "\n", "\r\n"),
		"bom":      byteOrderMark + userScript,
		"bom+crlf": byteOrderMark + strings.ReplaceAll(userScript, "\n", "\r\n"),
	} {
		got, err := Parse("u.sql", src, 1)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if g, w := strings.Join(parsed(got), "\n"), strings.Join(parsed(want), "\n"); g != w {
			t.Errorf("%s: parsed to\n%s\nwant\n%s", name, g, w)
		}
	}
	// A byte order mark anywhere else is text, which SQLite will refuse.
	s, err := Parse("u.sql", "SELECT 1;\n"+byteOrderMark+"SELECT 2;", 1)
	if err != nil || !strings.HasPrefix(s.Commands[1].SQL.Text, byteOrderMark) {
		t.Errorf("a mark inside the script: %v, %v", s, err)
	}
}

// Messages stay one short line whatever the script holds: a long line, a
// name that is not UTF-8.
func TestParseMessagesBounded(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, src := range []string{
		`\set a ` + long + "\nSELECT 1;",
		`\set a 1 + (` + long + "\nSELECT 1;",
		`\set a 1 ` + long + "\nSELECT 1;",
		`\set a ` + strings.Repeat("1", 100) + "\nSELECT 1;",
		`\` + long + "\nSELECT 1;",
		"SELECT :" + long + ";",
		"\\set a 1 + :b\xff\nSELECT 1;",
		"\\\xff\xfe\nSELECT 1;",
	} {
		_, err := Parse("s.sql", src, 1)
		if err == nil {
			t.Errorf("Parse(%.30q…) accepted", src)
			continue
		}
		if msg := err.Error(); len(msg) > maxMessage || strings.ContainsAny(msg, "\n\r") {
			t.Errorf("Parse(%.30q…): a message of %d bytes: %.200q", src, len(msg), msg)
		}
	}
}

// maxMessage bounds a parse error's length (the longest names every
// function).
const maxMessage = 512

// FuzzParseText feeds Parse scripts as editors and mistakes make them:
// line ends in LF, CRLF or a lone CR, a byte order mark, a NUL byte
// anywhere, invalid UTF-8 and long lines (a fragment repeated). No input
// makes it panic; an error is one bounded line with a line number inside
// the script; a NUL byte is always refused, on its own line, and never
// reaches a statement; CRLF and a mark parse as LF without one does.
func FuzzParseText(f *testing.F) {
	f.Add(userScript, uint8(0), false, int16(-1), "", uint16(0))
	f.Add(userScript, uint8(1), true, int16(-1), "", uint16(0))
	f.Add("\\set a random(1, 10)\nSELECT :a;\n", uint8(2), false, int16(5), "", uint16(0))
	f.Add("SELECT 1;\n", uint8(1), true, int16(-1), "SELECT 'x\xff';\n", uint16(300))
	f.Add("\\set a 1 +", uint8(0), false, int16(-1), "1 + ", uint16(1000))
	f.Add("SELECT '", uint8(0), false, int16(-1), "ab\r\n", uint16(50))
	f.Fuzz(func(t *testing.T, src string, eol uint8, bom bool, nulAt int16, frag string, times uint16) {
		if len(frag)*int(times%2048) > 1<<20 {
			t.Skip()
		}
		body := src + strings.Repeat(frag, int(times%2048))
		ends := []string{"\n", "\r\n", "\r"}
		text := strings.ReplaceAll(body, "\n", ends[eol%3])
		if bom {
			text = byteOrderMark + text
		}
		if nulAt >= 0 {
			at := int(nulAt) % (len(text) + 1)
			text = text[:at] + "\x00" + text[at:]
		}
		s, err := Parse("f.sql", text, 1)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Line < 1 || se.Line > 1+strings.Count(text, "\n") {
				t.Fatalf("error without a line in the script: %v", err)
			}
			if msg := err.Error(); len(msg) > maxMessage || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("a message of %d bytes, or of more than one line: %.200q", len(msg), msg)
			}
		}
		if i := strings.IndexByte(text, 0); i >= 0 {
			var se *Error
			if !errors.As(err, &se) || !strings.Contains(se.Msg, "NUL byte") || se.Line != 1+strings.Count(text[:i], "\n") {
				t.Fatalf("a NUL byte at %d of %q: %v", i, text, err)
			}
			return
		}
		if err == nil {
			for _, c := range s.Commands {
				if c.SQL != nil && strings.HasPrefix(c.SQL.Text, byteOrderMark) && c.Line == 1 {
					t.Fatalf("the byte order mark reached a statement: %q", c.SQL.Text)
				}
			}
		}
		if strings.ContainsRune(body, '\r') || strings.HasPrefix(body, byteOrderMark) || eol%3 == 2 {
			return
		}
		// CRLF and a mark parse as LF without one does.
		plain, perr := Parse("f.sql", body, 1)
		if (perr == nil) != (err == nil) {
			t.Fatalf("%q: %v; as LF without a mark: %v", text, err, perr)
		}
		if err != nil {
			var a, b *Error
			errors.As(err, &a)
			errors.As(perr, &b)
			if a.Line != b.Line {
				t.Fatalf("%q: an error on line %d; as LF without a mark, on line %d", text, a.Line, b.Line)
			}
			return
		}
		if g, w := strings.Join(parsed(s), "\n"), strings.Join(parsed(plain), "\n"); g != w {
			t.Fatalf("%q parsed to\n%s\nas LF without a mark:\n%s", text, g, w)
		}
	})
}
