package mask

import (
	"strconv"
	"strings"
)

// token is one lexical token of an SQL text.
type token struct {
	kind       tokKind
	text       string // a word in lower case, an identifier unquoted, a literal's value, a parameter's name
	start, end int    // its bytes in the text
	param      int    // a parameter's index (1-based), resolved by slots
}

type tokKind uint8

const (
	tokWord   tokKind = iota // a keyword or bare identifier
	tokIdent                 // a quoted identifier
	tokString                // a string literal ('...')
	tokBlob                  // a blob literal (X'...'), text the hex digits
	tokNumber                // a numeric literal
	tokParam                 // a parameter: ?, ?NNN, :name, @name, $name
	tokPunct                 // anything else, one or two bytes
)

// tokenize splits sql into tokens, comments and white space dropped. It
// never fails: an unterminated quote runs to the end of the text.
func tokenize(sql string) []token {
	var toks []token
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			i = skipTo(sql, i, "\n")
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			i = skipTo(sql, i+2, "*/")
		case c == '\'':
			end, v := quoted(sql, i, '\'')
			toks = append(toks, token{kind: tokString, text: v, start: i, end: end})
			i = end
		case (c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
			end, v := quoted(sql, i+1, '\'')
			toks = append(toks, token{kind: tokBlob, text: v, start: i, end: end})
			i = end
		case c == '"' || c == '`':
			end, v := quoted(sql, i, c)
			toks = append(toks, token{kind: tokIdent, text: v, start: i, end: end})
			i = end
		case c == '[':
			end := skipTo(sql, i, "]")
			toks = append(toks, token{kind: tokIdent, text: sql[i+1 : max(i+1, end-1)], start: i, end: end})
			i = end
		case c == '?' || c == ':' || c == '@' || c == '$':
			j := i + 1
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			if c != '?' && j == i+1 {
				toks = append(toks, token{kind: tokPunct, text: sql[i:j], start: i, end: j})
			} else {
				toks = append(toks, token{kind: tokParam, text: sql[i:j], start: i, end: j})
			}
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9':
			j := i + 1
			for j < len(sql) && (isWordByte(sql[j]) || sql[j] == '.' || (sql[j] == '+' || sql[j] == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E')) {
				j++
			}
			toks = append(toks, token{kind: tokNumber, text: sql[i:j], start: i, end: j})
			i = j
		case isWordByte(c):
			j := i + 1
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			toks = append(toks, token{kind: tokWord, text: strings.ToLower(sql[i:j]), start: i, end: j})
			i = j
		default:
			j := i + 1
			if j < len(sql) && strings.Contains("==<>!=<=>=||", sql[i:j+1]) && strings.Contains("=<>|", sql[j:j+1]) {
				j++
			}
			toks = append(toks, token{kind: tokPunct, text: sql[i:j], start: i, end: j})
			i = j
		}
	}
	return toks
}

