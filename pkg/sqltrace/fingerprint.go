package sqltrace

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Fingerprint returns a statement's text with what varies between its
// executions taken out, as pg_stat_statements normalises queries: every
// literal (number, string, blob) and every parameter (?, ?NNN, :name,
// @name, $name) is "?", a list of them after IN is "(?, ...)", comments
// go, white space is one space, words outside quotes are in lower case and
// a trailing semicolon goes. Executions with one fingerprint are one
// statement in a replay's report.
func Fingerprint(sql string) string {
	var b strings.Builder
	prev := ""
	toks := tokens(sql)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t == ";" && i == len(toks)-1 {
			break
		}
		if t == "(" && i > 0 && toks[i-1] == "in" {
			if j := placeholderList(toks, i+1); j > i+2 {
				t, i = "(?, ...)", j
			}
		}
		if b.Len() > 0 && spaceBefore(t) && prev != "(" && prev != "." && !(t == "(" && isWord(prev)) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		prev = t
	}
	return b.String()
}

// FingerprintID returns a short name of a fingerprint: "q" and 8 hex
// digits of its hash.
func FingerprintID(fp string) string {
	h := fnv.New64a()
	h.Write([]byte(fp))
	return fmt.Sprintf("q%08x", uint32(h.Sum64()>>32))
}

// placeholderList returns the index of the ")" that ends a list of two or
// more "?" separated by commas starting at toks[i], or i.
func placeholderList(toks []string, i int) int {
	j, n := i, 0
	for j < len(toks) && toks[j] == "?" {
		n++
		j++
		if j < len(toks) && toks[j] == "," {
			j++
			continue
		}
		break
	}
	if n >= 2 && j < len(toks) && toks[j] == ")" {
		return j
	}
	return i
}

// isWord reports whether a token is a word: a name or a keyword.
func isWord(t string) bool { return t != "" && isWordByte(t[0]) && t != "?" }

func spaceBefore(t string) bool { return t != "," && t != ")" && t != ";" && t != "." }

// tokens splits a statement into fingerprint tokens.
func tokens(sql string) []string {
	var out []string
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '\'':
			i = quotedEnd(sql, i)
			out = append(out, "?")
		case (c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
			i = quotedEnd(sql, i+1)
			out = append(out, "?")
		case c == '"' || c == '`' || c == '[':
			end := quotedEnd(sql, i)
			out = append(out, sql[i:end])
			i = end
		case c == '?' || c == ':' || c == '@' || c == '$':
			j := i + 1
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			if j == i+1 && c != '?' {
				out = append(out, string(c))
			} else {
				out = append(out, "?")
			}
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9':
			i = numberEnd(sql, i)
			out = append(out, "?")
		case isWordByte(c):
			j := i
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			out = append(out, strings.ToLower(sql[i:j]))
			i = j
		default:
			j := i + 1
			if j < len(sql) && strings.Contains("<>=!|", string(c)) && strings.Contains("<>=|", string(sql[j])) {
				j++
			}
			out = append(out, sql[i:j])
			i = j
		}
	}
	return out
}

// quotedEnd returns the end of the quoted string or name that begins at
// sql[i], past its closing quote (a doubled quote is inside it), or the
// end of sql.
func quotedEnd(sql string, i int) int {
	q := sql[i]
	if q == '[' {
		q = ']'
	}
	for j := i + 1; j < len(sql); j++ {
		if sql[j] != q {
			continue
		}
		if q != ']' && j+1 < len(sql) && sql[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return len(sql)
}

// numberEnd returns the end of the number that begins at sql[i]: digits,
// a fraction, an exponent, or a hexadecimal integer.
func numberEnd(sql string, i int) int {
	j := i
	if strings.HasPrefix(sql[i:], "0x") || strings.HasPrefix(sql[i:], "0X") {
		j += 2
	}
	for j < len(sql) {
		c := sql[j]
		switch {
		case c >= '0' && c <= '9' || c == '.' || c == '_' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			j++
		case (c == '+' || c == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E'):
			j++
		default:
			return j
		}
	}
	return j
}

// isWordByte reports whether c is part of a word: ASCII letters, digits,
// _, $ and every byte of a UTF-8 sequence.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// ParamIndex returns the index SQLite gives each named parameter of a
// statement (":a", "@a" and "$a" are different parameters), and how many
// parameters it has (sqlite3_bind_parameter_count): "?" takes the next
// index, "?NNN" index NNN, a name the next index the first time it comes.
func ParamIndex(sql string) (names map[string]int, count int) {
	names = map[string]int{}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return names, count
			}
			i += end + 4
		case c == '\'' || c == '"' || c == '`' || c == '[':
			i = quotedEnd(sql, i)
		case c == '?':
			j := i + 1
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			if n, err := strconv.Atoi(sql[i+1 : j]); err == nil {
				count = max(count, n)
			} else {
				count++
			}
			i = j
		case (c == ':' || c == '@' || c == '$') && i+1 < len(sql) && isWordByte(sql[i+1]):
			j := i + 1
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			if _, ok := names[sql[i:j]]; !ok {
				count++
				names[sql[i:j]] = count
			}
			i = j
		case isWordByte(c):
			for i < len(sql) && isWordByte(sql[i]) {
				i++
			}
		default:
			i++
		}
	}
	return names, count
}

// SplitStatements splits SQL text into its statements, at the semicolons
// outside strings, quoted names, comments and a trigger's BEGIN … END, as
// sqlite3_complete finds them; white space around each is trimmed, and
// empty statements go.
func SplitStatements(sql string) []string {
	var out []string
	start := 0
	var words []string // the statement's first words, and its last
	last := ""
	emit := func(end int) {
		if s := strings.TrimSpace(sql[start:end]); s != "" && s != ";" {
			out = append(out, s)
		}
		start, words, last = end, nil, ""
	}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				i = len(sql)
				continue
			}
			i += end + 4
		case c == '\'' || c == '"' || c == '`' || c == '[':
			i = quotedEnd(sql, i)
			last = ""
		case isWordByte(c):
			j := i
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			last = strings.ToUpper(sql[i:j])
			if len(words) < 3 {
				words = append(words, last)
			}
			i = j
		case c == ';':
			i++
			if !isTrigger(words) || last == "END" {
				emit(i)
			}
		default:
			i++
			last = ""
		}
	}
	emit(len(sql))
	return out
}

// isTrigger reports whether a statement's first words create a trigger.
func isTrigger(words []string) bool {
	if len(words) < 2 || words[0] != "CREATE" {
		return false
	}
	if words[1] == "TEMP" || words[1] == "TEMPORARY" {
		return len(words) > 2 && words[2] == "TRIGGER"
	}
	return words[1] == "TRIGGER"
}
