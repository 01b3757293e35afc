//go:build cgo

package all

import (
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/lmdb"
	"github.com/gobench/gobench/pkg/store/sqlite"
)

const defaultDriver = "mattn"

func registerCgo(r *store.Registry) {
	r.Register(sqlite.Mattn())
	r.Register(sqlite.CAPI())
	r.Register(lmdb.Driver{})
}
