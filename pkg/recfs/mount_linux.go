package recfs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/sysinfo"
)

// fuseHint is how to get FUSE on Debian and its kin.
const fuseHint = "install Debian's fuse3 (apt-get install fuse3) and load the fuse module (modprobe fuse); in a container, pass it /dev/fuse and CAP_SYS_ADMIN"

// Available says why this machine cannot mount the recording file
// system, or nil: it needs /dev/fuse, and a user other than root needs
// fusermount3 (Debian's fuse3) to mount.
func Available() error {
	return available("/dev/fuse", os.Geteuid() == 0, fusermount())
}

// available is Available with the device, whether this process is root
// and the path of fusermount3 ("" for none) given.
func available(dev string, root bool, fusermount string) error {
	f, err := os.OpenFile(dev, os.O_RDWR, 0)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w: there is no %s: %s", ErrUnavailable, dev, fuseHint)
	case err != nil:
		return fmt.Errorf("%w: %w: %s", ErrUnavailable, err, fuseHint)
	}
	f.Close()
	if !root && fusermount == "" {
		return fmt.Errorf("%w: fusermount3 is not installed (a user other than root mounts with it): %s", ErrUnavailable, fuseHint)
	}
	return nil
}

// fusermountFailed is go-fuse's error when fusermount3 fails: the wait
// status it prints is no exit code (256 is exit status 1).
var fusermountFailed = regexp.MustCompile(`^fusermount exited with code (\d+)\s*$`)

// mountError says what failed when go-fuse's mount did: for fusermount3,
// its exit status or the signal that killed it (go-fuse gives the raw
// wait status, "code 256", and a line break), with what to check.
func mountError(err error) error {
	m := fusermountFailed.FindStringSubmatch(err.Error())
	if m == nil {
		return errors.New(strings.TrimSpace(err.Error()))
	}
	n, _ := strconv.Atoi(m[1])
	ws := syscall.WaitStatus(n)
	how := fmt.Sprintf("exited with status %d", ws.ExitStatus())
	if ws.Signaled() {
		how = fmt.Sprintf("was killed by %v", ws.Signal())
	}
	return fmt.Errorf("fusermount3 %s: FUSE cannot mount here: %s", how, fuseHint)
}

