package sqlscript

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

type itemKind uint8

const (
	itemEOF itemKind = iota
	itemSQL
	itemMeta
)

// item is a lexed command: an SQL statement (without its ;) with its
// :name parameters, or a meta-command line.
type item struct {
	kind   itemKind
	text   string
	line   int
	params []string
}

// lexer splits a script into meta-command lines (a line beginning with a
// backslash, outside a statement) and SQL statements, each ended by a
// semicolon outside quotes and comments (or by the end of the file). It
// finds the :name parameters of SQL, never inside a string, a quoted
// name or a comment.
type lexer struct {
	src  string
	pos  int
	line int
}

func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

func (l *lexer) advance(n int) {
	for range n {
		if l.pos < len(l.src) && l.src[l.pos] == '\n' {
			l.line++
		}
		l.pos++
	}
}

// skipBlank skips white space and comments.
func (l *lexer) skipBlank() error {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			l.advance(1)
		case c == '-' && l.peek(1) == '-':
			l.skipLine()
		case c == '/' && l.peek(1) == '*':
			if err := l.skipBlock(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) skipLine() {
	for l.pos < len(l.src) && l.src[l.pos] != '\n' {
		l.pos++
	}
}

func (l *lexer) skipBlock() error {
	end := strings.Index(l.src[l.pos+2:], "*/")
	if end < 0 {
		return errors.New("a /* comment is not closed")
	}
	l.advance(end + 4)
	return nil
}

func (l *lexer) next() (item, error) {
	if err := l.skipBlank(); err != nil {
		return item{}, err
	}
	if l.pos >= len(l.src) {
		return item{kind: itemEOF, line: l.line}, nil
	}
	if l.src[l.pos] == '\\' {
		start, line := l.pos, l.line
		l.skipLine()
		return item{kind: itemMeta, text: l.src[start:l.pos], line: line}, nil
	}
	return l.statement()
}

// statement reads one SQL statement up to its semicolon.
func (l *lexer) statement() (item, error) {
	start, line := l.pos, l.line
	var params []string
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ';':
			text := strings.TrimSpace(l.src[start:l.pos])
			l.advance(1)
			if text == "" {
				return l.next()
			}
			return item{kind: itemSQL, text: text, line: line, params: params}, nil
		case c == '\'' || c == '"' || c == '`':
			if err := l.quoted(c, c); err != nil {
				return item{}, err
			}
		case c == '[':
			if err := l.quoted('[', ']'); err != nil {
				return item{}, err
			}
		case c == '-' && l.peek(1) == '-':
			l.skipLine()
		case c == '/' && l.peek(1) == '*':
			if err := l.skipBlock(); err != nil {
				return item{}, err
			}
		case c == ':' && isWordStart(l.peek(1)):
			l.advance(1)
			w := l.pos
			for l.pos < len(l.src) && isWordByte(l.src[l.pos]) {
				l.pos++
			}
			if name := l.src[w:l.pos]; !slices.Contains(params, name) {
				params = append(params, name)
			}
		case c == '?' || (c == '@' || c == '$') && isWordStart(l.peek(1)):
			return item{}, fmt.Errorf("parameter %q: scripts bind parameters by name, as :name", l.src[l.pos:min(l.pos+12, len(l.src))])
		default:
			l.advance(1)
		}
	}
	text := strings.TrimSpace(l.src[start:])
	if text == "" {
		return item{kind: itemEOF, line: l.line}, nil
	}
	return item{kind: itemSQL, text: text, line: line, params: params}, nil
}

// quoted skips a quoted string or name that opens with open and closes
// with close (a doubled close stays inside, as SQL writes it).
func (l *lexer) quoted(open, close byte) error {
	line := l.line
	l.advance(1)
	for l.pos < len(l.src) {
		if l.src[l.pos] == close {
			if close != ']' && l.peek(1) == close {
				l.advance(2)
				continue
			}
			l.advance(1)
			return nil
		}
		l.advance(1)
	}
	return fmt.Errorf("a %c opened on line %d is not closed", open, line)
}
