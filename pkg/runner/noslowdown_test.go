//go:build !gobench_slowdown

package runner

import "testing"

// Every build without the gobench_slowdown tag, the released binary's
// among them, delays no op.
func TestNoSlowdown(t *testing.T) {
	if Slowdown != 0 {
		t.Fatalf("Slowdown = %v in a build without the gobench_slowdown tag", Slowdown)
	}
}