// isWordByte reports whether c continues a word, as SQLite (and
// sqltrace's fingerprints) read one: ASCII letters, digits, _, $ and
// every byte of a UTF-8 sequence. A $ opens a parameter only where a token
// begins (tokenize's parameter case comes first).
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// skipTo returns the index just past the first end at or after i, or the
// text's length.
func skipTo(sql string, i int, end string) int {
	if k := strings.Index(sql[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(sql)
}

// quoted reads the quoted text opening at sql[i] (a doubled quote is one)
// and returns the index past its close and its value.
func quoted(sql string, i int, q byte) (int, string) {
	var b strings.Builder
	for j := i + 1; j < len(sql); j++ {
		if sql[j] != q {
			b.WriteByte(sql[j])
			continue
		}
		if j+1 < len(sql) && sql[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return j + 1, b.String()
	}
	return len(sql), b.String()
}

// Slot is a value of a statement's text that lands in a column: a bound
// parameter or a literal.
type Slot struct {
	// Param is the parameter's index (1-based), or 0 for a literal.
	Param int
	// Start and End are the literal's bytes in the text (a parameter's
	// too).
	Start, End int
	// Table and Column name the column, in lower case: Table is "" when
	// the statement names several tables and the column was not
	// qualified (any of Tables may hold it).
	Table, Column string
}

// Statement is what Parse read of an SQL text.
type Statement struct {
	// Tables are the tables the statement names (after FROM, JOIN, INTO,
	// UPDATE, TABLE), in lower case.
	Tables []string
	// Slots are the values whose column Parse found.
	Slots []Slot
	// Params counts the statement's parameters (the highest index).
	Params int
	// Literals are every string, blob and number literal of the text.
	Literals []Slot
}

// Parse reads which column each parameter and literal of sql lands in,
// for the forms it knows: INSERT (or REPLACE) INTO t (a, b) VALUES (?, ?),
// with the column list, or without it when columns knows t's columns in
// order; UPDATE t SET a = ?, b = ?; and comparisons anywhere of a column
// with one value, col = ?, ? = col, col == ?, col != ?, col <> ?, col IS ?,
// col IN (?, ?, ...). A column qualified by an alias (u.email) is the
// aliased table's. Values in any other place (an expression, a function's
// argument, LIKE) are not slots: the caller decides what to do with them.
func Parse(sql string, columns func(table string) []string) Statement {
	toks := tokenize(sql)
	var st Statement
	numberParams(toks, &st)
	aliases := map[string]string{}
	for i, t := range toks {
		switch t.kind {
		case tokString, tokBlob, tokNumber:
			st.Literals = append(st.Literals, Slot{Start: t.start, End: t.end})
		}
		if t.kind != tokWord || !tableKeyword(t.text) {
			continue
		}
		for next := i + 1; ; next++ { // FROM a x, b y: a list
			var name string
			if name, next = qualifiedName(toks, next); name == "" {
				break
			}
			st.Tables = appendOnce(st.Tables, name)
			aliases[name] = name
			if next < len(toks) && toks[next].kind == tokWord && toks[next].text == "as" {
				next++
			}
			if next < len(toks) && (toks[next].kind == tokIdent || toks[next].kind == tokWord && !reserved[toks[next].text]) {
				aliases[strings.ToLower(toks[next].text)] = name
				next++
			}
			if t.text != "from" || next >= len(toks) || toks[next].text != "," {
				break
			}
		}
	}
	insertSlots(toks, &st, columns)
	updateSlots(toks, &st)
	compareSlots(toks, &st, aliases)
	return st
}

// numberParams gives each parameter its index as SQLite does: ? the next,
// ?NNN that one, a name the index of its first use or the next.
func numberParams(toks []token, st *Statement) {
	names := map[string]int{}
	for i := range toks {
		t := &toks[i]
		if t.kind != tokParam {
			continue
		}
		switch {
		case t.text == "?":
			st.Params++
			t.param = st.Params
		case t.text[0] == '?':
			n, err := strconv.Atoi(t.text[1:])
			if err != nil || n < 1 {
				continue
			}
			t.param = n
			st.Params = max(st.Params, n)
		default:
			if n, ok := names[t.text]; ok {
				t.param = n
				continue
			}
			st.Params++
			t.param, names[t.text] = st.Params, st.Params
		}
	}
}

func tableKeyword(w string) bool {
	return w == "from" || w == "join" || w == "into" || w == "update" || w == "table"
}

// reserved are words that follow a table's name without being its alias.
var reserved = map[string]bool{
	"where": true, "set": true, "values": true, "on": true, "using": true, "join": true, "left": true,
	"right": true, "inner": true, "outer": true, "cross": true, "natural": true, "full": true, "group": true,
	"order": true, "limit": true, "select": true, "default": true, "returning": true, "union": true,
	"except": true, "intersect": true, "window": true, "having": true, "indexed": true, "not": true,
	"if": true, "as": true, "or": true, "and": true, "offset": true, "do": true, "on conflict": true,
}

// qualifiedName reads [schema.]name at toks[i] (skipping IF NOT EXISTS and
// OR conflict words after UPDATE/INSERT), returning the name in lower case
// and the index after it.
func qualifiedName(toks []token, i int) (string, int) {
	for i < len(toks) && toks[i].kind == tokWord && (toks[i].text == "if" || toks[i].text == "not" || toks[i].text == "exists" || toks[i].text == "or" || conflictWord[toks[i].text]) {
		i++
	}
	if i >= len(toks) || !isName(toks[i]) {
		return "", i
	}
	name := strings.ToLower(toks[i].text)
	i++
	if i+1 < len(toks) && toks[i].text == "." && isName(toks[i+1]) {
		name = strings.ToLower(toks[i+1].text)
		i += 2
	}
	return name, i
}

var conflictWord = map[string]bool{"rollback": true, "abort": true, "replace": true, "fail": true, "ignore": true}

func isName(t token) bool {
	return t.kind == tokIdent || t.kind == tokWord && !reserved[t.text] && t.text != "select"
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// value returns the slot of a single value at toks[i] (a parameter or a
// literal, a sign before a number included) and the index after it, or
// false.
func value(toks []token, i int) (Slot, int, bool) {
	if i < len(toks) && toks[i].kind == tokPunct && (toks[i].text == "-" || toks[i].text == "+") && i+1 < len(toks) && toks[i+1].kind == tokNumber {
		return Slot{Start: toks[i].start, End: toks[i+1].end}, i + 2, true
	}
	if i >= len(toks) {
		return Slot{}, i, false
	}
	switch t := toks[i]; t.kind {
	case tokParam:
		return Slot{Param: t.param, Start: t.start, End: t.end}, i + 1, t.param > 0
	case tokString, tokBlob, tokNumber:
		return Slot{Start: t.start, End: t.end}, i + 1, true
	}
	return Slot{}, i, false
}

// ends reports whether toks[i] ends a value: a comma, a closing
// parenthesis, a keyword, or the text's end.
func ends(toks []token, i int) bool {
	return i >= len(toks) || toks[i].text == "," || toks[i].text == ")" || toks[i].text == ";" || toks[i].kind == tokWord && reserved[toks[i].text]
}

// insertSlots maps INSERT ... INTO t [(cols)] VALUES (...), (...).
func insertSlots(toks []token, st *Statement, columns func(string) []string) {
	i := indexWord(toks, 0, "into")
	if i < 0 {
		return
	}
	table, j := qualifiedName(toks, i+1)
	if table == "" {
		return
	}
	if j < len(toks) && toks[j].text == "as" {
		j += 2
	}
	var cols []string
	if j < len(toks) && toks[j].text == "(" {
		for j++; j < len(toks) && toks[j].text != ")"; j++ {
			if isName(toks[j]) {
				cols = append(cols, strings.ToLower(toks[j].text))
			}
		}
		j++
	} else if columns != nil {
		cols = columns(table)
	}
	if j >= len(toks) || toks[j].text != "values" {
		return
	}
	for j++; j < len(toks) && toks[j].text == "("; {
		j++
		for k := 0; j < len(toks) && toks[j].text != ")"; k++ {
			s, next, ok := value(toks, j)
			if ok && ends(toks, next) && k < len(cols) {
				s.Table, s.Column = table, cols[k]
				st.Slots = append(st.Slots, s)
			}
			j = skipExpr(toks, j)
			if j < len(toks) && toks[j].text == "," {
				j++
			}
		}
		j++
		if j < len(toks) && toks[j].text == "," {
			j++
		}
	}
}

// skipExpr returns the index of the comma or closing parenthesis that ends
// the expression at toks[i], at its own depth.
func skipExpr(toks []token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			if depth == 0 {
				return i
			}
			depth--
		case ",":
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

func indexWord(toks []token, from int, w string) int {
	for i := from; i < len(toks); i++ {
		if toks[i].kind == tokWord && toks[i].text == w {
			return i
		}
	}
	return -1
}

// updateSlots maps UPDATE t SET a = ?, b = ? (and an upsert's DO UPDATE
// SET, whose table is the INSERT's).
func updateSlots(toks []token, st *Statement) {
	for i := indexWord(toks, 0, "set"); i >= 0; i = indexWord(toks, i+1, "set") {
		table := ""
		if u := lastWordBefore(toks, i, "update"); u >= 0 {
			table, _ = qualifiedName(toks, u+1)
		}
		if table == "" {
			if in := indexWord(toks, 0, "into"); in >= 0 {
				table, _ = qualifiedName(toks, in+1)
			}
		}
		for j := i + 1; j+2 < len(toks) && isName(toks[j]) && toks[j+1].text == "="; {
			s, next, ok := value(toks, j+2)
			if ok && ends(toks, next) {
				s.Table, s.Column = table, strings.ToLower(toks[j].text)
				st.Slots = append(st.Slots, s)
			}
			j = skipExpr(toks, j+2)
			if j >= len(toks) || toks[j].text != "," {
				break
			}
			j++
		}
	}
}

func lastWordBefore(toks []token, i int, w string) int {
	for j := i - 1; j >= 0; j-- {
		if toks[j].kind == tokWord && toks[j].text == w {
			return j
		}
	}
	return -1
}

// compareSlots maps comparisons of a column with one value, and col IN
// (values).
func compareSlots(toks []token, st *Statement, aliases map[string]string) {
	for i := range toks {
		if !isName(toks[i]) || i > 0 && toks[i-1].text == "." {
			continue
		}
		table, col, after := "", strings.ToLower(toks[i].text), i+1
		if after+1 < len(toks) && toks[after].text == "." && isName(toks[after+1]) {
			q := col
			col, after = strings.ToLower(toks[after+1].text), after+2
			if t, ok := aliases[q]; ok {
				table = t
			} else {
				table = q
			}
		} else if len(st.Tables) == 1 {
			table = st.Tables[0]
		}
		if after < len(toks) && isCompare(toks[after].text) {
			n := after + 1
			if n < len(toks) && toks[n].text == "not" {
				n++
			}
			if s, next, ok := value(toks, n); ok && ends(toks, next) || ok && next < len(toks) && toks[next].kind == tokWord {
				s.Table, s.Column = table, col
				st.Slots = append(st.Slots, s)
			}
		} else if after+1 < len(toks) && toks[after].text == "in" && toks[after+1].text == "(" || after+2 < len(toks) && toks[after].text == "not" && toks[after+1].text == "in" {
			j := after + 2
			if toks[after].text == "not" {
				j++
			}
			for ; j < len(toks); j++ {
				s, next, ok := value(toks, j)
				if !ok || next >= len(toks) || toks[next].text != "," && toks[next].text != ")" {
					break
				}
				s.Table, s.Column = table, col
				st.Slots = append(st.Slots, s)
				if j = next; toks[j].text == ")" {
					break
				}
			}
		}
		// value = column
		if i >= 2 && isCompare(toks[i-1].text) && ends(toks, after) {
			if s, next, ok := value(toks, i-2); ok && next == i-1 {
				s.Table, s.Column = table, col
				st.Slots = append(st.Slots, s)
			}
		}
	}
}

func isCompare(op string) bool {
	return op == "=" || op == "==" || op == "!=" || op == "<>" || op == "is"
}
