//go:build !gobench_slowdown

package runner

// Slowdown is the share of its own time every op is made to take longer
// in a build with the gobench_slowdown tag: zero here, in every normal
// build, where delay compiles to nothing.
const Slowdown = 0.0

// delay does nothing outside a gobench_slowdown build.
func delay(int64) {}
