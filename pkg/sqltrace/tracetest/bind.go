package tracetest

// BindSchema creates the table the BindCases insert into.
const BindSchema = "CREATE TABLE b (name TEXT PRIMARY KEY, a, b, c)"

// BindCase is a statement that inserts one row, named Name, into
// BindSchema's table, its arguments as a trace keeps them (by SQLite's
// parameter index, whatever names the application bound them by), and
// the row's a, b and c it must write.
type BindCase struct {
	Name, SQL  string
	Args, Want []any
}

// BindCases are a captured statement's parameters in each form SQLite
// takes ("?", "?NNN", ":name", "@name", "$name", a mix, some unbound),
// for tests that run a trace's statements again.
func BindCases() []BindCase {
	return []BindCase{
		{"positional", "INSERT INTO b VALUES ('positional', ?, ?, ?)", []any{int64(1), "x", 2.5}, []any{int64(1), "x", 2.5}},
		{"numbered", "INSERT INTO b VALUES ('numbered', ?3, ?1, ?2)", []any{"x", "y", "z"}, []any{"z", "x", "y"}},
		{"colon", "INSERT INTO b VALUES ('colon', :u, :v, :u)", []any{int64(7), "v"}, []any{int64(7), "v", int64(7)}},
		{"at", "INSERT INTO b VALUES ('at', @u, @v, NULL)", []any{int64(7), "v"}, []any{int64(7), "v", nil}},
		{"dollar", "INSERT INTO b VALUES ('dollar', $u, $v, $_w)", []any{int64(7), "v", "w"}, []any{int64(7), "v", "w"}},
		{"mix", "INSERT INTO b VALUES ('mix', ?, :u, ?4)", []any{int64(1), "u", nil, "four"}, []any{int64(1), "u", "four"}},
		{"unbound", "INSERT INTO b VALUES ('unbound', :u, :v, ?)", []any{"u"}, []any{"u", nil, nil}},
	}
}
