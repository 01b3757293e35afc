//go:build cgo

package sqlite

import "github.com/gobench/gobench/pkg/store"

func init() {
	testDrivers = append(testDrivers, Mattn(), CAPI())
	rawExecs = append(rawExecs, func(c store.Conn, q string) (bool, error) {
		if c, ok := c.(*capiConn); ok {
			return true, c.c.Exec(q)
		}
		return false, nil
	})
}
