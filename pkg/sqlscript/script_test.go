package sqlscript

import (
	"errors"
	"strings"
	"testing"
)

const userScript = `-- a lookup, then a write in one transaction
\set uid random(1, 1000 * :scale)
\set token random_text(16)
SELECT name, email
  FROM users WHERE id = :uid;   -- trailing comment: ; and :nope are no code
BEGIN IMMEDIATE;
/* a block comment; with :nothing */
INSERT INTO sessions(user_id, token, note)
VALUES (:uid, :token, 'it''s 12:30; not a :param');
UPDATE users SET "last:seen" = :uid, [odd;name] = 1 WHERE id = :uid;
COMMIT
`

func TestParse(t *testing.T) {
	t.Parallel()
	s, err := Parse("examples/sql/users.sql", userScript, 3)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "users" || s.Weight != 3 || len(s.Commands) != 7 {
		t.Fatalf("script %q weight %d, %d commands", s.Name, s.Weight, len(s.Commands))
	}
	want := []struct {
		line   int
		set    string
		sql    string
		params string
	}{
		{2, "uid", "", ""},
		{3, "token", "", ""},
		{4, "", "SELECT name, email\n  FROM users WHERE id = :uid", "uid"},
		{6, "", "BEGIN IMMEDIATE", ""},
		{8, "", "INSERT INTO sessions(user_id, token, note)\nVALUES (:uid, :token, 'it''s 12:30; not a :param')", "uid,token"},
		{10, "", `UPDATE users SET "last:seen" = :uid, [odd;name] = 1 WHERE id = :uid`, "uid"},
		{11, "", "COMMIT", ""},
	}
	for i, w := range want {
		c := s.Commands[i]
		switch {
		case c.Line != w.line:
			t.Errorf("command %d on line %d, want %d", i, c.Line, w.line)
		case w.set != "" && (c.Set == nil || c.Set.Name != w.set):
			t.Errorf("command %d: %+v, want \\set %s", i, c, w.set)
		case w.sql != "" && (c.SQL == nil || c.SQL.Text != w.sql || strings.Join(c.SQL.Params, ",") != w.params):
			t.Errorf("command %d: %+v, want %q with %q", i, c.SQL, w.sql, w.params)
		}
	}
	// Evaluating the \sets gives every parameter a value.
	st := NewState(1, 7, 2)
	for _, c := range s.Commands {
		if c.Set != nil {
			if err := c.Set.Eval(st); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := make([]any, 2)
	err = s.Commands[4].SQL.Bind(st, args)
	if aid, ok := args[0].(int64); err != nil || !ok || aid < 1 || aid > 2000 {
		t.Errorf("args %v, %v", args, err)
	}
	if text, ok := args[1].(string); !ok || len(text) != 16 {
		t.Errorf("args %v: want a text of 16 characters", args)
	}
}

// Every bad script is refused with its file and line before anything
// runs.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src  string
		want string
	}{
		{"SELECT 1;\nSELECT :aid;", "s.sql:2: unknown variable :aid"},
		{"\\set a :b + 1\nSELECT :a;", "s.sql:1: unknown variable :b"},
		{"SELECT :a;\n\\set a 1", "s.sql:1: unknown variable :a"},
		{"\\set a random(1,\nSELECT 1;", "s.sql:1: \\set a: expression"},
		{"\\set a nosuch(1)\nSELECT 1;", "s.sql:1: \\set a: unknown function nosuch"},
		{"\\set a random(1)\nSELECT 1;", "s.sql:1: \\set a: random takes 2 arguments, not 1"},
		{"\\set a 1 +\nSELECT 1;", "ends where a value should be"},
		{"\\set a 12abc\nSELECT 1;", `"12abc" is not a number`},
		{"\\set 9a 1\nSELECT 1;", "needs a variable name"},
		{"\\set a\nSELECT 1;", "\\set a has no expression"},
		{"\\sleep 10 ms\nSELECT 1;", "s.sql:1: unknown meta-command \\sleep"},
		{"-- nothing\n\\set a 1\n", "s.sql:3: the script has no SQL statement"},
		{"", "s.sql:1: the script has no SQL statement"},
		{"SELECT 1;\nSELECT 'open;\n", "s.sql:3: a ' opened on line 2 is not closed"},
		{"SELECT 1 /* open", "a /* comment is not closed"},
		{"SELECT ?;", "s.sql:1: parameter \"?;\": scripts bind parameters by name"},
		{"\n\nSELECT @aid;", "s.sql:3: parameter"},
	} {
		_, err := Parse("s.sql", tt.src, 1)
		var se *Error
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want an *Error with %q", tt.src, err, tt.want)
		}
	}
}

