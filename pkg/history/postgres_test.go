package history

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"testing"
)

// startPostgres starts a PostgreSQL server of its own in a temporary
// directory, listening on a Unix socket there only, and returns its URL;
// the server stops with the test. It skips the test, saying why, where
// initdb and pg_ctl are not installed or, run as root (whom postgres
// refuses), no user postgres or nobody can run them.
func startPostgres(t *testing.T) string {
	t.Helper()
	initdb, err1 := lookPG("initdb")
	pgctl, err2 := lookPG("pg_ctl")
	if err1 != nil || err2 != nil {
		t.Skip("PostgreSQL's initdb and pg_ctl are not installed (Debian's postgresql package): the history's PostgreSQL test is skipped")
	}
	dir := t.TempDir()
	var asUser []string
	if os.Geteuid() == 0 {
		runuser, err := exec.LookPath("runuser")
		name := "postgres"
		u, uerr := user.Lookup(name)
		if uerr != nil {
			name = "nobody"
			u, uerr = user.Lookup(name)
		}
		if err != nil || uerr != nil {
			t.Skip("running as root, and no runuser or no user postgres or nobody to run PostgreSQL as: the history's PostgreSQL test is skipped")
		}
		asUser = []string{runuser, "-u", name, "--"}
		own(t, dir, u)
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{data, sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if len(asUser) > 0 {
		u, _ := user.Lookup(asUser[2])
		own(t, dir, u)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		if len(asUser) > 0 {
			cmd = exec.Command(asUser[0], append(asUser[1:], args...)...)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	run(initdb, "-D", data, "-U", "gobench", "-A", "trust", "--no-sync", "-E", "UTF8")
	run(pgctl, "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", "-k "+sock+" -c listen_addresses= -p 5432 -c fsync=off", "start")
	t.Cleanup(func() { run(pgctl, "-D", data, "-m", "immediate", "-w", "stop") })
	return "postgres://gobench@/postgres?host=" + sock + "&port=5432&sslmode=disable"
}

// lookPG finds a PostgreSQL program on PATH, or where Debian's
// postgresql package puts it (/usr/lib/postgresql/VERSION/bin, off PATH).
func lookPG(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	found, _ := filepath.Glob(filepath.Join("/usr/lib/postgresql", "*", "bin", name))
	if len(found) == 0 {
		return "", exec.ErrNotFound
	}
	slices.Sort(found)
	return found[len(found)-1], nil
}

// own gives dir and everything in it to u, and lets u through dir's
// parent (the test's temporary directory).
func own(t *testing.T, dir string, u *user.User) {
	t.Helper()
	var uid, gid int
	if _, err := fmt.Sscan(u.Uid, &uid); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscan(u.Gid, &gid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chown(p, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHistoryPostgres: the same runs added to a history on a real
// PostgreSQL server give the same series and change points, byte for
// byte in JSON, as the SQLite file.
func TestHistoryPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: the full tier")
	}
	dsn := startPostgres(t)
	pg := historyScenario(t, dsn)
	lite := historyScenario(t, filepath.Join(t.TempDir(), "h.db"))
	for fig := range lite {
		a, _ := json.Marshal(lite[fig])
		b, _ := json.Marshal(pg[fig])
		if string(a) != string(b) {
			t.Errorf("%s: PostgreSQL's series differ from SQLite's:\n%s\n%s", fig, b, a)
		}
	}
}
