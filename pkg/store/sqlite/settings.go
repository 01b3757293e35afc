package sqlite

import "github.com/gobench/gobench/pkg/store"

// Transactional reports that SQLite connections batch ops.
func (d *Driver) Transactional() bool { return true }

var _ store.Transactional = (*Driver)(nil)
