// Package mask rewrites a captured trace (package sqltrace) with the
// values of chosen columns replaced by keyed substitutes: in the snapshot
// of each database, in the parameters bound to them and in the literals of
// the statements' texts. Equal values get equal substitutes (an
// HMAC-SHA256 of the value under the capture's key, made a value of the
// same type), so joins and lookups on a masked column still find their
// rows.
package mask

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Column names a masked column, in lower case.
type Column struct{ Table, Column string }

// String returns "table.column".
func (c Column) String() string { return c.Table + "." + c.Column }

// ParseColumns reads "table.column,table.column".
func ParseColumns(s string) ([]Column, error) {
	var cols []Column
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		t, c, ok := strings.Cut(f, ".")
		if !ok || t == "" || c == "" || strings.Contains(c, ".") {
			return nil, fmt.Errorf("%q is not TABLE.COLUMN", f)
		}
		cols = append(cols, Column{strings.ToLower(t), strings.ToLower(c)})
	}
	return cols, nil
}

// Stats is what Rewrite did.
type Stats struct {
	// Snapshots counts the snapshots masked, Params the parameters and
	// Literals the literals of statements' texts replaced.
	Snapshots, Params, Literals int
}

// masker is Rewrite's state.
type masker struct {
	key    Key
	cols   map[string]bool // "table.column"
	tables map[string]bool // the tables of cols
	schema map[string][]string
	seen   map[string]bool // valueKey of every original value of a masked column
	parsed map[string]*Statement
	stats  Stats
}

// Rewrite writes to out the trace in the file at in with cols masked under
// key. dir holds its scratch files (the snapshots, masked), which it
// removes. A parameter or literal is masked when the statement's text puts
// it in a masked column (see Parse), or when it equals a value a masked
// column held (in the snapshot or put there by a statement) and either is
// a text or a blob, or the statement names a table of a masked column.
func Rewrite(in, dir string, out io.Writer, cols []Column, key Key) (Stats, error) {
	m := &masker{key: key, cols: map[string]bool{}, tables: map[string]bool{}, schema: map[string][]string{}, seen: map[string]bool{}, parsed: map[string]*Statement{}}
	for _, c := range cols {
		m.cols[c.String()], m.tables[c.Table] = true, true
	}
	snaps, err := m.extract(in, dir)
	defer func() {
		for _, f := range snaps {
			os.Remove(f)
		}
	}()
	if err != nil {
		return m.stats, err
	}
	for _, f := range snaps {
		schema, err := maskSnapshot(f, cols, key, m.seen)
		if err != nil {
			return m.stats, err
		}
		for t, c := range schema {
			m.schema[t] = c
		}
		m.stats.Snapshots++
	}
	m.parsed = map[string]*Statement{} // parsed again with the snapshots' schemas
	if err := m.scan(in, func(r *sqltrace.Record) error { m.collect(&r.Exec); return nil }); err != nil {
		return m.stats, err
	}
	return m.stats, m.write(in, dir, out, snaps, cols)
}

// Merged writes the trace merge writes to a file of dir, then it masked
// to w (Rewrite), and removes the file: the unmasked trace never reaches w.
func Merged(w io.Writer, dir string, merge func(io.Writer) (sqltrace.MergeStats, error), cols []Column, key Key) (sqltrace.MergeStats, Stats, error) {
	f, err := os.CreateTemp(dir, "unmasked-*.trace")
	if err != nil {
		return sqltrace.MergeStats{}, Stats{}, err
	}
	defer os.Remove(f.Name())
	st, err := merge(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return st, Stats{}, err
	}
	ms, err := Rewrite(f.Name(), dir, w, cols, key)
	if err != nil {
		return st, ms, fmt.Errorf("masking: %w", err)
	}
	return st, ms, nil
}

// scan reads every Exec record of the trace in.
func (m *masker) scan(in string, visit func(*sqltrace.Record) error) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	r := sqltrace.NewReader(f)
	r.Filter(nil, false)
	for r.Next() {
		if rec := r.Record(); rec.Kind == sqltrace.KindExec {
			if err := visit(rec); err != nil {
				return err
			}
		}
	}
	return r.Err()
}

// extract writes each snapshot's bytes to a file of dir, and reads the
// tables the statements create.
func (m *masker) extract(in, dir string) (map[uint64]string, error) {
	snaps := map[uint64]string{}
	f, err := os.Open(in)
	if err != nil {
		return snaps, err
	}
	defer f.Close()
	r := sqltrace.NewReader(f)
	var out *os.File
	var outN uint64
	defer func() {
		if out != nil {
			out.Close()
		}
	}()
	for r.Next() {
		rec := r.Record()
		switch rec.Kind {
		case sqltrace.KindExec:
			if t, cols := createColumns(rec.Exec.SQL); t != "" {
				m.schema[t] = cols
			}
		case sqltrace.KindData:
			if out == nil || outN != rec.Stream {
				if out != nil {
					out.Close()
				}
				name := filepath.Join(dir, fmt.Sprintf("mask-snapshot-%d.db", rec.Stream))
				if out, err = os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err != nil {
					return snaps, err
				}
				outN, snaps[rec.Stream] = rec.Stream, name
			}
			if _, err := out.Write(rec.Data); err != nil {
				return snaps, err
			}
		}
	}
	return snaps, r.Err()
}

