package workload

import (
	"fmt"
	"math"
)

// ReplayRemap is how a scaled replay (Replay.Scale above 1) keeps its
// copies' keys apart: copy c runs each statement with the values bound
// to key columns moved to a range of its own, integers by c × Span and
// text and blobs with the suffix "#c" (RemapSuffix), and starts from a
// copy of the snapshot's rows moved the same way; copy 0 is the capture
// as it was. A key column is a table's INTEGER PRIMARY KEY, a column of
// its PRIMARY KEY or of a UNIQUE index, or one that references another
// by FOREIGN KEY. A statement whose keys cannot all be moved (a key
// written as a literal in its text, a parameter whose column is not
// known, a write or read of a table restricted by no key) runs
// unchanged: its copies share keys there, and Shared counts it.
type ReplayRemap struct {
	// Span is the size of each copy's range of integer keys: a power of
	// ten above every key value of the snapshot and the trace and the
	// statements' count. 0 when the keys are not remapped, and Why says
	// why: every statement is then shared.
	Span int64  `json:"span,omitempty"`
	Why  string `json:"why,omitempty"`
	// Tables are the database's tables that have key columns (those of
	// the snapshot and those the capture created).
	Tables []RemapTable `json:"tables,omitempty"`
	// Remapped counts the statements of one copy whose keys are moved,
	// Shared those that run unchanged (SharedFingerprints their
	// fingerprints, SharedKinds the ids of the statement kinds they are
	// among); the rest (transaction control, PRAGMAs, statements naming
	// no table) touch no row.
	Remapped           int64    `json:"remapped"`
	Shared             int64    `json:"shared"`
	SharedFingerprints int      `json:"shared_fingerprints"`
	SharedKinds        []string `json:"shared_kinds,omitempty"`
}

// RemapTable is a table's key columns (ReplayRemap).
type RemapTable struct {
	// Name is the table's name as its schema spells it.
	Name string `json:"name"`
	// Columns are its columns in order (lower case), Keys its key
	// columns, Alias its INTEGER PRIMARY KEY (the rowid), if it has one.
	Columns []string `json:"columns"`
	Keys    []string `json:"keys"`
	Alias   string   `json:"alias,omitempty"`
	// Rows says the snapshot holds the table: each copy starts from a
	// copy of its rows.
	Rows bool `json:"rows,omitempty"`
}

// RemapSuffix is the suffix copy c gives a text or blob key.
func RemapSuffix(c int) string { return fmt.Sprintf("#%d", c) }

// Fits reports whether scale copies of the keys fit in 64 bits.
func (m *ReplayRemap) Fits(scale int) bool {
	return m != nil && m.Span > 0 && m.Span <= math.MaxInt64/int64(max(scale, 1))
}

// Remapping reports whether r remaps its copies' keys.
func (r *Replay) Remapping() bool { return r.Scale > 1 && r.Remap.Fits(r.Scale) }

// SharedLine says how many statements shared keys across a scaled
// replay's copies, "" when the replay is not scaled.
func (r *Replay) SharedLine() string {
	m := r.Remap
	switch {
	case r.Scale <= 1 || m == nil:
		return ""
	case !r.Remapping():
		why := m.Why
		if why == "" {
			why = fmt.Sprintf("key values leave no room for %d copies in 64 bits", r.Scale)
		}
		return fmt.Sprintf("keys: not remapped (%s): the %d copies share every key", why, r.Scale)
	}
	return fmt.Sprintf("keys: %d statements remapped to each copy's keys (integers offset by %d per copy, text keys suffixed #copy); %d statements (%d fingerprints) shared keys across copies: they ran unchanged",
		m.Remapped, m.Span, m.Shared, m.SharedFingerprints)
}
