//go:build cgo

package lmdb

import (
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// Settings returns the LMDB engine's command-line settings:
// --lmdb-map-size and --lmdb-nosync.
func (Driver) Settings() store.Settings { return &settings{o: DefaultOptions()} }

var _ store.Configurable = Driver{}

type settings struct{ o Options }

func (s *settings) Engine() string  { return "the lmdb engine" }
func (s *settings) Flags() []string { return []string{"lmdb-map-size", "lmdb-nosync"} }

func (s *settings) AddFlags(fs *pflag.FlagSet) {
	fs.Int64Var(&s.o.MapSizeMiB, "lmdb-map-size", s.o.MapSizeMiB, "lmdb engine: map size in MiB, the most the database can grow to")
	fs.BoolVar(&s.o.NoSync, "lmdb-nosync", false, "lmdb engine: skip the fsync at each commit (MDB_NOSYNC)")
}

// Cells is one cell: LMDB has no in-memory mode here.
func (s *settings) Cells(w store.Want) ([]store.Cell, error) {
	return store.DiskCell(s.Engine(), "lmdb-map-size", w, s.o.Validate, s.o.Encode)
}

// Transactional reports that LMDB connections batch ops.
func (Driver) Transactional() bool { return true }

var _ store.Transactional = Driver{}
