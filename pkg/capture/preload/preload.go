// Package preload captures programs that use the system's SQLite library
// (Python's sqlite3, PHP, Ruby, the sqlite3 shell): it builds gobench's
// capture library from its C source, runs a command with the library
// preloaded (LD_PRELOAD) so that every process of it records its
// statements into a directory of the capture's, and merges what they
// recorded into one trace (package sqltrace). A Go program using package
// capture's wrapper writes its part into the same directory.
//
// The library needs Linux, and a C compiler to build it once (cc, or $CC);
// it is kept in a cache directory under the hash of its source.
package preload

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/gobench/gobench/pkg/capture"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
)

//go:embed csrc/capture.c
var source []byte

// Source returns the capture library's C source.
func Source() []byte { return source }

// ErrUnsupported is the error of a capture on a system where a library
// cannot be preloaded the way this package does (anything but Linux).
var ErrUnsupported = errors.New("capturing a program through a preloaded library needs Linux (LD_PRELOAD); a Go program can use package capture's driver wrapper anywhere")

// CacheDir returns the directory the library is built into:
// $GOBENCH_CACHE_DIR, else the user's cache directory's gobench folder
// ($XDG_CACHE_HOME or ~/.cache).
func CacheDir(getenv func(string) string) (string, error) {
	if d := getenv("GOBENCH_CACHE_DIR"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "gobench"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "gobench"), nil
	}
	return "", errors.New("no cache directory: set GOBENCH_CACHE_DIR or HOME")
}

// Library returns the path of the capture library, building it into
// cacheDir with the C compiler cc ("" for $CC's or cc) if it is not there
// yet. Builds of the same source share one file, renamed into place when
// complete, so concurrent builds are safe.
func Library(ctx context.Context, cacheDir, cc string) (string, error) {
	if runtime.GOOS != "linux" {
		return "", ErrUnsupported
	}
	sum := sha256.Sum256(source)
	path := filepath.Join(cacheDir, "gobench-capture-"+hex.EncodeToString(sum[:8])+".so")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("building the capture library: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		return "", fmt.Errorf("building the capture library: %w", err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "capture.c")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return "", fmt.Errorf("building the capture library: %w", err)
	}
	if cc == "" {
		cc = os.Getenv("CC")
	}
	if cc == "" {
		cc = "cc"
	}
	out := filepath.Join(tmp, "capture.so")
	cmd := exec.CommandContext(ctx, cc, "-shared", "-fPIC", "-O2", "-o", out, src, "-ldl", "-lpthread")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the capture library with %s: %w: %s", cc, err, strings.TrimSpace(string(msg)))
	}
	if err := os.Rename(out, path); err != nil {
		return "", fmt.Errorf("building the capture library: %w", err)
	}
	return path, nil
}

// Options say what to capture and how.
type Options struct {
	// Command and Args are the program to run.
	Command string
	Args    []string
	// Library is the capture library (see Library).
	Library string
	// TempDir is where the capture's directory is made: best on the file
	// system the trace goes to, as it holds the databases' snapshots.
	TempDir string
	// Env is the program's environment (nil: this process's); the
	// capture adds LD_PRELOAD and its directory to it.
	Env []string
	// Stdin, Stdout and Stderr are the program's.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Signals are passed on to the program as they come (an interrupt
	// or a termination of gobench): to its process group, which it has
	// of its own unless gobench runs in the foreground of a terminal
	// (whose Ctrl-C reaches both already; SIGINT and SIGQUIT are then not
	// sent twice). The program dies with gobench in any case (Linux: a
	// death signal).
	Signals <-chan os.Signal
	// Kill, when closed, kills the program (a second interrupt): its
	// process group, as Signals.
	Kill <-chan struct{}
	// Guard are the paths the caller writes once the capture is over
	// (the trace): Run notes what is at each before the program starts,
	// so that Touched can tell whether the program made or changed it.
	Guard []string
	// WatchdogArg, when not empty, is the argument that makes this
	// program's executable run Watchdog (gobench: its hidden command
	// watchdog). Run starts it beside a program that has a
	// process group of its own, so that the processes the program started
	// die too when this process is killed outright (its first process
	// dies with it in any case).
	WatchdogArg string
}

// Captured is a program's run under capture: its exit, and what its
// processes left in the capture's directory.
type Captured struct {
	dir    string
	before map[string]os.FileInfo // Options.Guard's paths before the program started (nil: none there)
	dbs    []string               // Databases, once read
	dbsOK  bool
	// ExitCode is the program's exit status; Signal, if it was killed by
	// a signal, which (ExitCode is then 128 + its number, as a shell
	// reports it).
	ExitCode int
	Signal   string
}

