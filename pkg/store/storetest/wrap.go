package storetest

import (
	"context"

	"github.com/gobench/gobench/pkg/store"
)

// Wrap returns a driver registered as name that opens drv's stores and
// hands each new connection to wrap: how a test makes an engine stall,
// fail or lie on cue without writing a driver and a store type of its
// own. The wrapped connection has only the optional interfaces the one
// wrap returns implements.
func Wrap(name string, drv store.Driver, wrap func(store.Conn) store.Conn) store.Driver {
	return wrapped{name: name, drv: drv, wrap: wrap}
}

type wrapped struct {
	name string
	drv  store.Driver
	wrap func(store.Conn) store.Conn
}

func (w wrapped) Name() string { return w.name }

func (w wrapped) Open(ctx context.Context, cfg store.Config) (store.Store, error) {
	st, err := w.drv.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return wrappedStore{Store: st, wrap: w.wrap}, nil
}

// Share keeps the wrapped driver's answer.
func (w wrapped) Share() store.Share { return store.ShareOf(w.drv) }

type wrappedStore struct {
	store.Store
	wrap func(store.Conn) store.Conn
}

func (s wrappedStore) Conn(ctx context.Context) (store.Conn, error) {
	c, err := s.Store.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return s.wrap(c), nil
}
