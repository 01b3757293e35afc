package cli

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/mattn/go-sqlite3"

	"github.com/gobench/gobench/pkg/capture"
)

// Messages on stderr show the control characters of what they quote (a
// property's name, a file's, a flag's value) as %q would: no terminal
// clears its screen or retitles its window for a name gobench prints.
func TestMessagesShowControlCharacters(t *testing.T) {
	dir := t.TempDir()
	evil := "x\x1b]0;pwned\a\x1b[2J\r\x00"
	props := filepath.Join(dir, "w.properties")
	if err := os.WriteFile(props, []byte("recordcount=10\n"+strings.NewReplacer("\x00", "", "\r", "").Replace(evil)+"=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"ycsb", "run", "a", "-p", evil + "=1"},
		{"ycsb", "run", props},
		{"sql", "--file", filepath.Join(dir, evil+".sql")},
		{"mix", "--mix", "read=95," + evil + "=5"},
		{"report", filepath.Join(dir, evil+".json")},
	} {
		env, _, stderr := testEnv(t)
		code := Main(args, env)
		out := stderr.String()
		if code != ExitUsage || !strings.Contains(out, `\x1b]0;pwned\a\x1b[2J`) {
			t.Errorf("%q: exit %d, stderr %q: want exit 2 and the name shown escaped", args, code, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) && r != '\n' && r != '\t' {
				t.Errorf("%q: control character %q on stderr: %q", args, r, out)
				break
			}
		}
	}
}

// A plan file's command must be one of gobench's that write plans, and
// the one that made its cells: a plan that names another
// ("../../../bin/sh", or ycsb over a mix's cells) ran as a mix labelled
// so. Every command with --dry-run writes plans but run, which reads
// them; each one's plan runs under its own name and is refused under the
// name of every command whose cells deal their ops otherwise.
func TestPlanCommandChecked(t *testing.T) {
	root := newRootCommand(&Env{})
	commands := planCommands(root)
	names := slices.Sorted(maps.Keys(commands))
	for _, c := range root.Commands() {
		if _, ok := commands[c.Name()]; c.Flags().Lookup("dry-run") != nil && !ok && c.Name() != "run" {
			t.Errorf("%s has --dry-run and is not among the commands that write plans %v", c.Name(), names)
		}
	}
	dir := t.TempDir()
	small := map[string][]string{
		"mix":    {"mix", "--mode", "goroutine", "--driver", "map", "--queries", "10"},
		"ycsb":   {"ycsb", "run", "a", "-p", "recordcount=10", "-p", "operationcount=10"},
		"sql":    {"sql", "--builtin", "select-only", "--queries", "10"},
		"crud":   {"crud", "--rows", "100"},
		"blob":   {"blob", "--count", "10"},
		"replay": {"replay", captureTrace(t, dir)},
	}
	plans := map[string]string{}
	for _, name := range names {
		args, ok := small[name]
		if !ok {
			t.Errorf("no plan of %s in this test: add its command line", name)
			continue
		}
		env, stdout, stderr := testEnv(t)
		if code := Main(append(args, "--dry-run"), env); code != ExitOK {
			t.Fatalf("%s --dry-run: exit %d: %s", name, code, stderr)
		}
		plans[name] = stdout.String()
	}
	runPlan := func(text string) (int, string) {
		plan := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(plan, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		env, stdout, stderr := testEnv(t)
		code := Main([]string{"run", plan, "--dry-run"}, env)
		if code != ExitOK && stdout.Len() != 0 {
			t.Errorf("a refused plan wrote %q", stdout)
		}
		return code, stderr.String()
	}
	relabel := func(text, from, to string) string {
		lie := strings.Replace(text, fmt.Sprintf("%q: %q", "command", from), fmt.Sprintf("%q: %q", "command", to), 1)
		if lie == text {
			t.Fatalf("no command %q in the plan", from)
		}
		return lie
	}
	want := `command "../../../bin/sh" is none of gobench's that write plans (want ` + strings.Join(names, ", ") + `)`
	if code, stderr := runPlan(relabel(plans["mix"], "mix", "../../../bin/sh")); code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("../../../bin/sh: exit %d, stderr %q", code, stderr)
	}
	for from, text := range plans {
		if code, stderr := runPlan(text); code != ExitOK {
			t.Errorf("%s's own plan: exit %d: %s", from, code, stderr)
		}
		for _, to := range names {
			if commands[to] == commands[from] {
				continue
			}
			want := fmt.Sprintf("deals its ops from %s, and gobench %s's from %s: the plan's command is not the one that made its cells", commands[from], to, commands[to])
			if code, stderr := runPlan(relabel(text, from, to)); code != ExitUsage || !strings.Contains(stderr, want) {
				t.Errorf("%s's plan labelled %s: exit %d, stderr %q", from, to, code, stderr)
			}
		}
	}
}

// captureTrace writes, through capture's database/sql wrapper, the trace
// of a small program (a table, three rows, a query) in dir, and returns
// its path.
func captureTrace(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "app.trace")
	c, err := capture.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	name := "sqlite3-captured-" + t.Name()
	sql.Register(name, c.Driver(&sqlite3.SQLiteDriver{}))
	db, err := sql.Open(name, filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range []string{"CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO users (name) VALUES ('ann'), ('bob'), ('cid')", "SELECT count(*) FROM users"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A record table SQLite keeps for itself is refused up front (exit 2),
// as a plan: it failed at setup, exit 1.
func TestReservedTableRefused(t *testing.T) {
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"ycsb", "run", "a", "-p", "table=sqlite_master", "--dry-run"}, env); code != ExitUsage || stdout.Len() != 0 ||
		!strings.Contains(stderr.String(), `record table "sqlite_master": names beginning with sqlite_ are SQLite's own`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
