package crashstate

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// failedSync appends a sync that failed (iorecord.FlagFailed).
func (s *script) failedSync(role int) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindSync, Role: uint8(role), Flags: iorecord.FlagFailed})
}

// sector returns n bytes of c, a sector's worth by default.
func sector(c byte) string { return strings.Repeat(string(c), SectorSize) }

// A failed sync drops exactly what it would have made durable: the
// sectors written since the last sync that worked, which no later sync
// writes unless they are written again; sectors synced before it, and
// those written after it and synced, are durable.
func TestFailedSyncDropsItsPages(t *testing.T) {
	old := sector('o') + sector('o') + sector('o')
	for _, tc := range []struct {
		name string
		run  func(s *script)
		want string
		// failed is how many failed syncs the last state follows.
		failed int
	}{
		{"a sync that works keeps every write", func(s *script) {
			s.write(store.RoleDatabase, 0, sector('A')).sync(store.RoleDatabase).
				write(store.RoleDatabase, SectorSize, sector('B')).sync(store.RoleDatabase)
		}, sector('A') + sector('B') + sector('o'), 0},
		{"the failed sync's sector is lost, later ones kept", func(s *script) {
			s.write(store.RoleDatabase, 0, sector('A')).sync(store.RoleDatabase).
				write(store.RoleDatabase, SectorSize, sector('B')).failedSync(store.RoleDatabase).
				write(store.RoleDatabase, 2*SectorSize, sector('C')).sync(store.RoleDatabase)
		}, sector('A') + sector('o') + sector('C'), 1},
		{"a sector written again after the failure is kept", func(s *script) {
			s.write(store.RoleDatabase, SectorSize, sector('B')).failedSync(store.RoleDatabase).
				write(store.RoleDatabase, SectorSize, sector('b')).sync(store.RoleDatabase)
		}, sector('o') + sector('b') + sector('o'), 1},
		{"a retried sync does not bring the dropped sector back", func(s *script) {
			s.write(store.RoleDatabase, 0, sector('A')).failedSync(store.RoleDatabase).sync(store.RoleDatabase)
		}, old, 1},
		{"a failed sync of a grown file keeps the old size", func(s *script) {
			s.write(store.RoleDatabase, 3*SectorSize, sector('D')).failedSync(store.RoleDatabase)
		}, old, 1},
		{"the grown part a later sync covers reads as zeros", func(s *script) {
			s.write(store.RoleDatabase, 3*SectorSize, sector('D')).failedSync(store.RoleDatabase).
				write(store.RoleDatabase, 4*SectorSize, sector('E')).sync(store.RoleDatabase)
		}, old + strings.Repeat("\x00", SectorSize) + sector('E'), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newScript(t, map[string]string{"db": old})
			tc.run(s)
			files, states := s.states(store.CrashFsyncFail, 1<<20)
			last := len(files) - 1
			if got := files[last]["db"]; got != tc.want {
				t.Errorf("db after the last event: %q…, want %q… (%d bytes, want %d)", head(got), head(tc.want), len(got), len(tc.want))
			}
			if st := states[last]; st.FailedSyncs != tc.failed {
				t.Errorf("%d failed syncs before the cut, want %d", st.FailedSyncs, tc.failed)
			}
		})
	}
}

// head shows a sector's first byte per sector.
func head(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i += SectorSize {
		b.WriteByte(s[i])
	}
	return b.String()
}
