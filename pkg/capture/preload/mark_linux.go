package preload

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killMarked kills every process whose environment holds mark (the
// entry naming a capture's directory, which only that capture's processes
// inherit), again until a look at /proc finds none: a process that
// forks while its parent is being killed is found on the next look. A
// process killed is a zombie until reaped, with an empty environment:
// no look finds it twice.
func killMarked(mark string) {
	for range 10 {
		pids := marked(mark)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// marked returns the processes, this one aside, whose environment holds
// mark as a whole entry (those of other users cannot be read, and are
// not the capture's).
func marked(mark string) []int {
	self := os.Getpid()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(mark)
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for entry := range bytes.SplitSeq(env, []byte{0}) {
			if bytes.Equal(entry, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