func TestParseArg(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		arg, file string
		weight    int
		err       string
	}{
		{"read.sql", "read.sql", 1, ""},
		{"read.sql@9", "read.sql", 9, ""},
		{"dir@x/read.sql@2", "dir@x/read.sql", 2, ""},
		{"read.sql@0", "", 0, "above 0"},
		{"read.sql@-1", "", 0, "above 0"},
		{"read.sql@many", "", 0, "whole number"},
		{"@3", "", 0, "no file named"},
	} {
		file, w, err := ParseArg(tt.arg)
		if file != tt.file || w != tt.weight || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseArg(%q) = %q, %d, %v", tt.arg, file, w, err)
		}
	}
}

// FuzzParse: no script makes Parse panic, and what it accepts has a
// statement, every statement text, and every parameter known.
func FuzzParse(f *testing.F) {
	f.Add(userScript)
	f.Add("\\set a random_zipfian(1, :scale, 1.5)\nSELECT :a; SELECT 'x;y' -- c\n")
	f.Add("SELECT [a;b], \"c:d\", `e;f` /* ; */;")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("f.sql", src, 1)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		sql := 0
		known := map[string]bool{VarClientID: true, VarScale: true, VarDefaultSeed: true}
		for _, c := range s.Commands {
			if c.Set != nil {
				known[c.Set.Name] = true
				continue
			}
			sql++
			if strings.TrimSpace(c.SQL.Text) == "" {
				t.Fatalf("empty statement on line %d", c.Line)
			}
			for _, p := range c.SQL.Params {
				if !known[p] {
					t.Fatalf("parameter :%s accepted unset", p)
				}
			}
		}
		if sql == 0 {
			t.Fatal("a script without SQL accepted")
		}
	})
}

// A script's commands find their variables again in each new State they
// run with: one parsed script, run with two States in turn, gives each
// State its own values.
func TestScriptAcrossStates(t *testing.T) {
	t.Parallel()
	s, err := Parse("two.sql", "\\set a :client_id * 10\n\\set b :a + 1\nSELECT :b, :a;", 1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(st *State) []any {
		for _, c := range s.Commands[:2] {
			if err := c.Set.Eval(st); err != nil {
				t.Fatal(err)
			}
		}
		args := make([]any, 2)
		if err := s.Commands[2].SQL.Bind(st, args); err != nil {
			t.Fatal(err)
		}
		return args
	}
	one, two := NewState(1, 1, 1), NewState(1, 2, 1)
	two.Set("unrelated", IntValue(5)) // the States' slots differ
	for range 2 {
		if got := run(one); got[0] != int64(11) || got[1] != int64(10) {
			t.Fatalf("worker 1: %v, want [11 10]", got)
		}
		if got := run(two); got[0] != int64(21) || got[1] != int64(20) {
			t.Fatalf("worker 2: %v, want [21 20]", got)
		}
	}
}

// A script writes unless every statement is a query or a transaction's
// own step; a WITH is taken as a write.
func TestScriptWrites(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"SELECT v FROM kv WHERE k = 1;", false},
		{"BEGIN;\nselect 1;\n-- a comment\n/* more */ (SELECT 2);\nEND;", false},
		{"\\set k random(1, 10)\nSELECT v FROM kv WHERE k = :k;", false},
		{"BEGIN;\nUPDATE kv SET v = 1;\nCOMMIT;", true},
		{"SELECT 1;\ninsert into kv values (1, 2);", true},
		{"WITH x AS (SELECT 1) SELECT * FROM x;", true},
		{"/* x */ DELETE FROM kv;", true},
		{"( -- a comment inside\n SELECT 1);", false},
	} {
		sc, err := Parse("s.sql", tt.src, 1)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if got := sc.Writes(); got != tt.want {
			t.Errorf("Writes(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}
