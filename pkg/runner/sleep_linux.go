package runner

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// lockForSleep readies the calling goroutine for precise sleeps: it locks
// it to its OS thread and sets that thread's timer slack to 1 ns (the
// default, 50 µs, lets the kernel wake a sleeper that much late). The
// returned function unlocks the thread.
func lockForSleep() (unlock func()) {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	return runtime.UnlockOSThread
}

// sleepUntil blocks until nanotime reaches due: nanosleep (a high-
// resolution kernel timer, unlike the Go runtime's, which wakes sleepers
// at millisecond granularity on Linux) to within spinWindow of it, then a
// spin.
func sleepUntil(due int64) {
	if d := due - nanotime() - int64(spinWindow); d > 0 {
		ts := unix.NsecToTimespec(d)
		for unix.Nanosleep(&ts, &ts) == unix.EINTR {
		}
	}
	for nanotime() < due {
	}
}
