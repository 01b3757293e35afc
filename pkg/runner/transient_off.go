//go:build !gobench_transient

package runner

import "time"

// Transient is how long every op is made four times as long at the start
// of a run in a build with the gobench_transient tag: zero here, in every
// normal build, where transient compiles to nothing.
const Transient = time.Duration(0)

// transient does nothing outside a gobench_transient build.
func transient(int64) {}
