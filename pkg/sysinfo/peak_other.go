//go:build !linux

package sysinfo

import "errors"

// errNoPeakReset says why a run's own peak memory is not measured here.
var errNoPeakReset = errors.New("this system cannot reset a process's peak resident memory")

// ResetPeakRSS fails where the peak resident memory cannot be
// started over (only Linux can): a process's peak is then its lifetime's,
// not a run's.
func ResetPeakRSS() error { return errNoPeakReset }

// PeakRSS returns an error where ResetPeakRSS cannot reset the peak.
func PeakRSS() (int64, error) { return 0, errNoPeakReset }
