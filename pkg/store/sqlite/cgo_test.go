//go:build cgo

package sqlite

import (
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

func init() {
	testDrivers = append(testDrivers, Mattn(), CAPI())
	rawExecs = append(rawExecs, func(c store.Conn, q string) (bool, error) {
		if c, ok := c.(*capiConn); ok {
			return true, c.c.Exec(q)
		}
		return false, nil
	})
}

// closeUserOther closes the statements of the user's of a cgo build's
// connection (closeUserStmts).
func closeUserOther(c store.Conn) error {
	cc, ok := c.(*capiConn)
	if !ok {
		return fmt.Errorf("a connection of type %T", c)
	}
	err := closeUser(cc.user)
	cc.user = cc.user[:0]
	return err
}
