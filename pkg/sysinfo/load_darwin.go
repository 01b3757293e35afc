package sysinfo

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// ReadLoad reads the 1-minute load average (sysctl vm.loadavg). macOS
// tells neither the threads runnable now nor steal time.
func ReadLoad() Load {
	var l Load
	// struct loadavg { fixpt_t ldavg[3]; long fscale; }: three uint32
	// fixed-point averages, padding, then the scale as an int64.
	b, err := unix.SysctlRaw("vm.loadavg")
	if err != nil || len(b) < 24 {
		return l
	}
	scale := int64(binary.LittleEndian.Uint64(b[16:24]))
	if scale > 0 {
		l.Avg1, l.HasAvg1 = float64(binary.LittleEndian.Uint32(b[0:4]))/float64(scale), true
	}
	return l
}
