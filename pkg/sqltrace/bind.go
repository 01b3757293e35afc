package sqltrace

import "database/sql/driver"

// Binding is how a captured statement's arguments bind again through
// database/sql/driver. A trace keeps the arguments by SQLite's parameter
// index (ParamIndex): "?" and "?NNN" by position, ":name", "@name" and
// "$name" too, whatever names the application bound them by. A driver
// binding a named parameter by its name only (modernc, which refuses
// "missing named argument" otherwise) needs each argument at a named
// parameter's index to carry that name; mattn binds an argument with a
// name by it, one without by its ordinal. Every path that runs a
// captured statement again through database/sql/driver binds through
// Bind: the replay's connections and the --crash rebuild's copy.
type Binding struct {
	// Count is the statement's parameters (sqlite3_bind_parameter_count).
	Count int
	names []string // names[i]: parameter i+1's name without its prefix, "" for ? and ?NNN
}

// NewBinding reads the parameters of the statement sql.
func NewBinding(sql string) Binding {
	names, count := ParamIndex(sql)
	b := Binding{Count: count, names: make([]string, count)}
	for name, i := range names {
		b.names[i-1] = name[1:]
	}
	return b
}

// Bind returns args (by SQLite's parameter index, as a trace keeps them)
// fitted to n parameters (FitArgs; n < 0: b.Count), each with its index as
// its Ordinal and, at a named parameter's index, the parameter's name
// without its prefix.
func (b Binding) Bind(args []any, n int) []driver.NamedValue {
	if n < 0 {
		n = b.Count
	}
	args = FitArgs(args, n)
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		if i < len(b.names) {
			out[i].Name = b.names[i]
		}
	}
	return out
}

// FitArgs pads args with NULLs (a parameter the application never bound
// is NULL) or cuts them to a statement's n parameters.
func FitArgs(args []any, n int) []any {
	if len(args) >= n {
		return args[:n]
	}
	out := make([]any, n)
	copy(out, args)
	return out
}
