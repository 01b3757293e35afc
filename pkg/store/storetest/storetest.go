// Package storetest runs the conformance checks every gobench engine
// passes (package conformance) from go test. An engine's test calls Run
// with a function that returns a fresh Config for an empty database:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, sqlite.Modernc(), func(t storetest.T) store.Config {
//			return store.Config{Path: filepath.Join(t.TempDir(), "db")}
//		})
//	}
//
// Wrap builds misbehaving engines for tests. Only tests import this
// package.
package storetest

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/conformance"
)

// T is what a check needs of its test; *testing.T has it.
type T = conformance.T

// NewConfig returns the Config of a new, empty database for one check.
type NewConfig = conformance.NewConfig

// Run runs every conformance check against drv as a subtest.
func Run(t *testing.T, drv store.Driver, cfg NewConfig) {
	t.Helper()
	for _, c := range conformance.Checks() {
		t.Run(c.Name, func(t *testing.T) {
			c.Fn(t, drv, conformance.Open(t, drv, c.Config(cfg(t))))
		})
	}
}
