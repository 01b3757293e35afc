//go:build gobench_slowdown

package runner

// Slowdown is the share of its own time every op is made to take longer
// in a build with the gobench_slowdown tag: a build 30% slower per op, a
// known regression for the verdict experiments (bench/verdicts). No
// release is built with the tag.
const Slowdown = 0.3

// delay spins, on the CPU, until the op begun at t0 has taken Slowdown
// more of the time it has taken so far: more work per op, as a regression
// in a driver or an engine would add.
func delay(t0 int64) {
	until := nanotime() + int64(float64(nanotime()-t0)*Slowdown)
	for nanotime() < until {
	}
}
