package sysinfo

import (
	"runtime/debug"
	"testing"
)

// The peak read after a reset is the memory resident since: a buffer
// touched before the reset and freed does not count, one touched after
// does.
func TestPeakRSSResets(t *testing.T) {
	const size = 64 << 20
	big := make([]byte, size)
	for i := range big {
		big[i] = 1
	}
	before, err := PeakRSS()
	if err != nil {
		t.Fatal(err)
	}
	if before < size {
		t.Fatalf("peak %d after touching %d bytes", before, size)
	}
	big = nil
	debug.FreeOSMemory()
	if err := ResetPeakRSS(); err != nil {
		t.Fatal(err)
	}
	after, err := PeakRSS()
	if err != nil {
		t.Fatal(err)
	}
	if after >= before-size/2 {
		t.Errorf("peak %d after the reset, %d before it: the 64 MiB freed still counts", after, before)
	}
}

func TestVmHWM(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Name:\tx\nVmPeak:\t  9 kB\nVmHWM:\t   1234 kB\nVmRSS:\t 5 kB\n", 1234 * 1024, true},
		{"Name:\tx\n", 0, false},
		{"VmHWM:\t lots kB\n", 0, false},
	} {
		got, err := vmHWM([]byte(tt.in))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("%q: %d, %v", tt.in, got, err)
		}
	}
}
