package crashstate

import (
	"fmt"
	"maps"
	"path"
	"slices"

	"github.com/gobench/gobench/pkg/iorecord"
)

// label names the persistence point e, already applied: "after
// fdatasync #12 of data.mdb", "after directory sync #3 of the store's
// directory", counting the syncs of each name from the record's
// start (a journal deleted and made again goes on counting): called
// once per sync, as an exhaustive simulation builds a state after each.
func (m *model) label(e *iorecord.Event) string {
	var n *node
	switch e.Kind {
	case iorecord.KindSync:
		n, _ = m.file(e)
	case iorecord.KindDirSync:
		n, _ = m.dirSynced(e)
	}
	if n == nil {
		return fmt.Sprintf("after event %d", e.Kind)
	}
	what := "fsync"
	switch {
	case n.dir:
		what = "directory sync"
	case e.Flags&iorecord.FlagDataSync != 0:
		what = "fdatasync"
	}
	name := m.nameOf(n)
	if m.syncsOf == nil {
		m.syncsOf = map[string]int{}
	}
	m.syncsOf[name]++
	return fmt.Sprintf("after %s #%d of %s", what, m.syncsOf[name], name)
}

// nameOf returns the path of n in the store's tree ("the store's
// directory" for its root),
// as the page cache holds it, or "an unnamed file" for one no directory
// holds (deleted, or met only by its descriptor).
func (m *model) nameOf(n *node) string {
	if n == m.root {
		return "the store's directory"
	}
	if p, ok := m.find(m.root, n, ""); ok {
		return p
	}
	return "an unnamed file"
}

// find looks for n under d, whose path is prefix, in the order of the
// entries' names.
func (m *model) find(d, n *node, prefix string) (string, bool) {
	for _, name := range slices.Sorted(maps.Keys(d.entries)) {
		c := d.entries[name]
		p := path.Join(prefix, name)
		if c == n {
			return p, true
		}
		if c.dir {
			if q, ok := m.find(c, n, p); ok {
				return q, true
			}
		}
	}
	return "", false
}
