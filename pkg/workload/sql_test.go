package workload

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
)

// sqlPlan is a sql workload of the given scripts (name.sql → text, weight
// 1 each, in order) on a new SQLite file, with a counter table.
func sqlPlan(t *testing.T, workers int, scripts ...string) *Plan {
	t.Helper()
	p := DefaultPlan()
	p.Driver = sqlite.Modernc().Name()
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "sql.db"), Options: sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 10_000}.Encode()}
	p.Preload = 0
	p.Procs, p.Goroutines = 1, workers
	p.SQL = &SQL{Scale: 1, Schema: &SQLFile{File: "schema.sql", Text: `
		CREATE TABLE counter (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
		INSERT INTO counter VALUES (1, 0);
		CREATE TABLE log (worker INTEGER, x INTEGER);`}}
	for i := 0; i+1 < len(scripts); i += 2 {
		p.SQL.Scripts = append(p.SQL.Scripts, SQLFile{File: scripts[i], Text: scripts[i+1], Weight: 1})
	}
	p.Phases[0].Name, p.Phases[0].Ops, p.Phases[0].Mix = "sql", 200, p.SQL.Mix()
	return &p
}

func TestSQLValidate(t *testing.T) {
	t.Parallel()
	const ok = "SELECT 1;"
	for _, tt := range []struct {
		name  string
		edit  func(p *Plan)
		error string
	}{
		{"valid", func(*Plan) {}, ""},
		{"no scripts", func(p *Plan) { p.SQL.Scripts = nil }, "at least one script"},
		{"weight 0", func(p *Plan) { p.SQL.Scripts[0].Weight = 0 }, "weight 0 is out of range"},
		{"same names", func(p *Plan) { p.SQL.Scripts[1].File = "dir/a.sql" }, "have the same name, a"},
		{"name of a figure", func(p *Plan) { p.SQL.Scripts[0].File = "total.sql" }, `"total" names a figure`},
		{"name with a space", func(p *Plan) { p.SQL.Scripts[0].File = "my script.sql" }, "cannot name an op kind"},
		{"parse error", func(p *Plan) { p.SQL.Scripts[1].Text = "SELECT :nope;" }, "b.sql:1: unknown variable :nope"},
		{"schema parse error", func(p *Plan) { p.SQL.Schema.Text = `\set x 1 +` }, "schema.sql:1:"},
		{"scale 0", func(p *Plan) { p.SQL.Scale = 0 }, "scale 0 is out of range"},
		{"unknown check", func(p *Plan) { p.SQL.Check = "acid" }, `unknown check "acid"`},
		{"check with skipped ops", func(p *Plan) {
			p.SQL.Check, p.Rate, p.LatencyLimit, p.SkipLate = CheckTPCB, 100, Duration(1e6), true
		}, "cannot run with ops skipped"},
		{"preload", func(p *Plan) { p.Preload = 10 }, "preloads nothing"},
		{"verify", func(p *Plan) { p.Verify = true }, "not --verify"},
		{"batch", func(p *Plan) { p.Phases[0].Batch = 10 }, "one script per transaction"},
		{"a kv op among scripts", func(p *Plan) { p.Phases[0].Mix = Mix{{ScriptOp(0), 1}, {OpRead, 1}} }, "not both"},
		{"a script the plan lacks", func(p *Plan) { p.Phases[0].Mix = Mix{{ScriptOp(0), 1}, {ScriptOp(2), 1}} }, "not one of the plan's 2 scripts"},
		{"scripts without SQL", func(p *Plan) { p.SQL = nil }, "the plan has no scripts"},
		{"too many scripts", func(p *Plan) {
			for i := range MaxScripts {
				p.SQL.Scripts = append(p.SQL.Scripts, SQLFile{File: string(rune('c'+i)) + ".sql", Text: ok, Weight: 1})
			}
		}, "more than the 16 a run can have"},
		{"too many statements", func(p *Plan) { p.SQL.Scripts[0].Text = strings.Repeat(ok, MaxStatements+1) }, "more than the 80 a run can have"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := sqlPlan(t, 1, "a.sql", ok, "b.sql", ok)
			tt.edit(p)
			err := p.Validate()
			if (tt.error == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.error) {
				t.Fatalf("Validate() = %v, want %q", err, tt.error)
			}
		})
	}
}

