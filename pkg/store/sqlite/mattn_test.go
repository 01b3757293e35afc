//go:build cgo

package sqlite

func init() { testDrivers = append(testDrivers, Mattn()) }
