package result

import (
	"encoding/json"
	"fmt"
	"io"
)

// BookKind marks a book's JSON.
const BookKind = "book"

// Book is several suites kept as one file: every scenario of `gobench
// scenario run all --json`, each suite with its verdict and finding, so
// that CI keeps one file for one command.
type Book struct {
	SchemaVersion int    `json:"schema_version"`
	Kind          string `json:"kind"` // always "book"
	// Suites are the book's suites in the order they ran.
	Suites []*Suite `json:"suites"`
}

// NewBook returns the book of suites.
func NewBook(suites []*Suite) *Book {
	return &Book{SchemaVersion: SchemaVersion, Kind: BookKind, Suites: suites}
}

// Write encodes the book as indented JSON.
func (b *Book) Write(w io.Writer) error { return writeIndented(w, b) }

// decodeBook decodes a book's JSON, each suite read and checked as
// ReadSuite reads and checks a suite file.
func decodeBook(data []byte) (*Book, error) {
	var raw struct {
		SchemaVersion int               `json:"schema_version"`
		Suites        []json.RawMessage `json:"suites"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("decoding book: %w", err)
	}
	if raw.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("book schema version %d is not supported (this gobench reads version %d)", raw.SchemaVersion, SchemaVersion)
	}
	if len(raw.Suites) == 0 {
		return nil, fmt.Errorf("decoding book: it holds no suite")
	}
	out := NewBook(nil)
	for i, r := range raw.Suites {
		s, err := decodeSuite(r)
		if err != nil {
			return nil, fmt.Errorf("book suite %d: %w", i+1, err)
		}
		out.Suites = append(out.Suites, s)
	}
	return out, nil
}
