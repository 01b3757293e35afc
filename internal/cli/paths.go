package cli

import (
	"fmt"
	"path/filepath"
)

// checkDBPath refuses a --db in a directory that does not exist or that
// gobench cannot write to.
func checkDBPath(env *Env, db string) error {
	return checkParent(env, "--db", db)
}

// checkOutput refuses, naming the flag, an output path that cannot be
// written: a directory, a socket, or a file (a symlink's target) whose
// directory does not exist or is not writable. A device or a FIFO is
// written through, so its directory is not checked.
func checkOutput(env *Env, flag, p string) error {
	target, through, err := env.FS.OutputTarget(p)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	if through {
		return nil
	}
	return checkParent(env, flag, target)
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
	if fi, err := env.FS.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("directory %s does not exist", dir)
	}
	if err := env.FS.Writable(dir); err != nil {
		return fmt.Errorf("cannot write in %s (%v)", dir, err)
	}
	return nil
}
