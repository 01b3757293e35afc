package e2e

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/recfs"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// fuseAvailable is the scripts' [fuse]: the recording file system can
// be mounted here.
func fuseAvailable() bool { return recfs.Available() == nil }

// recorderMount returns the recording file system mounted at dir, if
// any.
func recorderMount(dir string) (sysinfo.Mount, bool) {
	ms, _ := sysinfo.Mounts()
	i := slices.IndexFunc(ms, func(m sysinfo.Mount) bool { return m.Point == dir && m.Type == recfs.FSType })
	if i < 0 {
		return sysinfo.Mount{}, false
	}
	return ms[i], true
}

// waitmount DIR waits (a minute at most) until a recording file system
// is mounted at DIR; with !, until none is.
func waitMount(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] waitmount DIR")
	}
	dir := ts.MkAbs(args[0])
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		// A mount counts once the run has written into it: the mount shows
		// before go-fuse's mount returns, which first opens and closes a
		// file through the mount from the helper itself (its poll hack);
		// a helper killed between the two holds a file of its own mount
		// as it exits, flushes it to itself, and stays a zombie whose
		// connection never ends (every later request waits for ever).
		// The run writes only once the helper said it mounted.
		if _, ok := recorderMount(dir); ok != neg && (neg || written(dir)) {
			return
		}
		if time.Now().After(deadline) {
			if neg {
				ts.Fatalf("%s is still mounted a minute later", dir)
			}
			ts.Fatalf("nothing mounted at %s within a minute", dir)
		}
	}
}

// written reports whether the directory holds any entry.
func written(dir string) bool {
	es, err := os.ReadDir(dir)
	return err == nil && len(es) > 0
}

// killrun DIR kills, with SIGKILL, the helper serving the recording file
// system at DIR and then its coordinator, one right after the other:
// nothing is left to unmount it.
func killRun(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: killrun DIR")
	}
	m, ok := recorderMount(ts.MkAbs(args[0]))
	if !ok {
		ts.Fatalf("nothing mounted at %s", args[0])
	}
	pid, err := strconv.Atoi(strings.TrimPrefix(m.Source, recfs.SourcePrefix))
	ts.Check(err)
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	ts.Check(err)
	// pid (comm) state ppid …; comm may hold spaces, not a ')'.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	ppid, err := strconv.Atoi(fields[1])
	ts.Check(err)
	ts.Check(syscall.Kill(pid, syscall.SIGKILL))
	ts.Check(syscall.Kill(ppid, syscall.SIGKILL))
	ts.Logf("killed the helper (pid %d) and its coordinator (pid %d)", pid, ppid)
}

// deadmount DIR asserts that a recording file system whose helper is
// gone is mounted at DIR (every access fails "not connected"), or that it
// is gone already: any run of another script beside this one unmounts
// such a mount, wherever it is.
func deadMount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: deadmount DIR")
	}
	dir := ts.MkAbs(args[0])
	if _, ok := recorderMount(dir); !ok {
		// Any run with a database on disk unmounts a dead mount wherever
		// it is: another script's, running beside this one, may have
		// come first.
		ts.Logf("nothing mounted at %s: another run unmounted it already", dir)
		return
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(dir); errors.Is(err, syscall.ENOTCONN) {
			return
		}
		if _, ok := recorderMount(dir); !ok {
			ts.Logf("%s was unmounted by another run", dir)
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("the mount at %s still answers a minute after its helper was killed", dir)
		}
	}
}

