package workload

import (
	"fmt"
	"strings"
)

// ReplaySelect is the part of a capture a replay keeps by what its
// transactions do (gobench replay --read-only) or which statements they
// run (--filter): a transaction runs whole or not at all. With ReadOnly,
// only the transactions that wrote nothing when captured run (no
// statement changed a row, made a commit, wrote the schema or is a
// write by its verb); with Include, only those with a statement whose
// fingerprint matches one of its terms; with Exclude, none with a
// statement that matches one of its. A term is a fingerprint's id
// (q9c0651b9) or a prefix of its text. The schema statements (CREATE,
// DROP, ALTER, not of temporary objects) of the transactions cut run
// first, in their captured order, so that the statements kept find
// their tables and indexes.
type ReplaySelect struct {
	ReadOnly bool     `json:"read_only,omitempty"`
	Include  []string `json:"include,omitempty"`
	Exclude  []string `json:"exclude,omitempty"`
	// Of counts the statements the cut chose from (the capture's, or its
	// window's); Transactions the transactions kept (Replay.Statements
	// counts their statements); Schema the schema statements of the
	// transactions cut, run first.
	Of           int64 `json:"of"`
	Transactions int64 `json:"transactions"`
	Schema       int64 `json:"schema"`
}

// Terms returns the --filter value the selection's terms make, excluded
// ones marked with a minus ("" for none).
func (s *ReplaySelect) Terms() string {
	terms := append([]string(nil), s.Include...)
	for _, t := range s.Exclude {
		terms = append(terms, "-"+t)
	}
	return strings.Join(terms, ",")
}

// Line says what the selection cut, of statements kept (the replay's
// Statements): "read-only: 120 of 400 statements (30 transactions)",
// "filter: 80 of 400 statements (20 transactions), fingerprints
// q1a2b3c4d,-q5e6f7a8b".
func (s *ReplaySelect) Line(kept int64) string {
	var parts []string
	if s.ReadOnly {
		parts = append(parts, "read-only")
	}
	if t := s.Terms(); t != "" {
		parts = append(parts, "filter")
	}
	line := fmt.Sprintf("%s: %d of %d statements (%d transactions)", strings.Join(parts, " + "), kept, s.Of, s.Transactions)
	if t := s.Terms(); t != "" {
		line += ", fingerprints " + t
	}
	if s.Schema > 0 {
		line += fmt.Sprintf("; %d schema statements of the transactions cut run first", s.Schema)
	}
	return line
}
