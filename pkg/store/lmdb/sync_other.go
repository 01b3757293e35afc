//go:build !darwin

package lmdb

// syncPrimitive is what LMDB calls to sync its file (MDB_FDATASYNC):
// fdatasync on Linux.
const syncPrimitive = "fdatasync"
