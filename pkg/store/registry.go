package store

import (
	"fmt"
	"sort"
	"strings"
)

// Registry maps driver names to drivers. It is built explicitly by whoever
// needs one (see package all); there is no global registry. A Registry is
// not safe for concurrent registration; build it first, then share it.
type Registry struct {
	drivers map[string]Driver
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{drivers: map[string]Driver{}} }

// Register adds d under d.Name(). It panics on a nil driver, an empty name
// or a duplicate name: those are programming errors.
func (r *Registry) Register(d Driver) {
	if d == nil {
		panic("store: Register of a nil driver")
	}
	name := d.Name()
	if name == "" {
		panic("store: Register of a driver with an empty name")
	}
	if _, dup := r.drivers[name]; dup {
		panic("store: Register called twice for driver " + name)
	}
	r.drivers[name] = d
}

// Lookup returns the driver registered under name, or an error of class
// ErrInvalid that lists the names available.
func (r *Registry) Lookup(name string) (Driver, error) {
	if d, ok := r.drivers[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("%w: unknown driver %q (available: %s)", ErrInvalid, name, strings.Join(r.Names(), ", "))
}

// Names returns the registered driver names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.drivers))
	for n := range r.drivers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
