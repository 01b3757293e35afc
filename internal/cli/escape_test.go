package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
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

// A plan file's command must be one of gobench's that write plans: a
// plan that names another ("../../../bin/sh") ran as a mix labelled so.
// Every command with --dry-run writes plans but run, which reads them.
func TestPlanCommandChecked(t *testing.T) {
	root := newRootCommand(&Env{})
	commands := planCommands(root)
	for _, c := range root.Commands() {
		if c.Flags().Lookup("dry-run") != nil && !slices.Contains(commands, c.Name()) && c.Name() != "run" {
			t.Errorf("%s has --dry-run and is not among the commands that write plans %v", c.Name(), commands)
		}
	}
	dir := t.TempDir()
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"mix", "--mode", "goroutine", "--driver", "map", "--queries", "10", "--dry-run"}, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	plan := filepath.Join(dir, "plan.json")
	lie := strings.Replace(stdout.String(), `"command": "mix"`, `"command": "../../../bin/sh"`, 1)
	if lie == stdout.String() {
		t.Fatal("no command in the plan")
	}
	if err := os.WriteFile(plan, []byte(lie), 0o644); err != nil {
		t.Fatal(err)
	}
	env, stdout, stderr = testEnv(t)
	if code := Main([]string{"run", plan}, env); code != ExitUsage || !strings.Contains(stderr.String(), `command "../../../bin/sh" is none of gobench's that write plans (want `+strings.Join(commands, ", ")+`)`) || stdout.Len() != 0 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
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
