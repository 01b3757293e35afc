package pebble

// syncPrimitive is what pebble's vfs calls to sync its write-ahead log
// on Linux.
const syncPrimitive = "fdatasync"