// Run runs the program with the capture library preloaded and waits for
// it. Only a program that could not be started is an error: whatever it
// does, its exit is in the Captured, whose Merge writes the trace.
// Cancelling ctx does not stop the program: Options.Signals and Kill do,
// and what it recorded until it exits is kept.
func Run(ctx context.Context, o Options) (*Captured, error) {
	if runtime.GOOS != "linux" {
		return nil, ErrUnsupported
	}
	dir, err := os.MkdirTemp(o.TempDir, ".gobench-capture-")
	if err != nil {
		return nil, fmt.Errorf("making the capture's directory: %w", err)
	}
	c := &Captured{dir: dir, before: map[string]os.FileInfo{}}
	for _, p := range o.Guard {
		fi, err := os.Stat(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		c.before[p] = fi
	}
	cmd := exec.Command(o.Command, o.Args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.Stdin, o.Stdout, o.Stderr
	cmd.Env = environment(o.Env, o.Library, dir)
	group := startAttrs(cmd)
	var wd *watchdog
	if group && o.WatchdogArg != "" {
		if wd, err = startWatchdog(o.WatchdogArg); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := cmd.Start(); err != nil {
		if wd != nil {
			wd.release()
		}
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", o.Command, err)
	}
	if wd != nil {
		wd.watch(cmd.Process.Pid, capture.EnvDir+"="+dir)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-o.Signals:
				if !group && (sig == os.Interrupt || sig == syscall.SIGQUIT) {
					continue // the terminal sent it to the program too
				}
				_ = signalProgram(cmd.Process, group, sig)
			case <-o.Kill:
				_ = signalProgram(cmd.Process, group, os.Kill)
				return
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	if wd != nil {
		wd.release()
	}
	if cmd.ProcessState == nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("running %s: %w", o.Command, err)
	}
	c.Signal, c.ExitCode = signalOf(cmd.ProcessState)
	if err != nil && c.ExitCode < 0 {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("running %s: %w", o.Command, err)
	}
	return c, nil
}

// environment is env with the library preloaded (ahead of any preloaded
// already) and the capture's directory set.
func environment(env []string, lib, dir string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+2)
	preload := lib
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "LD_PRELOAD="):
			if v := strings.TrimPrefix(kv, "LD_PRELOAD="); v != "" {
				preload += ":" + v
			}
		case strings.HasPrefix(kv, capture.EnvDir+"="):
		default:
			out = append(out, kv)
		}
	}
	return append(out, "LD_PRELOAD="+preload, capture.EnvDir+"="+dir)
}

// Parts returns the part files the program's processes wrote, in order of
// name.
func (c *Captured) Parts() ([]string, error) {
	parts, err := filepath.Glob(filepath.Join(c.dir, "part-*.trace"))
	sort.Strings(parts)
	return parts, err
}

// Merge writes the trace: every process's part as a stream, the
// snapshots embedded, and each database's content now that the program is
// over (dbdigest).
func (c *Captured) Merge(w io.Writer) (sqltrace.MergeStats, error) {
	names, err := c.Parts()
	if err != nil {
		return sqltrace.MergeStats{}, err
	}
	var parts []sqltrace.Part
	var marks []sqltrace.Note
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return sqltrace.MergeStats{}, err
		}
		defer f.Close()
		p := sqltrace.Part{Name: filepath.Base(n), R: f}
		if t, ok := readTail(strings.TrimSuffix(n, ".trace") + ".tail"); ok && len(t.records) > 0 {
			if r, tail, ok := withTail(f, t); ok {
				p.R, p.Tail = r, tail
				marks = append(marks, sqltrace.Note{Level: sqltrace.NoteInfo, Text: fmt.Sprintf(
					"%s: the process ended without writing its last %d bytes of records (killed, or it ended without its exit handlers): they were recovered from its shared buffer", p.Name, len(tail))})
			}
		}
		parts = append(parts, p)
	}
	if c.Signal != "" {
		marks = append(marks, sqltrace.Note{Level: sqltrace.NoteTail, Text: fmt.Sprintf(
			"the program died of signal %d (%s): its last statements may be missing (the one each process was running)", c.ExitCode-128, c.Signal)})
	}
	return sqltrace.Merge(w, parts, func(name string) (io.ReadCloser, error) {
		if filepath.Base(name) != name {
			return nil, fmt.Errorf("a snapshot's name %q is not a file of the capture's directory", name)
		}
		return os.Open(filepath.Join(c.dir, name))
	}, dbdigest.File, marks...)
}

// tailFile is a process's tail file (see the C library's tail): the
// records it had not yet written to its part, and where in the part they
// belong.
type tailFile struct {
	at      int64 // the part's offset where they begin
	ended   bool  // the process ended through exit: its part is whole
	records []byte
}

