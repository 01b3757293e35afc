package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DecodeOptions reads an engine's options from a Config's raw JSON into o
// (which holds the defaults), refusing unknown fields, and validates
// them. Errors are of class ErrInvalid and name the engine.
func DecodeOptions[T interface{ Validate() error }](raw json.RawMessage, o *T, engine string) error {
	if len(raw) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(o); err != nil {
			return fmt.Errorf("%w: %s options: %w", ErrInvalid, engine, err)
		}
	}
	if err := (*o).Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// ClaimDir makes dir an engine's own: it creates the directory if it is
// missing, accepts it if it is empty or already holds marker, and refuses
// any other non-empty directory with ErrForeign, changing nothing. It then
// writes the marker file. It returns the entries dir held before.
func ClaimDir(dir, marker, what string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", dir, err)
		}
	case err != nil:
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, dir, err)
	case len(entries) > 0:
		if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
			return nil, fmt.Errorf("%w: %s is a non-empty directory that gobench did not create; choose a new path", ErrForeign, dir)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, marker), []byte(what+"\n"), 0o644); err != nil {
		return nil, err
	}
	return entries, nil
}
