package replay

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/mask"
	"github.com/gobench/gobench/pkg/workload"
)

// A scaled replay's copies keep their keys apart (workload.ReplayRemap):
// copy c moves the values a statement binds to key columns into a range
// of its own, integers by c × span and text and blobs by a suffix, and
// starts from its own copy of the snapshot's rows, moved alike
// (seedCopies). Inserted ids need no map from captured to replayed: an
// INSERT that lets SQLite choose the INTEGER PRIMARY KEY is given, in
// every copy (copy 0 too), the next id of the copy's own range (the
// largest id there, plus one), which is the captured id moved into the
// range as long as the copy inserts in the captured order; a later
// statement binding the captured id, moved by c × span, finds the copy's
// row. A statement that cannot be moved this way runs unchanged: the
// copies share its keys (remapPlan.shared).

// remapTable is a table's keys, looked up by column.
type remapTable struct {
	*workload.RemapTable
	keys map[string]bool
}

// keyTables indexes a remap's tables by lower-case name.
func keyTables(m *workload.ReplayRemap) map[string]*remapTable {
	out := map[string]*remapTable{}
	for i := range m.Tables {
		t := &remapTable{RemapTable: &m.Tables[i], keys: map[string]bool{}}
		for _, k := range t.Keys {
			t.keys[k] = true
		}
		out[strings.ToLower(t.Name)] = t
	}
	return out
}

// remapPlan is how a statement's text runs in a copy.
type remapPlan struct {
	// touches says it names a table of the database; shared that its
	// keys cannot be moved: it runs unchanged in every copy. A statement
	// that touches nothing (BEGIN, PRAGMA, SELECT 1) is neither.
	touches, shared bool
	// keys are the parameters (1-based) bound to key columns.
	keys []int
	// rowid, if set, is the table of an INSERT that lets SQLite choose
	// its INTEGER PRIMARY KEY; colEnd and rowEnd are where its column
	// list and its row of values close.
	rowid          *remapTable
	colEnd, rowEnd int
}

// neutralWords begin statements that read or write no table's rows.
var neutralWords = map[string]bool{"begin": true, "commit": true, "end": true, "rollback": true, "savepoint": true,
	"release": true, "pragma": true, "analyze": true, "vacuum": true, "reindex": true, "attach": true, "detach": true, "explain": true}

