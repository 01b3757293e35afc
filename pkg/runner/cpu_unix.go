//go:build unix

package runner

import (
	"syscall"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

func processCPU() (workload.CPU, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return workload.CPU{}, false
	}
	return workload.CPU{User: time.Duration(ru.Utime.Nano()), System: time.Duration(ru.Stime.Nano())}, true
}
