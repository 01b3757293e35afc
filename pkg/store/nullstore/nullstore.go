// Package nullstore is an engine that stores nothing: every read finds a
// fixed value and every write succeeds at once. It exists to measure
// gobench itself: a run against it is pure harness cost (lottery, clock,
// sample recording, the pipe to the coordinator and the merge), the floor
// under every real engine's figures.
package nullstore

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is the null engine, registered as "null".
type Driver struct{}

var _ store.Driver = Driver{}

// Name returns "null".
func (Driver) Name() string { return "null" }

// Open returns a null store; the path is ignored and never touched.
func (Driver) Open(context.Context, store.Config) (store.Store, error) { return nullStore{}, nil }

type nullStore struct{}

var _ store.Store = nullStore{}
var _ store.Describer = nullStore{}

func (nullStore) Init(context.Context) error               { return nil }
func (nullStore) Conn(context.Context) (store.Conn, error) { return &conn{}, nil }
func (nullStore) Close() error                             { return nil }
func (nullStore) Describe(context.Context) ([]store.Fact, error) {
	return []store.Fact{{Name: "driver", Value: "null"}}, nil
}

// value is what every read returns.
var value = []byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")

type conn struct{}

var (
	_ store.KVConn   = (*conn)(nil)
	_ store.Scripter = (*conn)(nil)
)

func (*conn) Get(_ uint64, dst []byte) ([]byte, error) { return append(dst[:0], value...), nil }
func (*conn) Put(uint64, []byte) error                 { return nil }
func (*conn) Update(uint64, []byte) error              { return nil }
func (*conn) Delete(uint64) error                      { return nil }
func (*conn) Insert(uint64, []byte) error              { return nil }
func (*conn) Scan(_ uint64, n int) (int, error)        { return n, nil }
func (*conn) Last(_, hi uint64, dst []byte) (uint64, []byte, error) {
	return hi, append(dst[:0], value...), nil
}
func (*conn) Begin() error    { return nil }
func (*conn) Commit() error   { return nil }
func (*conn) Rollback() error { return nil }
func (*conn) Close() error    { return nil }

// Prepare returns a statement that does nothing: the null engine runs the
// scripts of gobench sql at no cost, so that what remains is gobench's own
// (store.Scripter).
func (*conn) Prepare(_ string, params []string) (store.Statement, error) {
	return nullStmt(len(params)), nil
}

// nullStmt is a statement of n parameters that does nothing.
type nullStmt int

// Run checks the number of arguments, and returns no rows.
func (s nullStmt) Run(args ...any) (int64, error) {
	if len(args) != int(s) {
		return 0, fmt.Errorf("%w: %d arguments for %d parameters", store.ErrInvalid, len(args), int(s))
	}
	return 0, nil
}