// firstWord returns a statement's first word, in lower case.
func firstWord(sql string) string {
	s := strings.TrimLeft(sql, " \t\r\n(;")
	end := strings.IndexFunc(s, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if end < 0 {
		end = len(s)
	}
	return strings.ToLower(s[:end])
}

// analyzeRemap decides how a statement's text runs in a copy: which of
// its parameters are keys to move, whether its INSERT needs an id of the
// copy's range, or whether it runs unchanged (shared): a key written as
// a literal or compared with != or NOT IN, a parameter whose column is
// not known (an expression, a range, LIKE), a table restricted by no
// key, an INSERT ... SELECT or one of several rows that leaves the id to
// SQLite, a schema statement, or several statements in one text.
func analyzeRemap(sql string, tables map[string]*remapTable) remapPlan {
	if stmts := sqltrace.SplitStatements(sql); len(stmts) > 1 {
		for _, s := range stmts {
			if analyzeRemap(s, tables).touches {
				return remapPlan{touches: true, shared: true}
			}
		}
		return remapPlan{}
	}
	switch w := firstWord(sql); {
	case neutralWords[w]:
		return remapPlan{}
	case w == "create" || w == "drop" || w == "alter":
		return remapPlan{touches: true, shared: true}
	}
	st := mask.Parse(sql, func(t string) []string {
		if kt := tables[t]; kt != nil {
			return kt.Columns
		}
		return nil
	})
	var named []*remapTable
	for _, t := range st.Tables {
		if kt := tables[t]; kt != nil {
			named = append(named, kt)
		}
	}
	if len(named) == 0 {
		return remapPlan{}
	}
	p := remapPlan{touches: true}
	var restricted bool
	p.keys, restricted, p.shared = keyParams(sql, st, tables, named)
	w := firstWord(sql)
	if w != "insert" && w != "replace" {
		p.shared = p.shared || !restricted // nothing restricts it to a copy's rows
		return p
	}
	return insertPlan(sql, st, tables, p)
}

// negated matches the end of a text before a value compared by != or
// <>, or first in NOT IN (…).
var negated = regexp.MustCompile(`(?i)(!=|<>|\bnot\s+in\s*\(|\bis\s+not)\s*$`)

// where finds a WHERE clause.
var where = regexp.MustCompile(`(?i)\bwhere\b`)

// keyParams returns the parameters of st bound to key columns, whether
// one of them is compared in a WHERE clause (restricting the statement
// to a copy's rows), and whether the statement must be shared: a key
// literal, a negated key, or a parameter in no column (other than a
// LIMIT or OFFSET).
func keyParams(sql string, st mask.Statement, tables map[string]*remapTable, named []*remapTable) (keys []int, restricted, shared bool) {
	whereAt := len(sql)
	if loc := where.FindStringIndex(sql); loc != nil {
		whereAt = loc[0]
	}
	covered := map[int]bool{}
	for _, p := range mask.PagingParams(sql) {
		covered[p] = true
	}
	for _, p := range setParams(sql, named) {
		covered[p] = true
	}
	for _, s := range st.Slots {
		if s.Param > 0 {
			covered[s.Param] = true
		}
		if !isKey(s, tables, named) {
			continue
		}
		switch {
		case s.Param == 0 || negated.MatchString(sql[:s.Start]):
			shared = true
		case !containsInt(keys, s.Param):
			keys = append(keys, s.Param)
		}
		restricted = restricted || s.Param > 0 && s.Start > whereAt
	}
	for p := 1; p <= st.Params; p++ {
		shared = shared || !covered[p]
	}
	return keys, restricted, shared
}

// isKey reports whether a slot's column is a key: of its table, or, not
// qualified in a statement naming several, of any of them.
func isKey(s mask.Slot, tables map[string]*remapTable, named []*remapTable) bool {
	if s.Table != "" {
		t := tables[s.Table]
		return t != nil && t.keys[s.Column]
	}
	for _, t := range named {
		if t.keys[s.Column] {
			return true
		}
	}
	return false
}

// insertPlan completes p for an INSERT: each key column it fills must be
// a parameter, and an id SQLite would choose is chosen in the copy's
// range instead.
func insertPlan(sql string, st mask.Statement, tables map[string]*remapTable, p remapPlan) remapPlan {
	ins, ok := mask.ParseInsert(sql)
	t := tables[ins.Table]
	if !ok || t == nil {
		p.shared = true
		return p
	}
	cols := ins.Columns
	if cols == nil {
		cols = t.Columns
	}
	for _, c := range cols {
		if t.keys[c] && !hasSlot(st, ins.Table, c) {
			p.shared = true
		}
	}
	if t.Alias == "" || containsString(cols, t.Alias) || containsString(cols, "rowid") || containsString(cols, "oid") || containsString(cols, "_rowid_") {
		return p
	}
	if ins.ColumnsEnd < 0 || ins.Rows != 1 {
		p.shared = true
		return p
	}
	p.rowid, p.colEnd, p.rowEnd = t, ins.ColumnsEnd, ins.RowEnd
	return p
}

func hasSlot(st mask.Statement, table, col string) bool {
	for _, s := range st.Slots {
		if s.Table == table && s.Column == col {
			return true
		}
	}
	return false
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func containsString(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// quoteName quotes an SQL identifier.
func quoteName(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// rowidText returns the INSERT's text for copy c of a remap of span: its
// INTEGER PRIMARY KEY given, the next id of the copy's range.
func (p *remapPlan) rowidText(sql string, c int, span int64) string {
	lo, hi := strconv.FormatInt(int64(c)*span, 10), strconv.FormatInt(int64(c+1)*span, 10)
	id, table := quoteName(p.rowid.Alias), quoteName(p.rowid.Name)
	next := "coalesce((SELECT " + id + " FROM " + table + " WHERE " + id + " >= " + lo + " AND " + id + " < " + hi + " ORDER BY " + id + " DESC LIMIT 1), " + lo + ") + 1"
	return sql[:p.colEnd] + ", " + id + sql[p.colEnd:p.rowEnd] + ", " + next + sql[p.rowEnd:]
}

// moveKey returns a key value in copy c: an integer offset by c × span,
// a text or blob suffixed; other values as they are.
func moveKey(v any, c int, span int64) any {
	switch x := v.(type) {
	case int64:
		return x + int64(c)*span
	case string:
		return x + workload.RemapSuffix(c)
	case []byte:
		return append(x, workload.RemapSuffix(c)...)
	}
	return v
}

// setClause finds an UPDATE's SET clause: from SET to WHERE, RETURNING
// or the end.
var setClause = regexp.MustCompile(`(?is)^\s*update\b.*?\bset\b(.*?)(\bwhere\b|\breturning\b|$)`)

// setParams returns the parameters of an UPDATE's SET clause (SET n = n
// + ?) when the clause names no key column of the tables: values
// written, not keys.
func setParams(sql string, named []*remapTable) []int {
	m := setClause.FindStringSubmatchIndex(sql)
	if m == nil {
		return nil
	}
	clause := strings.ToLower(sql[m[2]:m[3]])
	for _, t := range named {
		for _, k := range t.Keys {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(k) + `\b`).MatchString(clause) {
				return nil
			}
		}
	}
	var out []int
	for _, p := range mask.Params(sql) {
		if p.Start >= m[2] && p.End <= m[3] {
			out = append(out, p.Param)
		}
	}
	return out
}
