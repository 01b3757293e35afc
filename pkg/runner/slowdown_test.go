//go:build gobench_slowdown

package runner

import "testing"

// The slowdown build stretches an op by Slowdown of the time it took
// (run with: go test -tags gobench_slowdown ./pkg/workload).
func TestSlowdown(t *testing.T) {
	t0 := nanotime()
	for nanotime()-t0 < 1e5 { // an op of at least 100µs
	}
	took := nanotime() - t0
	delay(t0)
	if after := nanotime() - t0; float64(after) < float64(took)*(1+Slowdown) {
		t.Errorf("an op of %d ns took %d ns with the delay, want at least ×%v", took, after, 1+Slowdown)
	}
}
