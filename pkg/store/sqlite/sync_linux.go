package sqlite

// syncPrimitive is the call driver's SQLite makes to sync a file on
// Linux (strace shows it): SQLite's unix VFS, built without
// HAVE_FDATASYNC as mattn's, capi's and modernc's are, calls fsync;
// ncruces's VFS in Go calls fdatasync.
func syncPrimitive(driver string) string {
	if driver == "ncruces" {
		return "fdatasync"
	}
	return "fsync"
}
