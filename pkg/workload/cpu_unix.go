//go:build unix

package workload

import (
	"syscall"
	"time"
)

func processCPU() (CPU, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return CPU{}, false
	}
	return CPU{User: time.Duration(ru.Utime.Nano()), System: time.Duration(ru.Stime.Nano())}, true
}
