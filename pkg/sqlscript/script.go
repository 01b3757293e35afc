package sqlscript

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Script is one parsed script: a named transaction of commands, run in
// order, and its weight in the mix of scripts. Its commands remember
// where their variables live in the State they last ran with, so that a
// run looks no name up: run a Script with one State at a time, and parse
// it once per worker that runs it concurrently.
type Script struct {
	Name     string // the file's base name without its extension
	File     string
	Weight   int
	Commands []Command
}

// Command is one line of work: a \set (Set non-nil) or an SQL statement.
type Command struct {
	Line int
	Set  *Set
	SQL  *Statement
}

// Set is `\set NAME EXPR`.
type Set struct {
	Name string
	Expr Expr
	st   *State // the State it last ran with, and the variable's slot there
	slot int
}

// Statement is one SQL statement, its text as written (SQLite binds the
// :name parameters itself) and the names of its parameters, in order of
// first appearance.
type Statement struct {
	Text   string
	Params []string
	st     *State // the State it last bound from, and the parameters' slots there
	slots  []int
}

// ParseArg reads a --file value, "FILE" or "FILE@WEIGHT" (pgbench's
// form), weight 1 by default.
func ParseArg(arg string) (file string, weight int, err error) {
	i := strings.LastIndex(arg, "@")
	if i < 0 {
		return arg, 1, nil
	}
	file = arg[:i]
	if file == "" {
		return "", 0, fmt.Errorf("--file %q: no file named", arg)
	}
	weight, err = strconv.Atoi(arg[i+1:])
	if err != nil || weight <= 0 {
		return "", 0, fmt.Errorf("--file %q: the weight after @ must be a whole number above 0", arg)
	}
	return file, weight, nil
}

// NameOf returns the name a script read from file has (its op kind in
// results): the file's base name without its extension.
func NameOf(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}

// Parse reads a script from src, named after file. Predefined names the
// script's parameters may use besides its own \set variables (the State's
// predefined ones are always allowed). Errors are *Error, with the line.
//
// A script is text: a NUL byte anywhere is refused (SQLite would end the
// statement at it, and a driver may not survive what follows), and a
// UTF-8 byte order mark at the start is not part of the first statement.
// Lines end with LF or CRLF.
func Parse(file, src string, weight int, predefined ...string) (*Script, error) {
	s := &Script{Name: NameOf(file), File: file, Weight: weight}
	known := append([]string{VarClientID, VarScale, VarDefaultSeed}, predefined...)
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		line := 1 + strings.Count(src[:i], "\n")
		col := i - strings.LastIndexByte(src[:i], '\n')
		return nil, fail(line, "a NUL byte at column %d: a script is text, and SQL cannot hold one", col)
	}
	src = strings.TrimPrefix(src, byteOrderMark)
	lx := &lexer{src: src, line: 1}
	for {
		item, err := lx.next()
		if err != nil {
			return nil, fail(lx.line, "%v", err)
		}
		if item.kind == itemEOF {
			break
		}
		cmd, err := parseItem(item, known)
		if err != nil {
			return nil, fail(item.line, "%v", err)
		}
		if cmd.Set != nil && !slices.Contains(known, cmd.Set.Name) {
			known = append(known, cmd.Set.Name)
		}
		s.Commands = append(s.Commands, cmd)
	}
	if !slices.ContainsFunc(s.Commands, func(c Command) bool { return c.SQL != nil }) {
		return nil, fail(lx.line, "the script has no SQL statement")
	}
	return s, nil
}

// byteOrderMark is UTF-8's byte order mark, which some editors write at
// the start of a file.
const byteOrderMark = "\uFEFF"

// parseItem turns a lexed item into a command, checking every variable it
// reads is known.
func parseItem(it item, known []string) (Command, error) {
	cmd := Command{Line: it.line}
	check := func(name string) error {
		if !slices.Contains(known, name) {
			return fmt.Errorf("unknown variable :%s (set it with \\set before its use; predefined: %s)", shown(name), strings.Join(known[:3], ", "))
		}
		return nil
	}
	if it.kind == itemSQL {
		cmd.SQL = &Statement{Text: it.text, Params: it.params}
		for _, p := range it.params {
			if err := check(p); err != nil {
				return cmd, err
			}
		}
		return cmd, nil
	}
	meta, rest, _ := strings.Cut(strings.TrimSpace(it.text), " ")
	if meta != `\set` {
		return cmd, fmt.Errorf("unknown meta-command %s (scripts have \\set)", shown(meta))
	}
	name, exprText, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if name == "" || !isWordStart(name[0]) || strings.IndexFunc(name, func(r rune) bool { return r > 127 || !isWordByte(byte(r)) }) >= 0 {
		return cmd, fmt.Errorf(`\set needs a variable name and an expression, such as \set aid random(1, 100000 * :scale)`)
	}
	if strings.TrimSpace(exprText) == "" {
		return cmd, fmt.Errorf(`\set %s has no expression`, shown(name))
	}
	e, err := ParseExpr(exprText)
	if err != nil {
		return cmd, fmt.Errorf(`\set %s: %w`, shown(name), err)
	}
	var verr error
	e.vars(func(v string) {
		if err := check(v); err != nil && verr == nil {
			verr = err
		}
	})
	cmd.Set = &Set{Name: name, Expr: e}
	return cmd, verr
}

// Eval runs a \set: it evaluates the expression in s and sets the
// variable.
func (c *Set) Eval(s *State) error {
	v, err := c.Expr.eval(s)
	if err != nil {
		return err
	}
	if c.st != s {
		c.st, c.slot = s, s.slot(c.Name)
	}
	s.vals[c.slot], s.isSet[c.slot] = v, true
	return nil
}

// Bind sets dst (of len(Params)) to the statement's parameters' values in
// s, as Go values to bind (see Value.Any), without allocating more than
// the values themselves need.
func (st *Statement) Bind(s *State, dst []any) error {
	if st.st != s {
		st.st, st.slots = s, make([]int, len(st.Params))
		for i, p := range st.Params {
			st.slots[i] = s.slot(p)
		}
	}
	for i, slot := range st.slots {
		v, ok := s.at(slot)
		if !ok {
			return fmt.Errorf("%w: variable :%s is not set", ErrEval, st.Params[i])
		}
		dst[i] = v.Any()
	}
	return nil
}

// readOnlyVerbs are the statements' first keywords that write nothing: a
// query, and a transaction's own steps.
var readOnlyVerbs = map[string]bool{"SELECT": true, "VALUES": true, "BEGIN": true, "COMMIT": true, "END": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true}

// Writes reports whether the script may write: whether any statement
// begins with a keyword other than SELECT, VALUES or a transaction's
// BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT and RELEASE. A WITH counts as
// a write, since its statement may be an INSERT, so a script reported
// read-only writes nothing.
func (s *Script) Writes() bool {
	for _, c := range s.Commands {
		if c.SQL != nil && !readOnlyVerbs[firstKeyword(c.SQL.Text)] {
			return true
		}
	}
	return false
}

// firstKeyword returns a statement's first word, in upper case, past
// blanks, comments (as the lexer skips them) and opening parentheses.
func firstKeyword(sql string) string {
	l := lexer{src: sql}
	for {
		if l.skipBlank() != nil {
			return ""
		}
		if l.peek(0) != '(' {
			break
		}
		l.advance(1)
	}
	rest := sql[l.pos:]
	end := strings.IndexFunc(rest, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end < 0 {
		end = len(rest)
	}
	return strings.ToUpper(rest[:end])
}
