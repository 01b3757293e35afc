package report

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// TextWidth is a terminal's classic width, in columns (a character
// takes one): the Options.Width of a terminal that does not say its own.
// A text report fitted to a width splits a table wider than it into
// tables stacked one above the other, each repeating the columns that
// name its rows, and wraps a line of words wider than it, its
// continuation indented two columns deeper.
const TextWidth = 80

// fitted returns render writing through a lineFitter, lines wrapped to
// width, and its tables split to fit it.
func fitted(render func(io.Writer) error, width int) func(io.Writer) error {
	return func(w io.Writer) error {
		f := &lineFitter{w: w, width: width}
		err := render(f)
		if ferr := f.flush(); err == nil {
			err = ferr
		}
		return err
	}
}

// lineFitter wraps each line wider than width as it passes (wrapLine):
// it holds a line until its end, so a line written in pieces is wrapped
// whole.
type lineFitter struct {
	w     io.Writer
	width int
	line  []byte
}

func (f *lineFitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.line = append(f.line, p...)
			break
		}
		f.line = append(f.line, p[:i+1]...)
		p = p[i+1:]
		if err := f.flush(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// flush writes the line held, wrapped.
func (f *lineFitter) flush() error {
	if len(f.line) == 0 {
		return nil
	}
	s := string(f.line)
	f.line = f.line[:0]
	if nl := strings.HasSuffix(s, "\n"); nl {
		s = strings.Join(wrapLine(strings.TrimSuffix(s, "\n"), f.width), "\n") + "\n"
	} else {
		s = strings.Join(wrapLine(s, f.width), "\n")
	}
	_, err := io.WriteString(f.w, s)
	return err
}

// wrapLine wraps a line of words wider than width: between the parts
// a " · " separates (the separator's dot ending the line), and within a
// part still too wide between words; continuations are indented two
// columns deeper than the line. A word wider than the room is left
// whole.
func wrapLine(line string, width int) []string {
	if width <= 0 || columns(strings.TrimRight(line, " ")) <= width {
		return []string{line}
	}
	body := strings.TrimLeft(line, " ")
	indent := line[:len(line)-len(body)]
	cont := indent + "  "
	parts := strings.Split(body, " · ")
	var out []string
	cur, fresh := indent, true // fresh: cur holds only its indent
	for i, part := range parts {
		piece := part
		if i < len(parts)-1 {
			piece += " ·" // ends the line, if the next part begins another
		}
		if !fresh {
			if columns(cur)+1+columns(piece) <= width {
				cur += " " + piece
				continue
			}
			out = append(out, cur)
			cur, fresh = cont, true
		}
		if columns(cur)+columns(piece) <= width {
			cur, fresh = cur+piece, false
			continue
		}
		words := strings.Fields(part)
		if i < len(parts)-1 && len(words) > 0 {
			words[len(words)-1] += " ·" // never a line's first word
		}
		for _, word := range words {
			if !fresh && columns(cur)+1+columns(word) > width {
				out = append(out, cur)
				cur, fresh = cont, true
			}
			if !fresh {
				cur += " "
			}
			cur, fresh = cur+word, false
		}
	}
	return append(out, cur)
}

// columns is the width of s on a terminal: a column per character.
func columns(s string) int { return utf8.RuneCountInString(s) }
