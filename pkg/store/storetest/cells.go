package storetest

import (
	"encoding/json"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// Cells parses args as a command line gives d's flags and returns the
// options of each cell they span, as a store.Config carries them.
func Cells(t testing.TB, d store.Declaration, args ...string) []json.RawMessage {
	t.Helper()
	s := d.Settings()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	s.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	cells, err := s.Cells(store.Want{})
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	out := make([]json.RawMessage, len(cells))
	for i, c := range cells {
		out[i] = c.Options
	}
	return out
}

// Options parses args as Cells does, wants exactly one cell and returns
// its options as the engine decodes them.
func Options[T store.Validator](t testing.TB, d *store.Decl[T], args ...string) T {
	t.Helper()
	cells := Cells(t, d, args...)
	if len(cells) != 1 {
		t.Fatalf("%v: %d cells, want 1", args, len(cells))
	}
	o, err := d.Decode(cells[0])
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return o
}
