package badger

// syncPrimitive is what badger calls to sync its logs, which are memory
// maps (ristretto's z.MmapFile): msync, on every OS.
const syncPrimitive = "msync"
