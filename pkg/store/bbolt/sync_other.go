//go:build !linux

package bbolt

import "github.com/gobench/gobench/pkg/store"

// syncPrimitive is what bbolt calls to sync its file outside Linux:
// os.File.Sync.
const syncPrimitive = store.FileSyncPrimitive