// stracefscheck TRACE RESULT asserts that the syncs the recording file
// system counted (the store's setup; the run: its phases and what the
// processes did outside them) are exactly the fsync, fdatasync and msync
// calls of gobench's own processes that strace saw in TRACE, and their
// writes through descriptors opened with O_DSYNC or O_SYNC, which the
// kernel syncs (strace -f -e trace=fsync,fdatasync,msync,execve,clone,
// clone3,openat,close,write,pwrite64,pwritev): those before the first
// worker process started are the setup's, the others the run's. The
// calls of the file system's helper (which passes each sync on to the
// disk) are told apart by the threads it started after it began
// serving. Both must have some. A run of goroutine workers (an engine of
// one process: bbolt, pebble, badger) starts no worker process, so its
// setup and run are one stretch of the coordinator's calls: their sum
// is compared. With MOUNT, the directory the file system was mounted
// over, the syncs of descriptors opened on paths outside it are left out
// (and logged): the file system never sees them (pebble's open syncs the
// directory that holds its own, as a checkpoint does).
func straceFSCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: stracefscheck TRACE RESULT [MOUNT]")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	c := newSyncCount()
	if len(args) == 3 {
		c.mount = ts.MkAbs(args[2])
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		c.line(line)
	}
	if c.helper == 0 {
		ts.Fatalf("%s shows no recording file system", args[0])
	}
	r := readResult(ts, args[1])
	goroutines := r.Plan.Mode == workload.ModeGoroutine
	if !c.started && !goroutines {
		ts.Fatalf("%s shows no worker process starting", args[0])
	}
	var counted int64
	for _, ph := range r.Phases {
		if ph.IO == nil {
			ts.Fatalf("phase %s has no I/O counts", ph.Name)
		}
		counted += ph.IO.Files.Syncs()
	}
	if r.IOOutside != nil {
		counted += r.IOOutside.Syncs()
	}
	var setup int64
	if r.IOSetup != nil {
		setup = r.IOSetup.Syncs()
	}
	ts.Logf("syncs: strace %d in setup, %d in the run (%d of them writes through O_DSYNC; the helper passed on %d; %d outside the mount: %s); the file system %d in setup, %d in the run", c.setup, c.run, c.syncWrites, c.helperSyncs, c.outside, strings.Join(c.outsidePaths, ", "), setup, counted)
	if goroutines {
		if counted+setup != c.setup+c.run || counted == 0 {
			ts.Fatalf("the file system counted %d syncs in setup and %d in the run, %d in all; strace saw %d", setup, counted, setup+counted, c.setup+c.run)
		}
		return
	}
	if counted != c.run || setup != c.setup || c.run == 0 {
		ts.Fatalf("the file system counted %d syncs in setup and %d in the run; strace saw %d and %d", setup, counted, c.setup, c.run)
	}
}

// syncCount reads strace -f's lines, which name threads: it keeps which
// process each thread is of (from the clones it saw), which process
// serves the recording file system, and counts the syncs of the others.
type syncCount struct {
	process     map[int]int  // thread → its process's first thread
	cloning     map[int]bool // thread → its clone under way makes a thread
	opening     map[int]bool // thread → its openat under way is O_DSYNC or O_SYNC
	writing     map[int]int  // thread → the descriptor of its write under way
	dsync       map[[2]int]bool
	helper      int
	started     bool
	setup, run  int64
	helperSyncs int64
	syncWrites  int64
	// mount is the directory the file system was mounted over ("": every
	// sync is its); path and openingPath name what each descriptor was
	// opened on; outside counts the syncs of those opened outside mount.
	mount        string
	path         map[[2]int]string
	openingPath  map[int]string
	outside      int64
	outsidePaths []string
}

func newSyncCount() *syncCount {
	return &syncCount{process: map[int]int{}, cloning: map[int]bool{}, opening: map[int]bool{}, writing: map[int]int{}, dsync: map[[2]int]bool{},
		path: map[[2]int]string{}, openingPath: map[int]string{}}
}

// openedPath returns the path an openat line names: openat(AT_FDCWD, "/p", …).
func openedPath(text string) string {
	_, after, ok := strings.Cut(text, `"`)
	if !ok {
		return ""
	}
	p, _, _ := strings.Cut(after, `"`)
	return p
}

// syncedFD returns the descriptor of a sync's line: "fsync(7)", "msync(0x…"
// (none: an msync names memory, not a descriptor).
func syncedFD(text string) int {
	_, args, _ := strings.Cut(text, "(")
	fd, _, _ := strings.Cut(args, ")")
	fd, _, _ = strings.Cut(fd, ",")
	n, err := strconv.Atoi(strings.TrimSpace(fd))
	if err != nil {
		return -1
	}
	return n
}

// outsideMount reports whether descriptor fd of thread tid's process was
// opened on a path outside the mount.
func (c *syncCount) outsideMount(tid, fd int) (string, bool) {
	if c.mount == "" || fd < 0 {
		return "", false
	}
	p, ok := c.path[[2]int{c.of(tid), fd}]
	if !ok || p == c.mount || strings.HasPrefix(p, c.mount+"/") || !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}

// callResult returns the value a system call's line ends with, "= N".
func callResult(text string) (int, bool) {
	i := strings.LastIndex(text, "= ")
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(text[i+2:])
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	return n, err == nil
}