// parse returns the statement's parse, once per text.
func (m *masker) parse(sql string) *Statement {
	if st, ok := m.parsed[sql]; ok {
		return st
	}
	st := Parse(sql, func(t string) []string { return m.schema[t] })
	if len(m.parsed) < 1<<16 {
		m.parsed[sql] = &st
	}
	return &st
}

// masked reports whether slot s lands in a masked column.
func (m *masker) masked(st *Statement, s Slot) bool {
	if s.Table != "" {
		return m.cols[s.Table+"."+s.Column]
	}
	for _, t := range st.Tables {
		if m.cols[t+"."+s.Column] {
			return true
		}
	}
	return false
}

// touches reports whether the statement names a table of a masked column.
func (m *masker) touches(st *Statement) bool {
	for _, t := range st.Tables {
		if m.tables[t] {
			return true
		}
	}
	return false
}

// collect adds the values an Exec puts in masked columns to seen.
func (m *masker) collect(e *sqltrace.Exec) {
	st := m.parse(e.SQL)
	for _, s := range st.Slots {
		if !m.masked(st, s) {
			continue
		}
		v, ok := m.slotValue(e, s)
		if k, kok := valueKey(v); ok && kok {
			m.seen[k] = true
		}
	}
}

// slotValue is the value of a slot: its parameter's, or its literal's.
func (m *masker) slotValue(e *sqltrace.Exec, s Slot) (sqltrace.Value, bool) {
	if s.Param > 0 {
		if s.Param > len(e.Params) {
			return sqltrace.Value{}, false
		}
		return e.Params[s.Param-1], true
	}
	return literalValue(e.SQL[s.Start:s.End])
}

// literalValue reads a literal's text as a value.
func literalValue(lit string) (sqltrace.Value, bool) {
	switch {
	case strings.HasPrefix(lit, "'"):
		_, v := quoted(lit, 0, '\'')
		return sqltrace.Value{Type: sqltrace.ValueText, Bytes: []byte(v)}, true
	case strings.HasPrefix(lit, "x'") || strings.HasPrefix(lit, "X'"):
		_, v := quoted(lit, 1, '\'')
		b, err := hex.DecodeString(v)
		return sqltrace.Value{Type: sqltrace.ValueBlob, Bytes: b}, err == nil
	}
	if n, err := strconv.ParseInt(strings.ReplaceAll(lit, "+", ""), 0, 64); err == nil {
		return sqltrace.Value{Type: sqltrace.ValueInt, Int: n}, true
	}
	if f, err := strconv.ParseFloat(lit, 64); err == nil {
		return sqltrace.Value{Type: sqltrace.ValueFloat, Float: f}, true
	}
	return sqltrace.Value{}, false
}

// literalText writes a value as a literal.
func literalText(v sqltrace.Value) string {
	switch v.Type {
	case sqltrace.ValueText:
		return "'" + strings.ReplaceAll(string(v.Bytes), "'", "''") + "'"
	case sqltrace.ValueBlob:
		return "X'" + hex.EncodeToString(v.Bytes) + "'"
	case sqltrace.ValueInt:
		return strconv.FormatInt(v.Int, 10)
	}
	return strconv.FormatFloat(v.Float, 'g', -1, 64)
}

// shouldMask reports whether a value not mapped to a masked column is
// masked all the same: it equals a masked column's value, and it is a text
// or a blob, or the statement names a masked table.
func (m *masker) shouldMask(v sqltrace.Value, touches bool) bool {
	k, ok := valueKey(v)
	return ok && m.seen[k] && (touches || v.Type == sqltrace.ValueText || v.Type == sqltrace.ValueBlob)
}

