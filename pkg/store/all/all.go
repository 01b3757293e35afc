// Package all builds the registry of every engine gobench ships. Engines
// that need cgo are registered from a file built only with cgo, so a
// CGO_ENABLED=0 build still has the pure-Go ones.
package all

import (
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/badger"
	"github.com/gobench/gobench/pkg/store/bbolt"
	"github.com/gobench/gobench/pkg/store/btreestore"
	"github.com/gobench/gobench/pkg/store/files"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/store/pebble"
	"github.com/gobench/gobench/pkg/store/sqlite"
)

// Registry returns a new registry holding every engine of this build.
func Registry() *store.Registry {
	r := store.NewRegistry()
	r.Register(nullstore.Driver{})
	r.Register(sqlite.Modernc())
	r.Register(sqlite.Ncruces())
	r.Register(mapstore.Driver{})
	r.Register(btreestore.Driver{})
	r.Register(files.Driver{})
	r.Register(bbolt.Driver{})
	r.Register(pebble.Driver{})
	r.Register(badger.Driver{})
	registerCgo(r)
	return r
}

// DefaultDriver is the driver gobench uses when none is named: mattn's
// cgo SQLite where this build has cgo, else modernc's pure-Go SQLite.
func DefaultDriver() string { return defaultDriver }
