package coord

// canSweepCrashDirs: Linux's open-file-description locks tell a live
// run's --crash directory from one whose process is gone.
const canSweepCrashDirs = true
