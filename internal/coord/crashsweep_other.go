//go:build !linux

package coord

// canSweepCrashDirs: without Linux's open-file-description locks (lockFile
// does nothing here) a live run's --crash directory cannot be told from a
// dead one's, so none is swept.
const canSweepCrashDirs = false
