package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/gobench/gobench/pkg/result"
)

// pathCheck checks, before anything runs, every path one command reads and
// writes: what each is, that gobench may write it, that no file is given
// twice. Outputs written through (a FIFO, a device) are opened once every
// check has passed (hold), so that a FIFO nothing reads is refused
// before the run instead of blocking after it.
type pathCheck struct {
	env     *Env
	force   bool // --force: replace outputs gobench did not write
	seen    []seenPath
	pending []pendingHold
}

// pendingHold is an output to open once every check passed.
type pendingHold struct {
	flag string
	t    Target
}

// seenPath is a path given to a flag, absolute; sink marks a character
// device (/dev/null), which several outputs may share.
type seenPath struct {
	flag, path string
	sink       bool
}

func newPathCheck(env *Env, force bool) *pathCheck { return &pathCheck{env: env, force: force} }

// input notes a file the command reads: no output may replace it.
func (c *pathCheck) input(flag, p string) {
	if abs, err := c.env.FS.Abs(p); err == nil {
		c.seen = append(c.seen, seenPath{flag: flag, path: abs})
	}
}

// db checks a --db path (see checkDBPath) and notes it.
func (c *pathCheck) db(p string) error {
	if err := checkDBPath(c.env, p); err != nil {
		return err
	}
	return c.claim("--db", p, false)
}

// output checks an output that replaces its file (see check).
func (c *pathCheck) output(flag, p string) error { return c.check(flag, p, true) }

// appended checks an output appended to (--summary, often a file other
// steps write too): only a database or a binary file is refused there.
func (c *pathCheck) appended(flag, p string) error { return c.check(flag, p, false) }

// check refuses, naming the flag, an output path that cannot be written
// (a directory, a socket, a file in a directory that does not exist or
// is not writable), one that holds a file gobench did not write (unless
// --force), and one given twice. A device or a FIFO is written through,
// so its directory is not checked.
func (c *pathCheck) check(flag, p string, replace bool) error {
	t, err := c.env.FS.OutputTarget(p)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	if err := c.claim(flag, t.Path, t.Sink()); err != nil {
		return err
	}
	if err := c.owned(flag, p, t, replace); err != nil {
		return err
	}
	if t.Through {
		c.pending = append(c.pending, pendingHold{flag, t})
		return nil
	}
	return checkParent(c.env, flag, t.Path)
}

// owned refuses, unless --force, an existing output that gobench did not
// write: a block device, a SQLite database, anything that is not a
// gobench result or report (result.Written).
func (c *pathCheck) owned(flag, p string, t Target, replace bool) error {
	if c.force || !t.Exists {
		return nil
	}
	if t.BlockDevice() {
		return usage(fmt.Errorf("%s %s is a block device: gobench writes its output on no disk; give a file path, or --force to write there", flag, p))
	}
	if !t.Mode.IsRegular() || t.Through {
		return nil
	}
	head, err := c.env.FS.Head(t.Path, result.HeadBytes)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	what := ""
	switch {
	case result.IsSQLite(head):
		what = "a SQLite database"
	case replace && !result.Written(head):
		what = "a file gobench did not write (no gobench result or report)"
	case !replace && bytes.IndexByte(head, 0) >= 0:
		what = "a binary file"
	}
	if what == "" {
		return nil
	}
	if t.Path != p {
		p += " (" + t.Path + ")"
	}
	return usage(fmt.Errorf("%s %s holds %s: give a new path, or --force to write there", flag, p, what))
}

// claim notes path, refusing one that an earlier flag named already:
// two outputs would overwrite each other, an output would replace an
// input or the database. Character devices may be shared.
func (c *pathCheck) claim(flag, p string, sink bool) error {
	abs, err := c.env.FS.Abs(p)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	for _, s := range c.seen {
		if s.sink && sink {
			continue
		}
		if s.path == abs || c.env.FS.SameFile(s.path, abs) {
			return usage(fmt.Errorf("%s and %s both name %s: give each its own file", s.flag, flag, abs))
		}
	}
	c.seen = append(c.seen, seenPath{flag: flag, path: abs, sink: sink})
	return nil
}

// hold opens every output written through, once every check passed: a
// FIFO that nothing reads is refused now (errNoPeer), not waited for
// after the run.
func (c *pathCheck) hold() error {
	for _, h := range c.pending {
		if err := c.env.FS.Hold(h.t); err != nil {
			return usage(fmt.Errorf("%s: %w", h.flag, err))
		}
	}
	c.pending = nil
	return nil
}

// checkDBPath refuses a --db that cannot be a database: a FIFO, a
// device, a socket; a path the OS refuses (a symlink loop, a name too
// long); one in a directory that does not exist or gobench cannot write
// to. It opens nothing and creates nothing there; whether an existing
// file is a database gobench may use is the engine's to say.
func checkDBPath(env *Env, db string) error {
	fi, err := env.FS.Stat(db)
	switch {
	case err == nil && !fi.IsDir() && !fi.Mode().IsRegular():
		return usage(fmt.Errorf("--db %s is a %s, not a database file: give a file path", db, kindName(fi.Mode())))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return usage(fmt.Errorf("--db %s: %w", db, pathErr(err)))
	}
	return checkParent(env, "--db", db)
}

// checkFrom refuses a --from that is not a regular file (a FIFO would
// block the copy, a device never ends) or that the OS refuses.
func checkFrom(env *Env, from string) error {
	fi, err := env.FS.Stat(from)
	switch {
	case err != nil:
		return fmt.Errorf("--from %s: %w", from, pathErr(err))
	case !fi.Mode().IsRegular():
		return fmt.Errorf("--from %s is a %s, not a database file", from, kindName(fi.Mode()))
	}
	return nil
}

// checkTempDir refuses a directory for temporary databases or files
// that does not exist or cannot be written: dir, named by flag, or the
// OS's temporary directory ($TMPDIR) when dir is "".
func checkTempDir(env *Env, flag, dir string) error {
	if dir == "" {
		flag, dir = "TMPDIR", env.FS.TempDir()
	}
	if err := checkDir(env, dir); err != nil {
		return usage(fmt.Errorf("%s: %w", flag, err))
	}
	return nil
}

// kindName names the kind of a file that is neither regular nor a
// directory.
func kindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return m.Type().String()
}

// pathErr drops the operation from an *fs.PathError ("stat x: file name
// too long" becomes "file name too long"): the message names the path.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkParent refuses a path whose directory does not exist or is not
// writable, naming the flag.
func checkParent(env *Env, flag, p string) error {
	path, err := env.FS.Abs(p)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	if err := checkDir(env, filepath.Dir(path)); err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	return nil
}

// checkDir refuses a directory that does not exist or that this user
// cannot create files in.
func checkDir(env *Env, dir string) error {
	fi, err := env.FS.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("directory %s: %w", dir, pathErr(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	if err := env.FS.Writable(dir); err != nil {
		return fmt.Errorf("cannot write in %s (%v)", dir, pathErr(err))
	}
	return nil
}