// Results name scripts after their files and statements SCRIPT#LINE;
// scripts are data ops, statements markers.
func TestOpNames(t *testing.T) {
	t.Parallel()
	p := sqlPlan(t, 1, "dir/lookup.sql", "\\set id 1\nSELECT :id;", "write.sql", "BEGIN IMMEDIATE;\n\nUPDATE counter SET v = v + 1;\nCOMMIT;")
	names := p.OpNames()
	for op, want := range map[Op]string{ScriptOp(0): "lookup", ScriptOp(1): "write", StatementOp(0): "lookup#2",
		StatementOp(1): "write#1", StatementOp(2): "write#3", StatementOp(3): "write#4", OpRead: "read"} {
		if names[op] != want {
			t.Errorf("name of %v = %q, want %q", op, names[op], want)
		}
	}
	for kind, data := range map[string]bool{"lookup": true, "write": true, "read": true, "write#3": false, "commit": false, "nosuch": false} {
		if p.IsDataKind(kind) != data {
			t.Errorf("IsDataKind(%q) = %v, want %v", kind, !data, data)
		}
		if marker := kind == "write#3" || kind == "commit"; IsMarkerKind(kind) != marker {
			t.Errorf("IsMarkerKind(%q) = %v, want %v", kind, !marker, marker)
		}
	}
	if op, err := ParseOp(ScriptOp(3).String()); err != nil || op != ScriptOp(3) {
		t.Errorf("ParseOp(%q) = %v, %v", ScriptOp(3), op, err)
	}
}

func TestBuiltinSQL(t *testing.T) {
	t.Parallel()
	for _, name := range BuiltinNames() {
		s, err := BuiltinSQL(name, 3)
		if err != nil {
			t.Fatal(err)
		}
		p := sqlPlan(t, 1)
		p.SQL, p.Phases[0].Mix = s, s.Mix()
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if names := p.OpNames(); names[ScriptOp(0)] != name || (s.Check == CheckTPCB) != (name == BuiltinTPCBLike) {
			t.Errorf("%s: named %q, check %q", name, names[ScriptOp(0)], s.Check)
		}
	}
	if _, err := BuiltinSQL("tpcc", 1); err == nil {
		t.Error("an unknown built-in was accepted")
	}
}

// The built-in schema drops and creates the tables BuiltinTables names,
// and no other, each CREATE TABLE marked as gobench's own: the store
// refuses a database with another program's table of one of the names
// (store.Config.Replaces) and replaces only marked ones.
func TestBuiltinSchemaMarksItsTables(t *testing.T) {
	w, err := BuiltinSQL(BuiltinTPCBLike, 1)
	if err != nil {
		t.Fatal(err)
	}
	var dropped, created []string
	for _, line := range strings.Split(w.Schema.Text, "\n") {
		if name, ok := strings.CutPrefix(line, "DROP TABLE IF EXISTS "); ok {
			dropped = append(dropped, strings.TrimSuffix(name, ";"))
		}
		if rest, ok := strings.CutPrefix(line, "CREATE TABLE "); ok {
			name, mark, _ := strings.Cut(rest, " ")
			if !strings.HasPrefix(mark, store.OwnMark+" (") {
				t.Errorf("CREATE TABLE %s carries no mark: %s", name, line)
			}
			created = append(created, name)
		}
	}
	want := BuiltinTables()
	slices.Sort(want)
	slices.Sort(dropped)
	slices.Sort(created)
	if !slices.Equal(dropped, want) || !slices.Equal(created, want) {
		t.Errorf("the schema drops %v and creates %v; BuiltinTables says %v", dropped, created, want)
	}
}
