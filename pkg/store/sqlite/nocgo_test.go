//go:build !cgo

package sqlite

import (
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// closeUserOther: a build without cgo has no other connection type.
func closeUserOther(c store.Conn) error { return fmt.Errorf("a connection of type %T", c) }
