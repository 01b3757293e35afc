package sysinfo

import "os"

// ReadLoad reads the load average and the runnable threads
// (/proc/loadavg) and the CPU time counters (/proc/stat, with steal).
func ReadLoad() Load {
	var l Load
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if avg, run, err := parseLoadavg(string(b)); err == nil {
			l.Avg1, l.Runnable, l.HasAvg1, l.HasRunnable = avg, run, true, true
		}
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		if t, err := parseProcStat(string(b)); err == nil {
			l.CPU, l.HasCPU = t, true
		}
	}
	return l
}
