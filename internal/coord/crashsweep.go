package coord

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// crashDirPrefix names a --crash run's directory of its record and the
// copies of its database, beside the database; crashOwner is the file in
// it that names the run's coordinator and that the coordinator keeps
// locked for the run's life.
const (
	crashDirPrefix = ".gobench-crash-"
	crashOwner     = "owner"
)

// ownCrashDir marks dir, a --crash run's new directory, as this
// process's: a file holding its process id, locked (an open-file-
// description lock, released by the kernel when the process dies,
// SIGKILL too), made under another name and renamed into place once
// locked, so that no sweeper finds it unlocked. Where the OS has no such
// lock, nothing is marked (and nothing is swept). Close the file at the
// run's end.
func ownCrashDir(dir string) (*os.File, error) {
	if !canSweepCrashDirs {
		return nil, nil
	}
	tmp := filepath.Join(dir, crashOwner+".new")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err = f.WriteString(strconv.Itoa(os.Getpid()) + "\n"); err == nil {
		if err = lockFile(f); err == nil {
			err = os.Rename(tmp, filepath.Join(dir, crashOwner))
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("marking %s as this run's: %w", dir, err)
	}
	return f, nil
}

// sweepCrashDirs removes the --crash directories earlier runs left in dir
// (beside their database) or in a run's temporary directory in dir
// (gobench-*, where a run without --db keeps its database) when the
// process that made each is gone: a run killed by SIGKILL or the OOM
// killer left its record, tens of megabytes, hidden, for good. Only
// gobench's own directories (by their name, holding the owner file) whose
// owner's lock is free are removed; one without the file (a gobench from
// before it, or one being made) or whose lock is held is left alone. It
// returns what it removed, and notes each.
func sweepCrashDirs(dir string, notef func(string, ...any)) []string {
	if !canSweepCrashDirs {
		return nil
	}
	var found []string
	for _, pattern := range []string{crashDirPrefix + "*", "gobench-*/" + crashDirPrefix + "*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		found = append(found, m...)
	}
	var removed []string
	for _, d := range found {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue
		}
		pid, gone := ownerGone(filepath.Join(d, crashOwner))
		if !gone {
			continue
		}
		if err := os.RemoveAll(d); err != nil {
			notef("--crash: could not remove %s, the record an earlier run left (its process %d is gone): %v", d, pid, err)
			continue
		}
		removed = append(removed, d)
		notef("--crash: removed %s, the record an earlier run left (its process %d is gone)", d, pid)
	}
	return removed
}

// ownerGone reports whether the owner file at path is gobench's and its
// lock free (its process gone), with the process id it names.
func ownerGone(path string) (pid int, gone bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	b := make([]byte, 32)
	n, _ := f.Read(b)
	pid, err = strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return 0, false
	}
	if err := lockFile(f); err != nil {
		return pid, false // held: its run is under way (or the lock fails: leave it)
	}
	return pid, true
}
