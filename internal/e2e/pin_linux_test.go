package e2e

import (
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
)

// cpusAllowed returns the CPUs every thread of process pid may run on,
// as the kernel lists them in /proc (the outside witness of pinning).
func cpusAllowed(t *testing.T, pid string) []string {
	t.Helper()
	tasks, err := os.ReadDir("/proc/" + pid + "/task")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^Cpus_allowed_list:\s*(\S+)$`)
	var out []string
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/" + pid + "/task/" + task.Name() + "/status")
		if err != nil {
			continue // a thread that ended
		}
		if m := re.FindSubmatch(b); m != nil && !slices.Contains(out, string(m[1])) {
			out = append(out, string(m[1]))
		}
	}
	return out
}

// --cpus pins each worker process, every thread of it, to its CPU in
// turn, and --coordinator-cpu the coordinator: the kernel says so while
// they run. Without the flags the workers may run anywhere.
func TestPinnedProcesses(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("pinning two ways takes two CPUs")
	}
	t.Parallel()
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "mix", "--driver", "null", "--procs", "2", "--duration", "1h", "--progress", "1s", "--cpus", "0,1", "--coordinator-cpu", "1")
	_, _, wait := startRun(t, cmd)
	pids, err := childrenOf(cmd.Process.Pid)
	if err != nil || len(pids) != 2 {
		t.Fatalf("worker processes %v: %v", pids, err)
	}
	var seen []string
	for _, pid := range pids {
		cpus := cpusAllowed(t, pid)
		if len(cpus) != 1 || (cpus[0] != "0" && cpus[0] != "1") {
			t.Errorf("worker %s may run on %v, want one of CPU 0 or 1 for all its threads", pid, cpus)
		}
		seen = append(seen, cpus...)
	}
	slices.Sort(seen)
	if !slices.Equal(seen, []string{"0", "1"}) {
		t.Errorf("the workers' CPUs are %v, want 0 and 1, one each", seen)
	}
	if got := cpusAllowed(t, strconv.Itoa(cmd.Process.Pid)); !slices.Equal(got, []string{"1"}) {
		t.Errorf("the coordinator may run on %v, want CPU 1", got)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = wait()
}
