package files

import (
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// Settings returns the files engine's command-line settings: --layout and
// --fsync.
func (Driver) Settings() store.Settings { return &settings{o: DefaultOptions()} }

var _ store.Configurable = Driver{}

type settings struct{ o Options }

func (s *settings) Engine() string  { return "the files engine" }
func (s *settings) Flags() []string { return []string{"layout", "fsync"} }

func (s *settings) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&s.o.Layout, "layout", s.o.Layout, "files engine: flat (one directory) or tree (kvtest's: key k at k/10000/k/100%100/k%100, at most 100 entries per directory)")
	fs.BoolVar(&s.o.Fsync, "fsync", false, "files engine: fsync every written file before the write returns")
}

// Cells is one cell: the files engine has no in-memory mode.
func (s *settings) Cells(w store.Want) ([]store.Cell, error) {
	return store.DiskCell(s.Engine(), "layout", w, s.o.Validate, s.o.Encode)
}

var _ store.Completer = (*settings)(nil)

// Values lists the values of --layout.
func (s *settings) Values(flag string) []string {
	if flag == "layout" {
		return []string{Flat, Tree}
	}
	return nil
}
