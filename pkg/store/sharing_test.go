package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

type shareDriver struct{ share store.Share }

func (shareDriver) Name() string { return "s" }
func (shareDriver) Open(context.Context, store.Config) (store.Store, error) {
	return nil, errors.New("not opened")
}
func (d shareDriver) Share() store.Share { return d.share }

type plainDriver struct{}

func (plainDriver) Name() string { return "p" }
func (plainDriver) Open(context.Context, store.Config) (store.Store, error) {
	return nil, errors.New("not opened")
}

// CheckShare refuses what a driver's sharing cannot host, naming its
// lock; a driver that says nothing is shared by processes.
func TestCheckShare(t *testing.T) {
	t.Parallel()
	proc := shareDriver{store.Share{Sharing: store.ShareProcess, Lock: "a flock on its file"}}
	one := shareDriver{store.Share{Sharing: store.ShareGoroutine, Lock: "one handle"}}
	for _, tt := range []struct {
		drv                store.Driver
		processes, workers int
		want               string // "" for allowed
	}{
		{plainDriver{}, 26, 25, ""},
		{proc, 1, 25, ""},
		{proc, 2, 1, "driver s allows one process at a time (a flock on its file), and this run opens the database in 2 processes"},
		{one, 1, 1, ""},
		{one, 1, 2, "driver s allows one connection at a time (one handle), and this run has 2 workers"},
		{one, 2, 1, "allows one process at a time (one handle)"},
	} {
		err := store.CheckShare(tt.drv, tt.processes, tt.workers)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s, %d processes, %d workers: %v", store.ShareOf(tt.drv).Sharing, tt.processes, tt.workers, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, store.ErrInvalid)):
			t.Errorf("%s, %d processes, %d workers: %v, want ErrInvalid %q", store.ShareOf(tt.drv).Sharing, tt.processes, tt.workers, err, tt.want)
		}
	}
	if s := store.ShareOf(plainDriver{}).Sharing.String(); s != "processes" {
		t.Errorf("a plain driver shares by %q", s)
	}
}
