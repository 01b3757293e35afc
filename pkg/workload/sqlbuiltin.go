package workload

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

//go:embed builtin/*.sql
var builtinFiles embed.FS

// Built-in sql workloads (see BuiltinSQL): pgbench's, on its own tables.
const (
	BuiltinTPCBLike   = "tpcb-like"
	BuiltinSelectOnly = "select-only"
)

// BuiltinNames lists the built-in sql workloads.
func BuiltinNames() []string { return []string{BuiltinTPCBLike, BuiltinSelectOnly} }

// BuiltinTables names the tables the built-in workloads' schema drops and
// creates, each marked as gobench's own (store.OwnMark): a plan of a
// built-in workload lists them in its store's Replaces, so that a
// database holding another program's table of one of these names is
// refused, not emptied.
func BuiltinTables() []string {
	return []string{"pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"}
}

// BuiltinSQL returns a built-in sql workload at scale: pgbench's tables
// (scale × 100,000 accounts) as its schema and its script. tpcb-like
// checks TPC-B's invariant after the run (CheckTPCB).
func BuiltinSQL(name string, scale int64) (*SQL, error) {
	if !slices.Contains(BuiltinNames(), name) {
		return nil, fmt.Errorf("unknown built-in workload %q (want %s)", name, strings.Join(BuiltinNames(), " or "))
	}
	schema, err := builtinSource("pgbench-schema")
	if err != nil {
		return nil, err
	}
	script, err := builtinSource(name)
	if err != nil {
		return nil, err
	}
	s := &SQL{Scripts: []SQLFile{script}, Schema: &schema, Scale: scale}
	if name == BuiltinTPCBLike {
		s.Check = CheckTPCB
	}
	return s, nil
}

// builtinSource reads an embedded script.
func builtinSource(name string) (SQLFile, error) {
	b, err := builtinFiles.ReadFile("builtin/" + name + ".sql")
	if err != nil {
		return SQLFile{}, fmt.Errorf("built-in %s: %w", name, err)
	}
	return NewSQLFile(name+".sql", string(b), 1), nil
}
