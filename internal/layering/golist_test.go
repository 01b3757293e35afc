package layering

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// goList runs go list with args and returns its standard output. The
// user's GOFLAGS are cleared for the call: a flag there such as -json
// changes or refuses the output the tests parse. A go list that fails
// fails the test, with what it said; only a machine without the go
// command skips it (a test binary run on its own, away from a toolchain).
func goList(t *testing.T, args ...string) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list packages with: %v", err)
	}
	cmd := exec.Command(goCmd, append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}