// fusermount returns the path of fusermount3 (or of FUSE 2's
// fusermount), or "".
func fusermount() string {
	for _, name := range []string{"fusermount3", "fusermount"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		if p := "/bin/" + name; isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode()&0o111 != 0
}

// detach unmounts the mount at dir lazily: it leaves the namespace at
// once, and goes when the last file open on it closes.
func detach(dir string) error {
	if os.Geteuid() == 0 {
		if err := unix.Unmount(dir, unix.MNT_DETACH); err == nil {
			return nil
		}
	}
	bin := fusermount()
	if bin == "" {
		return errors.New("fusermount3 is not installed")
	}
	out, err := exec.Command(bin, "-u", "-z", dir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -u -z %s: %w: %s", bin, dir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Stale is a recording file system's mount whose helper is gone.
type Stale struct {
	Dir string
	PID int // the helper that served it
	Err error
}

// CleanStale unmounts the recording file systems whose helper process is
// gone (a run killed with its helper, by kill -9 of its process group or
// the OOM killer: the mount stays, every access failing "transport
// endpoint is not connected") and returns them, each with the error of
// its unmounting, if any: those over dir or beside it (in dir's parent
// directory), which would fail the run, and those anywhere else, found in
// /proc/self/mountinfo by their type and source, so that no later run
// leaves them behind. A mount elsewhere that cannot be unmounted (another
// user's, for a user other than root) is left out of the list: it is no
// business of this run's. The mounts of live helpers (other runs under
// way) are left alone.
func CleanStale(dir string) []Stale {
	ms, err := sysinfo.Mounts()
	if err != nil {
		return nil
	}
	parent, err := resolvedParent(dir)
	if err != nil {
		return nil
	}
	var out []Stale
	for _, m := range ms {
		if m.Type != FSType || !strings.HasPrefix(m.Source, SourcePrefix) {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimPrefix(m.Source, SourcePrefix))
		near := filepath.Dir(m.Point) == parent
		if err != nil || serving(pid, m.Point, near) {
			continue
		}
		abort(m.Dev)
		err = detach(m.Point)
		if err != nil && !near {
			continue
		}
		out = append(out, Stale{Dir: m.Point, PID: pid, Err: err})
	}
	return out
}

// fuseConnections is where the kernel's fusectl file system lists FUSE
// connections, each by its device's minor number.
const fuseConnections = "/sys/fs/fuse/connections"

// abort aborts the FUSE connection of the mount of device dev ("0:45")
// whose helper is gone, where fusectl lets it (root, fusectl mounted): a
// helper killed while one of its own threads waited in a request to its
// own mount stays a zombie that holds /dev/fuse open, so the connection
// never ends by itself, and every request to it (a lookup, a sync of
// every file system) waits for ever, even once the mount is detached.
// Aborting fails those requests and lets the zombie go.
func abort(dev string) {
	major, minor, ok := strings.Cut(dev, ":")
	if !ok || major != "0" {
		return
	}
	f, err := os.OpenFile(filepath.Join(fuseConnections, minor, "abort"), os.O_WRONLY, 0)
	if err != nil {
		return // no fusectl, or not root: the mount is detached all the same
	}
	defer f.Close()
	_, _ = f.WriteString("1")
}

// Live is a recording file system's mount whose helper serves it: a run
// under way records the I/O of the files under Dir.
type Live struct {
	Dir string
	PID int // the helper that serves it
}

// Within returns the served recording file system that path (which may
// not exist yet) lies inside, if any: another run's, whose record would
// take the writes of anything written there. The helper's own process
// and the run that mounted it never ask.
func Within(path string) (Live, bool) {
	ms, err := sysinfo.Mounts()
	if err != nil {
		return Live{}, false
	}
	parent, err := resolvedParent(path)
	if err != nil {
		return Live{}, false
	}
	full := filepath.Join(parent, filepath.Base(path))
	for _, m := range ms {
		if m.Type != FSType || !strings.HasPrefix(m.Source, SourcePrefix) {
			continue
		}
		if full != m.Point && !strings.HasPrefix(full, strings.TrimSuffix(m.Point, "/")+"/") {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimPrefix(m.Source, SourcePrefix))
		if err == nil && serving(pid, m.Point, true) {
			return Live{Dir: m.Point, PID: pid}, true
		}
	}
	return Live{}, false
}

// resolvedParent returns the absolute path of dir's parent directory,
// its symbolic links resolved, as the kernel names mount points.
func resolvedParent(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(filepath.Dir(abs))
}

// serving reports whether the mount at dir, made by process pid, is
// still served. A helper that is gone, or dead and not yet reaped (a
// zombie: one of its threads may be stuck in a request to its own mount,
// which then never answers again), serves nothing. When probe is set,
// the mount must answer too (a process id that lives on in another
// process is no helper's when its mount's connection is gone); without
// it, a live process is taken for the helper: a statfs of a mount whose
// helper is wedged waits for ever, so a run asks only the mounts over or
// beside its own place.
func serving(pid int, dir string, probe bool) bool {
	if pid <= 0 || !running(pid) {
		return false
	}
	if !probe {
		return true
	}
	var st unix.Statfs_t
	return !errors.Is(unix.Statfs(dir, &st), unix.ENOTCONN)
}

// running reports whether process pid exists and is not dead (a zombie,
// or one being torn down).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')') // the state follows the command's name
	if i < 0 || i+2 >= len(b) {
		return false
	}
	return b[i+2] != 'Z' && b[i+2] != 'X'
}

// mounted reports whether a recording file system is mounted at dir.
func mounted(dir string) bool {
	ms, _ := sysinfo.Mounts()
	for _, m := range ms {
		if m.Point == dir && m.Type == FSType {
			return true
		}
	}
	return false
}
