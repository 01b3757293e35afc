package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// mknod makes a character device node in the test's own directory, as
// /dev/null (1, 3) or /dev/full (1, 7) are, or skips the test where the
// process may not (mknod needs CAP_MKNOD).
func mknod(t *testing.T, path string, major, minor uint32) uint64 {
	t.Helper()
	dev := unix.Mkdev(major, minor)
	if err := unix.Mknod(path, syscall.S_IFCHR|0o666, int(dev)); err != nil {
		t.Skipf("cannot make a device node here: %v", err)
	}
	return dev
}

// devOf returns the device number of a character device node, or fails.
func devOf(t *testing.T, path string) uint64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR {
		t.Fatalf("%s is no longer a character device: mode %o, %v", path, st.Mode, err)
	}
	return st.Rdev
}

// A character device is written through and stays the device it was: the
// null device swallows the output (exit 0); the full device is refused
// before the run (exit 2; its ENOSPC failed the command once the run was
// over), and as capture's --out before the program runs. Both used to be replaced by a regular file, with exit 0.
func TestOutputDevices(t *testing.T) {
	dir := t.TempDir()
	null, full := filepath.Join(dir, "null"), filepath.Join(dir, "full")
	nullDev, fullDev := mknod(t, null, 1, 3), mknod(t, full, 1, 7)
	for _, args := range [][]string{
		{"report", fixture, "-o", null},
		{"merge", fixture, "-o", null},
		{"mix", "--driver", "null", "--queries", "10", "--procs", "1", "--mode", "goroutine", "-q", "--json", null, "--html", null, "--hlog", null},
	} {
		if code, errs := runOut(t, args...); code != ExitOK {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
		if devOf(t, null) != nullDev {
			t.Fatalf("%v: the null device node changed", args)
		}
	}
	// The full device is refused before anything runs (it failed once
	// the whole run was over): exit 2, one line, naming the flag.
	for _, args := range [][]string{
		{"report", fixture, "-o", full},
		{"mix", "--driver", "null", "--queries", "10", "--procs", "1", "--mode", "goroutine", "-q", "--json", full},
		{"mix", "--driver", "null", "--queries", "10", "--procs", "1", "--mode", "goroutine", "--html", full},
	} {
		code, errs := runOut(t, args...)
		flag := strings.Replace(args[len(args)-2], "-o", "--output", 1)
		if code != ExitUsage || !strings.Contains(errs, flag+": "+full+" is the full device") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
		if devOf(t, full) != fullDev {
			t.Fatalf("%v: the full device node changed", args)
		}
	}
	// capture's --out too, before the program runs (the program ran,
	// then writing its trace failed, exit 1).
	ran := filepath.Join(t.TempDir(), "ran")
	code, errs := runOut(t, "capture", "--out", full, "--", "sh", "-c", "echo > "+ran)
	if code != ExitUsage || !strings.Contains(errs, "--out: "+full+" is the full device") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("capture --out %s: exit %d: %s", full, code, errs)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("capture --out %s: the program ran", full)
	}
	if devOf(t, full) != fullDev {
		t.Fatalf("capture: the full device node changed")
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
	if fi, err := os.Stat(filepath.Join(dir, "null")); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("null: %v %v", fi.Mode(), err)
	}
}
