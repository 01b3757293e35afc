package sysinfo

import (
	"errors"
	"strconv"
	"strings"
)

// Load is how busy the machine is at one moment. Fields the OS does not
// tell are marked unknown by their Has flags.
type Load struct {
	// Avg1 is the 1-minute load average: runnable (and, on Linux,
	// uninterruptible) threads, averaged.
	Avg1    float64
	HasAvg1 bool
	// Runnable is the number of threads ready to run right now, on a CPU
	// or waiting for one, the caller's own among them (Linux's
	// nr_running).
	Runnable    int
	HasRunnable bool
	// CPU are the machine's CPU time counters since boot, summed over its
	// CPUs; HasCPU is false where the OS does not keep them.
	CPU    CPUTimes
	HasCPU bool
}

// CPUTimes are CPU time counters since boot, in clock ticks, summed over
// every CPU: the total, and the part a hypervisor gave to other guests
// while this one had work to run (steal).
type CPUTimes struct {
	Total, Steal uint64
}

// StealPercent is the share of CPU time stolen between two readings of
// the counters, in percent; ok is false when no time passed between them.
func StealPercent(before, after CPUTimes) (pct float64, ok bool) {
	if after.Total <= before.Total || after.Steal < before.Steal {
		return 0, false
	}
	return 100 * float64(after.Steal-before.Steal) / float64(after.Total-before.Total), true
}

// parseLoadavg reads the text of /proc/loadavg: "0.52 0.58 0.59 3/175
// 3487" holds the 1-, 5- and 15-minute averages, then runnable threads
// over all threads.
func parseLoadavg(text string) (avg1 float64, runnable int, err error) {
	f := strings.Fields(text)
	if len(f) < 4 {
		return 0, 0, errors.New("loadavg: fewer than four fields")
	}
	if avg1, err = strconv.ParseFloat(f[0], 64); err != nil {
		return 0, 0, err
	}
	run, _, ok := strings.Cut(f[3], "/")
	if !ok {
		return 0, 0, errors.New("loadavg: no runnable/total field")
	}
	runnable, err = strconv.Atoi(run)
	return avg1, runnable, err
}

// parseProcStat reads the aggregate "cpu" line of /proc/stat: user, nice,
// system, idle, iowait, irq, softirq, steal, then guest times, which user
// and nice already include (so they are not added again).
func parseProcStat(text string) (CPUTimes, error) {
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		var t CPUTimes
		for i, s := range f[1:min(len(f), 9)] {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return CPUTimes{}, err
			}
			t.Total += v
			if i == 7 {
				t.Steal = v
			}
		}
		return t, nil
	}
	return CPUTimes{}, errors.New("stat: no cpu line")
}