// tailHeader is the length of a tail file's header.
const tailHeader = 32

// readTail reads a tail file; false if there is none or it is not one.
func readTail(path string) (tailFile, bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < tailHeader || string(b[:8]) != "GBTAIL\n\x00" {
		return tailFile{}, false
	}
	at, n, state := binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:]), binary.LittleEndian.Uint64(b[24:])
	if n > uint64(len(b)-tailHeader) || at > math.MaxInt64 {
		return tailFile{}, false
	}
	t := tailFile{at: int64(at), ended: state == 2}
	if !t.ended {
		t.records = b[tailHeader : tailHeader+n]
	}
	return t, true
}

// withTail returns the part f to read before the tail's records, and the
// records, if they are not in the part already: the part ends where the
// tail begins, or what follows there is a chunk cut short (the process
// died writing it), which the tail's records replace. A whole chunk there
// holds them already (the process died after writing it, before it
// emptied its tail).
func withTail(f *os.File, t tailFile) (io.Reader, []byte, bool) {
	fi, err := f.Stat()
	if err != nil || fi.Size() < t.at {
		return nil, nil, false
	}
	if fi.Size() > t.at {
		head := make([]byte, 1+2*binary.MaxVarintLen64)
		n, _ := f.ReadAt(head, t.at)
		head = head[:n]
		if len(head) > 0 {
			_, k1 := binary.Uvarint(head[min(1, len(head)):])
			if k1 > 0 {
				length, k2 := binary.Uvarint(head[1+k1:])
				if k2 > 0 && t.at+int64(1+k1+k2)+int64(length)+4 <= fi.Size() {
					return nil, nil, false // a whole chunk: the records are in it
				}
			}
		}
	}
	return io.NewSectionReader(f, 0, t.at), t.records, true
}

// Databases returns the paths of the database files the program's
// processes opened, as their parts name them.
func (c *Captured) Databases() ([]string, error) {
	if c.dbsOK {
		return c.dbs, nil
	}
	names, err := c.Parts()
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return nil, err
		}
		r := sqltrace.NewReader(f)
		r.Filter(nil, false)
		for r.Next() {
			if rec := r.Record(); rec.Kind == sqltrace.KindDB && !slices.Contains(paths, rec.DB.Path) {
				paths = append(paths, rec.DB.Path)
			}
		}
		f.Close() // a part cut short still names the databases of its whole chunks
	}
	c.dbs, c.dbsOK = paths, true
	return paths, nil
}

// Touched says whether the program made, replaced, changed or opened path
// (one of Options.Guard) during the capture, and what it did: a file is
// there that was not, or another, or the same with another size or time
// of change (a device or a FIFO, written through rather than replaced,
// is not compared); or the program opened it as a database, or the
// database whose -wal, -journal or -shm file it is. Writing the trace
// there would destroy what the program left.
func (c *Captured) Touched(path string) (string, bool, error) {
	dbs, err := c.Databases()
	if err != nil {
		return "", false, err
	}
	for _, db := range dbs {
		for _, suffix := range []string{"", "-wal", "-journal", "-shm"} {
			if db != "" && samePath(path, db+suffix) {
				if suffix == "" {
					return "a database the program opened", true, nil
				}
				return "the " + suffix + " file of a database the program opened (" + db + ")", true, nil
			}
		}
	}
	before, guarded := c.before[path]
	if !guarded {
		return "", false, nil
	}
	after, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, err
	case before == nil:
		return "a file the program created", true, nil
	case !before.Mode().IsRegular():
		return "", false, nil
	case !os.SameFile(before, after):
		return "a file the program replaced", true, nil
	case before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()):
		return "a file the program changed", true, nil
	}
	return "", false, nil
}

// samePath reports whether a and b name one file: the same file if both
// exist, else the same absolute path.
func samePath(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(fa, fb)
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

// FreeName returns a path beside path where nothing is, for a trace that
// cannot go to path: path.trace, else path.1.trace, path.2.trace, ...
func (c *Captured) FreeName(path string) (string, error) {
	for i := 0; i < 1000; i++ {
		p := path + ".trace"
		if i > 0 {
			p = fmt.Sprintf("%s.%d.trace", path, i)
		}
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		if _, touched, err := c.Touched(p); err != nil || touched {
			continue
		}
		return p, nil
	}
	return "", fmt.Errorf("no free name for the trace beside %s", path)
}

// Dir returns the capture's private directory, where a caller may keep
// files of its own (not named part-*): they go with it at Close.
func (c *Captured) Dir() string { return c.dir }

// Close removes the capture's directory.
func (c *Captured) Close() error { return os.RemoveAll(c.dir) }
