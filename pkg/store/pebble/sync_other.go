//go:build !linux

package pebble

import "github.com/gobench/gobench/pkg/store"

// syncPrimitive is what pebble's vfs calls to sync its write-ahead log
// outside Linux: os.File.Sync.
const syncPrimitive = store.FileSyncPrimitive
