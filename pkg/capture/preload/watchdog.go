package preload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// The watchdog outlives a capturing process that is killed outright
// (SIGKILL, the OOM killer): the program's first process dies with
// gobench (a death signal), but the processes it started would run on
// under init, still writing. The watchdog is this program's executable
// run again in a process group of its own; it reads the program's
// process group and the capture's mark (the environment entry that
// names the capture's directory, which every process of the program
// inherits) on its stdin and, when stdin ends without the word "done"
// (the capturing process is gone, however it went), kills that group,
// then every process that carries the mark: those that left the group
// too (a daemon that made a session of its own), on Linux.

// watchdogDone is what the capturing process writes when the capture
// ended as it should: the program's group is then left alone.
const watchdogDone = "done"

// Watchdog is the body of the watchdog process (see Options.WatchdogArg):
// it reads a line from r, the program's process group and the capture's
// mark (an environment entry, quoted), then waits for the line "done";
// if r ends first, it kills the group with SIGKILL, then every process
// whose environment holds the mark. An r that ends before the group is
// known is a capture whose program never started: nothing to do.
func Watchdog(r io.Reader) error {
	br := bufio.NewReader(r)
	line, err := br.ReadString('\n')
	if err != nil {
		return nil
	}
	pgid, mark, err := parseWatch(line)
	if err != nil {
		return err
	}
	if rest, _ := br.ReadString('\n'); strings.TrimSpace(rest) == watchdogDone {
		return nil
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("the capture's watchdog could not kill the program's process group %d: %w", pgid, err)
	}
	killMarked(mark)
	return nil
}

// parseWatch reads the watchdog's first line: "PGID MARK", the mark
// quoted as Go quotes a string.
func parseWatch(line string) (pgid int, mark string, err error) {
	first, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
	pgid, err = strconv.Atoi(first)
	if err == nil {
		mark, err = strconv.Unquote(rest)
	}
	if err != nil || pgid <= 1 || !strings.Contains(mark, "=") {
		return 0, "", fmt.Errorf("the capture's watchdog read %q, not a process group and a mark", strings.TrimSpace(line))
	}
	return pgid, mark, nil
}

// watchdog is a started watchdog process, held through its stdin.
type watchdog struct {
	cmd *exec.Cmd
	in  io.WriteCloser
}

// startWatchdog starts this program's executable with arg as the
// watchdog, in a process group of its own (a kill of gobench's group
// leaves it), with no output.
func startWatchdog(arg string) (*watchdog, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the gobench executable to start the capture's watchdog: %w", err)
	}
	cmd := exec.Command(exe, arg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("starting the capture's watchdog: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the capture's watchdog: %w", err)
	}
	return &watchdog{cmd: cmd, in: in}, nil
}

// watch tells the watchdog the program's process group and the mark its
// processes carry (an environment entry of the program's alone).
func (w *watchdog) watch(pgid int, mark string) {
	fmt.Fprintf(w.in, "%d %s\n", pgid, strconv.Quote(mark))
}

// release ends the watchdog, leaving the program's group alone, and waits
// for it.
func (w *watchdog) release() {
	fmt.Fprintln(w.in, watchdogDone)
	w.in.Close()
	_ = w.cmd.Wait()
}
