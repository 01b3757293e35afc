package bbolt

// syncPrimitive is what bbolt calls to sync its file on Linux.
const syncPrimitive = "fdatasync"
