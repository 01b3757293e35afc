package lmdb

// syncPrimitive is what LMDB calls to sync its file on macOS
// (MDB_FDATASYNC): fcntl F_FULLFSYNC.
const syncPrimitive = "F_FULLFSYNC"
