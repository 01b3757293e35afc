package replay

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay's first cell runs as the application ran: with the settings
// its own PRAGMAs set. This file reads them from the trace's statements.

// Pragma is a PRAGMA that sets a value: PRAGMA [schema.]name = value, or
// PRAGMA [schema.]name(value).
type Pragma struct {
	// Schema is the schema named ("" when none: main's), Name the pragma
	// and Value the value set, each in lower case, a quoted value without
	// its quotes.
	Schema, Name, Value string
}

// ParsePragma reads a statement that sets a pragma; false for any other
// statement, a pragma read ("PRAGMA journal_mode") among them.
func ParsePragma(stmt string) (Pragma, bool) {
	s := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(stmt), ";"))
	if len(s) < 7 || !strings.EqualFold(s[:6], "pragma") || !isSpace(s[6]) {
		return Pragma{}, false
	}
	s = strings.TrimSpace(s[6:])
	var p Pragma
	name, rest, ok := cutName(s)
	if !ok {
		return Pragma{}, false
	}
	if r := strings.TrimSpace(rest); strings.HasPrefix(r, ".") {
		p.Schema = name
		if name, rest, ok = cutName(strings.TrimSpace(r[1:])); !ok {
			return Pragma{}, false
		}
	}
	p.Name = name
	rest = strings.TrimSpace(rest)
	var close string
	switch {
	case strings.HasPrefix(rest, "="):
	case strings.HasPrefix(rest, "("):
		close = ")"
	default:
		return Pragma{}, false
	}
	v, tail, ok := cutValue(strings.TrimSpace(rest[1:]))
	if !ok || strings.TrimSpace(tail) != close {
		return Pragma{}, false
	}
	p.Value = strings.ToLower(v)
	return p, true
}

// cutName cuts a name (a word, or a word in double quotes, backticks or
// brackets) from the front of s, in lower case.
func cutName(s string) (name, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	if q := s[0]; q == '"' || q == '`' || q == '[' {
		end := map[byte]byte{'"': '"', '`': '`', '[': ']'}[q]
		i := strings.IndexByte(s[1:], end)
		if i < 1 || strings.IndexFunc(s[1:i+1], func(r rune) bool { return r > 127 || !isWord(byte(r)) }) >= 0 {
			return "", "", false // a pragma's name is a word, quoted or not
		}
		return strings.ToLower(s[1 : i+1]), s[i+2:], true
	}
	i := 0
	for i < len(s) && isWord(s[i]) {
		i++
	}
	return strings.ToLower(s[:i]), s[i:], i > 0
}

// cutValue cuts a pragma's value from the front of s: a quoted string
// (its quotes doubled inside), a signed number, or a word.
func cutValue(s string) (value, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	if q := s[0]; q == '\'' || q == '"' {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] != q {
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == q {
				b.WriteByte(q)
				i++
				continue
			}
			return b.String(), s[i+1:], true
		}
		return "", "", false
	}
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	j := i
	for j < len(s) && (isWord(s[j]) || s[j] == '.') {
		j++
	}
	if j == i {
		return "", "", false
	}
	v := s[:j]
	if s[0] == '+' {
		v = s[1:j]
	}
	return v, s[j:], true
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// settingPragmas are the pragmas that set how a connection or the
// database runs (not data such as user_version, not actions such as
// wal_checkpoint): the ones a cell as captured takes or reports.
var settingPragmas = map[string]bool{
	"journal_mode": true, "synchronous": true, "busy_timeout": true, "wal_autocheckpoint": true,
	"locking_mode": true, "cache_size": true, "cache_spill": true, "mmap_size": true, "temp_store": true,
	"foreign_keys": true, "page_size": true, "auto_vacuum": true, "journal_size_limit": true,
	"secure_delete": true, "cell_size_check": true, "recursive_triggers": true, "automatic_index": true,
	"threads": true, "soft_heap_limit": true, "hard_heap_limit": true, "query_only": true,
	"read_uncommitted": true, "defer_foreign_keys": true, "trusted_schema": true,
	"ignore_check_constraints": true, "case_sensitive_like": true, "checkpoint_fullfsync": true,
	"fullfsync": true, "analysis_limit": true, "max_page_count": true, "legacy_alter_table": true,
	"reverse_unordered_selects": true,
}

// settingsTally counts the values each settings pragma was set to.
type settingsTally struct {
	order []string // pragmas, in the order first set
	by    map[string]*pragmaTally
}

