package sysinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// ResetPeakRSS starts this process's peak resident memory over from its
// current resident memory (writing 5 to /proc/self/clear_refs resets the
// high-water mark, VmHWM), so that PeakRSS measures from here on: a run's
// own peak, not the process's lifetime's. It fails where the kernel
// refuses.
func ResetPeakRSS() error {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("resetting the peak resident memory: %w", err)
	}
	return nil
}

// PeakRSS returns this process's peak resident memory in bytes since the
// last ResetPeakRSS (since it started, without one): VmHWM of
// /proc/self/status.
func PeakRSS() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading the peak resident memory: %w", err)
	}
	return vmHWM(b)
}

// vmHWM reads the VmHWM line of a /proc/PID/status file, in kilobytes
// there, and returns it in bytes.
func vmHWM(status []byte) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading the peak resident memory: VmHWM %q: %w", rest, err)
		}
		return kb * 1024, nil
	}
	return 0, fmt.Errorf("reading the peak resident memory: no VmHWM line in /proc/self/status")
}
