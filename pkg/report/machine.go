package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// machineStateText is a run's machine line: how loaded the machine was
// and its calibration, before the run and after it; "" for a run that
// was not calibrated. "machine: before load 6.06, 7.0 other runnable,
// steal 3.6%, calibration 13.9µs CPU, 250µs fsync · after … · steal over
// the run 2.2%".
func machineStateText(m *result.Machine) string {
	if m == nil || m.Before.CPUMicros == 0 {
		return ""
	}
	s := "machine: before " + probeText(m.Before)
	if m.After.CPUMicros > 0 {
		s += " · after " + probeText(m.After)
	}
	if m.StealPercent != nil {
		s += " · steal over the run " + units.Sig3(*m.StealPercent) + "%"
	}
	return s
}

// probeText is one probe's figures.
func probeText(p result.Probe) string {
	var parts []string
	if p.Load1 != nil {
		parts = append(parts, "load "+units.Fixed(*p.Load1, 2))
	}
	if p.OtherRunnable != nil {
		parts = append(parts, units.Fixed(*p.OtherRunnable, 1)+" other runnable")
	}
	if p.StealPercent != nil {
		parts = append(parts, "steal "+units.Sig3(*p.StealPercent)+"%")
	}
	cal := "calibration " + units.Micros(p.CPUMicros) + " CPU"
	if p.FsyncMicros > 0 {
		cal += ", " + units.Micros(p.FsyncMicros) + " fsync"
	}
	return strings.Join(append(parts, cal), ", ")
}

// suiteMachineText sums up the calibrations of a suite's runs: their
// range, and the load averages'; "" when no run was calibrated.
func suiteMachineText(s *result.Suite) string {
	var cal, load []float64
	for _, p := range s.Probes() {
		if p.CPUMicros > 0 {
			cal = append(cal, p.CPUMicros)
		}
		if p.Load1 != nil {
			load = append(load, *p.Load1)
		}
	}
	if len(cal) == 0 {
		return ""
	}
	s2 := fmt.Sprintf("machine: calibration %s CPU over %d probes", spanText(cal, units.Micros), len(cal))
	if len(load) > 0 {
		s2 += ", load " + spanText(load, func(v float64) string { return units.Fixed(v, 2) })
	}
	return s2
}

// spanText is "a–b", or "a" when all values agree.
func spanText(vs []float64, f func(float64) string) string {
	lo, hi := slices.Min(vs), slices.Max(vs)
	if f(lo) == f(hi) {
		return f(lo)
	}
	return f(lo) + "–" + f(hi)
}

// machineText is the one-line summary of the machine: "linux/amd64,
// 2 CPUs", or with a fingerprint "Linux 6.1.0 amd64, AMD EPYC 7B13,
// 2 CPUs, governor performance, 23.5 GiB".
func machineText(env result.Environment) string {
	s := env.OS + "/" + env.Arch
	if env.Kernel != "" {
		s = env.Kernel + " " + env.Arch
	}
	if env.CPUModel != "" {
		s += ", " + env.CPUModel
	}
	s += fmt.Sprintf(", %d CPUs", env.CPUs)
	if env.Governor != "" {
		s += ", governor " + env.Governor
	}
	if env.MemoryBytes > 0 {
		s += ", " + bytesize.Units{}.Round(env.MemoryBytes)
	}
	return s
}

// filesystemText names the database's file system with its mount options
// where known: "ext4 (rw,relatime)".
func filesystemText(env result.Environment) string {
	var kept []string
	for o := range strings.SplitSeq(env.MountOptions, ",") {
		if durabilityOption(o) {
			kept = append(kept, o)
		}
	}
	if len(kept) == 0 {
		return env.Filesystem
	}
	return env.Filesystem + " (" + strings.Join(kept, ",") + ")"
}

// durabilityOption reports whether a mount option changes when or how
// writes reach the disk, or what a read writes back: the ones a reader of
// fsync-bound numbers needs. The rest (rw, resuid=, errors=, …) stay in
// the JSON.
func durabilityOption(o string) bool {
	name, _, _ := strings.Cut(o, "=")
	switch name {
	case "sync", "dirsync", "data", "barrier", "nobarrier", "commit", "journal_async_commit", "nodelalloc", "dax",
		"noatime", "strictatime", "lazytime", "flush", "logbsize", "logbufs", "wsync":
		return true
	}
	return false
}
