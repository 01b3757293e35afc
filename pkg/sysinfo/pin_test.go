package sysinfo

import (
	"runtime"
	"slices"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want []int
	}{
		{"0-3", []int{0, 1, 2, 3}}, {"0,2,4", []int{0, 2, 4}}, {"0-1,6", []int{0, 1, 6}}, {"5", []int{5}},
		{"3-1", nil}, {"-1", nil}, {"a", nil}, {"0,0", nil}, {"", nil},
	} {
		got, err := ParseCPUList(tt.in)
		if !slices.Equal(got, tt.want) || (err == nil) != (tt.want != nil) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// Pinning this test process to CPU 0 leaves its thread on CPU 0 alone
// (the kernel's own answer), then every CPU is given back.
func TestPinProcess(t *testing.T) {
	if !CanPin() {
		t.Skip("no pinning on " + runtime.GOOS)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := PinnedCPU()
	if err := PinProcess(0); err != nil {
		t.Skipf("this machine does not let the test pin itself: %v", err)
	}
	if got := PinnedCPU(); got != 0 {
		t.Errorf("pinned to CPU %d, want 0 (before: %d)", got, before)
	}
	unpinAll(t)
}