// pragmaTally is one pragma's values, in the order first set.
type pragmaTally struct {
	values []string
	count  map[string]int64
	sql    map[string]string
}

// add counts the settings pragmas among a statement's text (one or
// several statements) that ran without error on the database replayed.
func (t *settingsTally) add(sql string) {
	stmts := []string{sql}
	if strings.Count(sql, ";") > 0 {
		stmts = sqltrace.SplitStatements(sql)
	}
	for _, stmt := range stmts {
		p, ok := ParsePragma(stmt)
		if !ok || !settingPragmas[p.Name] || (p.Schema != "" && p.Schema != "main") {
			continue
		}
		if t.by == nil {
			t.by = map[string]*pragmaTally{}
		}
		pt := t.by[p.Name]
		if pt == nil {
			pt = &pragmaTally{count: map[string]int64{}, sql: map[string]string{}}
			t.by[p.Name] = pt
			t.order = append(t.order, p.Name)
		}
		if pt.count[p.Value] == 0 {
			pt.values = append(pt.values, p.Value)
			pt.sql[p.Value] = strings.TrimRight(stmt, "; \t\n")
		}
		pt.count[p.Value]++
	}
}

// over returns the settings t's statements set, and for a pragma none of
// them set, base's: what the connections began with.
func (t *settingsTally) over(base *settingsTally) []workload.CapturedSetting {
	for _, name := range base.order {
		if t.by[name] != nil {
			continue
		}
		if t.by == nil {
			t.by = map[string]*pragmaTally{}
		}
		t.by[name] = base.by[name]
		t.order = append(t.order, name)
	}
	return t.settings()
}

// settings returns each pragma's value set most often (the first of
// equals), and which of the run's settings takes it.
func (t *settingsTally) settings() []workload.CapturedSetting {
	var out []workload.CapturedSetting
	journal := ""
	for _, name := range t.order {
		pt := t.by[name]
		best := pt.values[0]
		for _, v := range pt.values[1:] {
			if pt.count[v] > pt.count[best] {
				best = v
			}
		}
		s := workload.CapturedSetting{Pragma: name, Value: best, SQL: pt.sql[best], Count: pt.count[best], Others: len(pt.values) - 1}
		s.Flag, s.Cell, s.NotApplied = cellSetting(name, best)
		if s.Flag == "journal" && s.NotApplied == "" {
			journal = s.Cell
		}
		out = append(out, s)
	}
	for i := range out {
		if s := &out[i]; s.Flag == "checkpoint" && s.NotApplied == "" && journal != "wal" {
			s.NotApplied = "it applies to the WAL journal, and the application's is " + cmp.Or(journal, "rollback")
		}
	}
	return out
}

// cellSetting maps a pragma's value onto the run's setting that sets it
// (its flag, and the flag's value); flag "" for a pragma that no setting
// of the run's sets (the statement sets it again in every cell), or
// notApplied for one that a cell cannot take.
func cellSetting(name, value string) (flag, cell, notApplied string) {
	switch name {
	case "journal_mode":
		switch value {
		case "delete":
			return "journal", "rollback", ""
		case "truncate", "persist", "wal", "memory", "off":
			return "journal", value, ""
		}
		return "journal", "", "not a journal mode gobench runs"
	case "synchronous":
		levels := map[string]string{"0": "off", "1": "normal", "2": "full", "3": "extra", "off": "off", "normal": "normal", "full": "full", "extra": "extra"}
		if l, ok := levels[value]; ok {
			return "sync", l, ""
		}
		return "sync", "", "not a synchronous level"
	case "busy_timeout":
		ms, err := strconv.ParseInt(value, 10, 64)
		if err != nil || ms < 0 || ms > int64(time.Hour/time.Millisecond) {
			return "busy-timeout", "", "not a busy timeout gobench runs (0 to 1h in milliseconds)"
		}
		return "busy-timeout", (time.Duration(ms) * time.Millisecond).String(), ""
	case "wal_autocheckpoint":
		n, err := strconv.ParseInt(value, 10, 64)
		switch {
		case err != nil:
			return "checkpoint", "", "not a number of pages"
		case n <= 0:
			return "checkpoint", "off", ""
		}
		return "checkpoint", strconv.FormatInt(n, 10), ""
	case "locking_mode":
		return "", "", "gobench's workers share the database in the normal locking mode: the statement runs as a read"
	}
	return "", "", ""
}
