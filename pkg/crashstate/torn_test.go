package crashstate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// Under each torn model, every part of a state (a sector under torn, a
// page under torn-4k) holds either what was durable or what one write
// put there, never a mix within the part; a torn-4k state never mixes
// within a page, while torn ones do; over many states, some parts of
// unsynced writes survive and some do not.
func TestTornModelsKeepWholeUnits(t *testing.T) {
	const size = 4 * 4096
	for _, tc := range []struct {
		model string
		unit  int
		// pageMix says whether some state must hold a page that mixes
		// old and new bytes.
		pageMix bool
	}{
		{store.CrashTorn, SectorSize, true},
		{store.CrashTorn4K, 4096, false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			if got := store.TornUnit(tc.model); got != int64(tc.unit) {
				t.Fatalf("TornUnit(%q) = %d, want %d", tc.model, got, tc.unit)
			}
			old := bytes.Repeat([]byte{'o'}, size)
			s := newScript(t, map[string]string{"db": string(old)})
			for i := range 40 {
				s.write(store.RoleDatabase, 0, string(bytes.Repeat([]byte{byte('a' + i%8)}, size)))
				s.ack(0, uint64(i))
			}
			files, states := s.states(tc.model, 30)
			var kept int64
			mixed := false
			for i, f := range files {
				db := f["db"]
				if len(db) != size {
					t.Fatalf("state %d: %d bytes", i, len(db))
				}
				for u := 0; u < size; u += tc.unit {
					if part := db[u : u+tc.unit]; part != strings.Repeat(part[:1], tc.unit) {
						t.Fatalf("state %d: the %d bytes at %d hold a mix", i, tc.unit, u)
					}
				}
				for p := 0; p < size; p += 4096 {
					page := db[p : p+4096]
					mixed = mixed || page != strings.Repeat(page[:1], 4096)
				}
				kept += states[i].SurvivingSectors
			}
			if kept == 0 {
				t.Error("no part of an unsynced write ever survived")
			}
			if mixed != tc.pageMix {
				t.Errorf("some state mixed old and new bytes within a page: %v, want %v", mixed, tc.pageMix)
			}
		})
	}
}

// A write that starts and ends inside pages tears at the file's page
// boundaries: under torn-4k, each of its parts (the bytes of it inside
// one page) survives whole or not at all.
func TestTorn4KTearsAtPageBoundaries(t *testing.T) {
	old := bytes.Repeat([]byte{'o'}, 3*4096)
	s := newScript(t, map[string]string{"db": string(old)})
	const off, n = 100, 2*4096 + 500 // parts: [100,4096) [4096,8192) [8192,8792)
	for i := range 30 {
		s.write(store.RoleDatabase, off, string(bytes.Repeat([]byte{byte('a' + i%8)}, n)))
		s.ack(0, uint64(i))
	}
	files, _ := s.states(store.CrashTorn4K, 30)
	parts := [][2]int{{0, off}, {off, 4096}, {4096, 8192}, {8192, off + n}, {off + n, 3 * 4096}}
	torn := false
	for i, f := range files {
		db := f["db"]
		for j, p := range parts {
			part := db[p[0]:p[1]]
			if part != strings.Repeat(part[:1], len(part)) {
				t.Fatalf("state %d: part %d [%d,%d) holds a mix", i, j, p[0], p[1])
			}
			if (j == 0 || j == len(parts)-1) && part[0] != 'o' {
				t.Fatalf("state %d: bytes outside the write changed", i)
			}
		}
		torn = torn || db[off] != db[4096] || db[4096] != db[8192]
	}
	if !torn {
		t.Error("no state held parts of a write from different writes (or the durable bytes): nothing tore")
	}
}
