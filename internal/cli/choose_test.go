package cli

import (
	"strings"
	"testing"
)

// choose's bad input is one line, exit 2, naming what a choice takes: an
// unknown --format lists a choice's formats, not every report's; a --json
// that cannot be written is said once, not once per candidate.
func TestChooseBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, `unknown format "xml" for a choice (want one of html, json, markdown, text)`},
		{[]string{"--format", "csv"}, `unknown format "csv" for a choice`},
		{[]string{"--keep", "bogus"}, `--keep "bogus": want acked, process-crash, none`},
		{[]string{"--driver", "bbolt", "--budget", "10m", "--json", dir}, "--json " + dir + ": " + dir + " is a directory"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			env, stdout, stderr := testEnv(t)
			if code := Main(append([]string{"choose"}, tt.args...), env); code != ExitUsage {
				t.Fatalf("exit %d, want %d: %s", code, ExitUsage, stderr)
			}
			if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tt.want) {
				t.Errorf("stderr %q, want one line holding %q", msg, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %s", stdout)
			}
		})
	}
}
