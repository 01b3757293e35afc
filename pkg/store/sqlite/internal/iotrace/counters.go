package iotrace

import (
	"sync/atomic"

	"github.com/gobench/gobench/pkg/store"
)

// SQLite's sync flags (xSync's argument).
const (
	SyncNormal   = 0x02
	SyncFull     = 0x03
	SyncDataOnly = 0x10
)

// Counters count the I/O of a VFS's files by role, with an atomic add per
// event: what a Go VFS keeps (the C one keeps the same in C). The zero
// value is ready.
type Counters struct {
	roles [store.NumRoles]roleCounters
}

type roleCounters struct {
	writes, bytes, syncs, full, data, truncates, deletes, dirSyncs, misdirected atomic.Int64
}

// role returns the counters of role (others for an unknown one).
func (c *Counters) role(role int) *roleCounters {
	if role < 0 || role >= store.NumRoles {
		role = store.RoleOther
	}
	return &c.roles[role]
}

// Write counts a write of n bytes.
func (c *Counters) Write(role, n int) {
	r := c.role(role)
	r.writes.Add(1)
	r.bytes.Add(int64(n))
}

// Sync counts n syncs of a file asked for with SQLite's flags.
func (c *Counters) Sync(role int, flags int, n int64) {
	r := c.role(role)
	r.syncs.Add(n)
	if flags&0x0f == SyncFull {
		r.full.Add(n)
	}
	if flags&SyncDataOnly != 0 {
		r.data.Add(n)
	}
}

// Truncate counts a truncate.
func (c *Counters) Truncate(role int) { c.role(role).truncates.Add(1) }

// Delete counts a deletion.
func (c *Counters) Delete(role int) { c.role(role).deletes.Add(1) }

// DirSync counts a sync of the directory for a file of role.
func (c *Counters) DirSync(role int) { c.role(role).dirSyncs.Add(1) }

// MisdirectedDirSync counts a directory sync made to the file instead.
func (c *Counters) MisdirectedDirSync(role int) { c.role(role).misdirected.Add(1) }

// Snapshot reads every count.
func (c *Counters) Snapshot() store.IOCounts {
	var io store.IOCounts
	for i := range c.roles {
		r := &c.roles[i]
		*io.Role(i) = store.FileIO{
			Writes: r.writes.Load(), Bytes: r.bytes.Load(),
			Syncs: r.syncs.Load(), FullSyncs: r.full.Load(), DataSyncs: r.data.Load(),
			Truncates: r.truncates.Load(), Deletes: r.deletes.Load(),
			DirSyncs: r.dirSyncs.Load(), MisdirectedDirSyncs: r.misdirected.Load(),
		}
	}
	return io
}