// firstFD returns the descriptor a call's line starts with: "write(7, …".
func firstFD(text string) int {
	_, args, _ := strings.Cut(text, "(")
	fd, _, _ := strings.Cut(args, ",")
	n, err := strconv.Atoi(fd)
	if err != nil {
		return -1
	}
	return n
}

// count counts one sync of thread tid.
func (c *syncCount) count(tid int, write bool) {
	switch {
	case c.helper != 0 && c.of(tid) == c.helper:
		c.helperSyncs++
		return
	case c.started:
		c.run++
	default:
		c.setup++
	}
	if write {
		c.syncWrites++
	}
}

func (c *syncCount) of(tid int) int {
	if p, ok := c.process[tid]; ok {
		return p
	}
	return tid
}

func (c *syncCount) line(line string) {
	head, rest, ok := strings.Cut(strings.TrimSpace(line), " ")
	tid, err := strconv.Atoi(head)
	if !ok || err != nil {
		return
	}
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(rest, "clone(") || strings.HasPrefix(rest, "clone3("):
		thread := strings.Contains(rest, "CLONE_THREAD")
		if strings.HasSuffix(rest, "<unfinished ...>") {
			c.cloning[tid] = thread
			return
		}
		c.cloned(tid, thread, rest)
	case strings.HasPrefix(rest, "<... clone resumed>") || strings.HasPrefix(rest, "<... clone3 resumed>"):
		c.cloned(tid, c.cloning[tid], rest)
	case strings.HasPrefix(rest, "execve(") && strings.Contains(rest, `"recordfs"]`):
		c.helper = c.of(tid)
	case strings.HasPrefix(rest, "execve(") && strings.Contains(rest, `"worker"]`):
		c.started = true
	case strings.HasPrefix(rest, "fsync(") || strings.HasPrefix(rest, "fdatasync(") || strings.HasPrefix(rest, "msync("):
		if p, ok := c.outsideMount(tid, syncedFD(rest)); ok && c.of(tid) != c.helper {
			c.outside++
			c.outsidePaths = append(c.outsidePaths, p)
			return
		}
		c.count(tid, false)
	case strings.HasPrefix(rest, "openat("):
		sync := strings.Contains(rest, "O_DSYNC") || strings.Contains(rest, "O_SYNC")
		if strings.HasSuffix(rest, "<unfinished ...>") {
			c.opening[tid], c.openingPath[tid] = sync, openedPath(rest)
			return
		}
		c.opened(tid, sync, openedPath(rest), rest)
	case strings.HasPrefix(rest, "<... openat resumed>"):
		c.opened(tid, c.opening[tid], c.openingPath[tid], rest)
	case strings.HasPrefix(rest, "close("):
		key := [2]int{c.of(tid), syncedFD(rest)}
		delete(c.dsync, key)
		delete(c.path, key)
	case strings.HasPrefix(rest, "write(") || strings.HasPrefix(rest, "pwrite64(") || strings.HasPrefix(rest, "pwritev("):
		if strings.HasSuffix(rest, "<unfinished ...>") {
			c.writing[tid] = firstFD(rest)
			return
		}
		c.wrote(tid, firstFD(rest), rest)
	case strings.HasPrefix(rest, "<... write resumed>") || strings.HasPrefix(rest, "<... pwrite64 resumed>") || strings.HasPrefix(rest, "<... pwritev resumed>"):
		c.wrote(tid, c.writing[tid], rest)
	}
}

// wrote counts a write that wrote something through an O_DSYNC or
// O_SYNC descriptor as a sync.
func (c *syncCount) wrote(tid, fd int, text string) {
	if n, ok := callResult(text); ok && n > 0 && c.dsync[[2]int{c.of(tid), fd}] {
		c.count(tid, true)
	}
}

// opened notes a descriptor opened with O_DSYNC or O_SYNC, and the path
// each was opened on.
func (c *syncCount) opened(tid int, sync bool, path, text string) {
	if fd, ok := callResult(text); ok && fd >= 0 {
		key := [2]int{c.of(tid), fd}
		c.path[key] = path
		if sync {
			c.dsync[key] = true
		} else {
			delete(c.dsync, key)
		}
	}
}

// cloned notes the thread or process a clone made, from its result.
func (c *syncCount) cloned(tid int, thread bool, text string) {
	child, ok := callResult(text)
	if !ok || child <= 0 {
		return
	}
	if thread {
		c.process[child] = c.of(tid)
	} else {
		c.process[child] = child
	}
}
