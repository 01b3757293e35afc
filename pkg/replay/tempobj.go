package replay

import (
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// tempObjects are the temporary tables, views, triggers and indexes one
// captured connection made (CREATE TEMP …, CREATE … temp.name, an index
// on one of them), by name: they are the connection's own, so a
// statement that drops one, or indexes one, is the connection's too and
// is not run first on the replay's own connection (hoisted), where the
// object does not exist.
type tempObjects map[string]bool

// schemaKinds are the objects a CREATE or DROP names.
var schemaKinds = map[string]bool{"table": true, "view": true, "trigger": true, "index": true}

// objectOf reads schema statement s: its verb (create, drop, alter),
// whether it says the object is temporary, the object's name and, for
// an index, a trigger or a view, the table after its first ON ("" when
// not read).
func objectOf(s string) (verb string, temp bool, name, on string) {
	words := strings.Fields(strings.ToLower(prefix(strings.TrimSpace(s), 300)))
	if len(words) < 3 {
		return "", false, "", ""
	}
	verb, i := words[0], 1
	if words[i] == "temp" || words[i] == "temporary" {
		temp, i = true, i+1
	}
	if i < len(words) && words[i] == "unique" {
		i++
	}
	if i >= len(words) || !schemaKinds[words[i]] {
		return verb, temp, "", ""
	}
	kind := words[i]
	i++
	for _, w := range []string{"if", "not", "exists"} {
		if i < len(words) && words[i] == w {
			i++
		}
	}
	if i >= len(words) {
		return verb, temp, "", ""
	}
	name = unquoteName(words[i])
	if n, ok := strings.CutPrefix(name, "temp."); ok {
		temp, name = true, n
	}
	if kind != "table" { // an index's, a trigger's table; a view's first joined: one temporary makes them temporary
		if j := slices.Index(words[i+1:], "on"); j >= 0 && i+j+2 < len(words) {
			on = unquoteName(words[i+j+2])
		}
	}
	return verb, temp, name, on
}

// nameQuotes takes the quotes out of an object's name, and the ";" that
// ends a statement split from a text of several.
var nameQuotes = strings.NewReplacer(`"`, "", "`", "", "[", "", "]", "", ";", "")

// unquoteName returns a word of a statement as the object's name: without
// what follows it ("t(x)"), its quotes, or a schema "main.".
func unquoteName(w string) string {
	w, _, _ = strings.Cut(w, "(")
	w = nameQuotes.Replace(w)
	return strings.TrimPrefix(w, "main.")
}

// owns notes statement s, which succeeded on the connection, and
// reports whether it is of one of the connection's temporary objects:
// one it makes, drops, alters or indexes.
func (t tempObjects) owns(s string) bool {
	verb, temp, name, on := objectOf(s)
	if name == "" {
		return false
	}
	mine := temp || t[name] || on != "" && t[on]
	switch {
	case verb == "create" && mine:
		t[name] = true
	case verb == "drop" && mine:
		delete(t, name)
	}
	return mine
}

// connTemps are the temporary objects of each captured connection, by
// (stream, connection).
type connTemps map[[2]uint64]tempObjects

// of returns the temporary objects of connection key.
func (c connTemps) of(key [2]uint64) tempObjects {
	t := c[key]
	if t == nil {
		t = tempObjects{}
		c[key] = t
	}
	return t
}

// tempDef is the CREATE statement of a connection's temporary object.
type tempDef struct{ name, on, sql string }

// tempDefs follows the temporary objects of one captured connection, live
// as its statements run, and the statements that made them: a slice's
// or a window's part of the connection, a fresh connection, makes those
// live at its start first (Statement.Setup), schema only.
type tempDefs struct {
	names tempObjects
	defs  []tempDef
}

// note notes statement e of the connection: what it made or dropped of
// its temporary objects, if it succeeded and its text is whole.
func (t *tempDefs) note(e *sqltrace.Exec) {
	if e.Code != 0 || e.Flags&sqltrace.FlagCut != 0 || !isSchema(e.SQL) {
		return
	}
	if t.names == nil {
		t.names = tempObjects{}
	}
	for _, s := range sqltrace.SplitStatements(e.SQL) {
		verb, _, name, on := objectOf(s)
		if !t.names.owns(s) {
			continue
		}
		switch {
		case verb == "create" && len(t.defs) < maxSchema:
			t.defs = append(t.defs, tempDef{name: name, on: on, sql: strings.TrimSpace(s)})
		case verb == "drop": // and what was made on it
			t.defs = slices.DeleteFunc(t.defs, func(d tempDef) bool { return d.name == name || d.on == name })
		}
	}
}

// live returns the CREATE statements of the temporary objects live now,
// in the order they were made (nil: none).
func (t *tempDefs) live() []string {
	var out []string
	for _, d := range t.defs {
		out = append(out, d.sql)
	}
	return out
}
