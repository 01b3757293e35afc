//go:build !linux

package runner

import "time"

// lockForSleep needs nothing where time.Sleep is precise enough.
func lockForSleep() (unlock func()) { return func() {} }

// sleepUntil blocks until nanotime reaches due: time.Sleep to within
// spinWindow of it, then a spin.
func sleepUntil(due int64) {
	if d := due - nanotime() - int64(spinWindow); d > 0 {
		time.Sleep(time.Duration(d))
	}
	for nanotime() < due {
	}
}
