package bench

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// A probe without a directory runs the CPU loop and no fsync; one
// interrupted before the run ends keeps its first probe alone.
func TestMachineMeter(t *testing.T) {
	m := StartMachine(context.Background(), "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := m.Stop(ctx)
	if got.Before.CPUMicros <= 0 || got.Before.FsyncOps != 0 || got.Before.FsyncMicros != 0 {
		t.Errorf("before: %+v", got.Before)
	}
	if got.After.CPUMicros != 0 || got.StealPercent != nil {
		t.Errorf("an interrupted run was probed after: %+v", got)
	}
	if runtime.GOOS == "linux" && (got.Before.Load1 == nil || got.Before.OtherRunnable == nil || got.Before.StealPercent == nil) {
		t.Errorf("Linux tells the load, the runnable threads and steal: %+v", got.Before)
	}
}

// The CPU loop counts units on every CPU; the runnable threads are read
// at least minRunnableReadings times, whatever the wait.
func TestCPULoopAndRunnable(t *testing.T) {
	us, secs := cpuLoop(5 * time.Millisecond)
	if us <= 0 || secs <= 0 {
		t.Errorf("cpuLoop = %v µs a unit over %v s", us, secs)
	}
	others := watchRunnable(func() {})
	if runtime.GOOS == "linux" && others < 0 {
		t.Errorf("watchRunnable = %v on Linux", others)
	}
	if calibrationUnit(1) == calibrationUnit(2) {
		t.Error("the unit maps two inputs to one output: the compiler may fold it")
	}
}
