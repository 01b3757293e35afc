package cli

import (
	"os"
	"path/filepath"
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