// exec masks an Exec's parameters and literals in place.
func (m *masker) exec(e *sqltrace.Exec) {
	st := m.parse(e.SQL)
	touches := m.touches(st)
	mapped := map[int]bool{}    // parameters
	mappedLit := map[int]bool{} // literals, by end
	for _, s := range st.Slots {
		if m.masked(st, s) {
			if s.Param > 0 {
				mapped[s.Param] = true
			} else {
				mappedLit[s.End] = true
			}
		}
	}
	for i, v := range e.Params {
		if mapped[i+1] || m.shouldMask(v, touches) {
			if nv := m.key.Value(v); nv.Type != sqltrace.ValueNull {
				e.Params[i] = nv
				m.stats.Params++
			}
		}
	}
	var b strings.Builder
	last := 0
	for _, l := range st.Literals {
		v, ok := literalValue(e.SQL[l.Start:l.End])
		if !ok || !mappedLit[l.End] && !m.shouldMask(v, touches) {
			continue
		}
		b.WriteString(e.SQL[last:l.Start])
		b.WriteString(literalText(m.key.Value(v)))
		last = l.End
		m.stats.Literals++
	}
	if last > 0 {
		b.WriteString(e.SQL[last:])
		e.SQL = b.String()
	}
}

// write copies the trace, masked, to out.
func (m *masker) write(in, dir string, out io.Writer, snaps map[uint64]string, cols []Column) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := sqltrace.NewWriter(out)
	if err != nil {
		return err
	}
	streams := map[uint64]*sqltrace.Stream{}
	stream := func(id uint64) *sqltrace.Stream {
		if s, ok := streams[id]; ok {
			return s
		}
		streams[id] = w.Stream(id)
		return streams[id]
	}
	written := map[uint64]bool{}
	paths := map[uint64]string{} // stream 0's databases
	r := sqltrace.NewReader(f)
	for r.Next() {
		rec := r.Record()
		switch rec.Kind {
		case sqltrace.KindData:
			if err := m.writeSnapshot(w, rec.Stream, snaps, written); err != nil {
				return err
			}
			continue
		case sqltrace.KindSnapshot:
			if name, ok := snaps[rec.Snapshot.Number]; ok {
				if fi, err := os.Stat(name); err == nil {
					rec.Snapshot.Size = uint64(fi.Size())
				}
			}
		case sqltrace.KindExec:
			m.exec(&rec.Exec)
		case sqltrace.KindDB:
			if rec.Stream == 0 {
				paths[rec.DB.ID] = rec.DB.Path
			}
		case sqltrace.KindDigest:
			m.digest(rec, paths, dir, cols)
		}
		if err := stream(rec.Stream).Write(rec); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.String()
	}
	note := sqltrace.MaskNote(strings.Join(names, ", "))
	if err := stream(0).Write(&sqltrace.Record{Kind: sqltrace.KindNote, Note: note}); err != nil {
		return err
	}
	return w.Close()
}

// digest replaces a database's digest at the end of the capture by its
// digest masked, or, when that cannot be read, drops the masked tables
// from it, saying so in its error.
func (m *masker) digest(rec *sqltrace.Record, paths map[uint64]string, dir string, cols []Column) {
	d := &rec.Digest
	if rec.Stream != 0 || d.Error != "" {
		return
	}
	tables, err := endDigest(paths[d.DB], dir, cols, m.key)
	if err == nil {
		d.Tables = tables
		return
	}
	kept := d.Tables[:0]
	for _, t := range d.Tables {
		if !m.tables[strings.ToLower(t.Name)] {
			kept = append(kept, t)
		}
	}
	d.Tables = kept
	d.Error = fmt.Sprintf("the masked tables' content at the end could not be read masked: %v", err)
	if len(d.Error) > 1000 {
		d.Error = d.Error[:1000]
	}
}

// writeSnapshot writes snapshot number's masked bytes, once.
func (m *masker) writeSnapshot(w *sqltrace.Writer, number uint64, snaps map[uint64]string, written map[uint64]bool) error {
	if written[number] {
		return nil
	}
	written[number] = true
	name, ok := snaps[number]
	if !ok {
		return errors.New("a snapshot that was not extracted")
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = w.WriteSnapshot(number, f)
	return err
}

// createColumns reads CREATE TABLE t (a ..., b ..., constraints): the
// table and its columns, in lower case, or "".
func createColumns(sql string) (string, []string) {
	toks := tokenize(sql)
	if len(toks) < 4 || toks[0].text != "create" {
		return "", nil
	}
	i := indexWord(toks, 0, "table")
	if i < 0 || i > 3 {
		return "", nil
	}
	name, j := qualifiedName(toks, i+1)
	if name == "" || j >= len(toks) || toks[j].text != "(" {
		return "", nil
	}
	var cols []string
	for j++; j < len(toks) && toks[j].text != ")"; {
		if t := toks[j]; isName(t) && !(t.kind == tokWord && tableConstraint[t.text]) {
			cols = append(cols, strings.ToLower(t.text))
		}
		j = skipExpr(toks, j)
		if j < len(toks) && toks[j].text == "," {
			j++
		}
	}
	return name, cols
}

var tableConstraint = map[string]bool{"constraint": true, "primary": true, "unique": true, "check": true, "foreign": true}
