package store_test

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

func TestPromiseKept(t *testing.T) {
	for _, tc := range []struct {
		level          string
		lossy, corrupt int
		want           bool
	}{
		{store.PromiseKeeps, 0, 0, true},
		{store.PromiseKeeps, 1, 0, false},
		{store.PromiseKeeps, 0, 1, false},
		{store.PromiseMayLose, 7, 0, true},
		{store.PromiseMayLose, 0, 1, false},
		{store.PromiseNone, 7, 3, true},
	} {
		if got := (store.Promise{Level: tc.level}).Kept(tc.lossy, tc.corrupt); got != tc.want {
			t.Errorf("%s with %d lossy and %d corrupt states: kept %v, want %v", tc.level, tc.lossy, tc.corrupt, got, tc.want)
		}
	}
}

func TestPromiseBySync(t *testing.T) {
	off, normal, full := store.Promise{Says: "off"}, store.Promise{Says: "normal"}, store.Promise{Says: "full"}
	for sync, want := range map[string]string{store.SyncOff: "off", store.SyncNormal: "normal", store.SyncFull: "full"} {
		p, ok := store.PromiseBySync([]store.Fact{{Name: "sync", Value: sync}}, off, normal, full)
		if !ok || p.Says != want {
			t.Errorf("sync %s: %+v, %v; want %s", sync, p, ok, want)
		}
	}
	if _, ok := store.PromiseBySync(nil, off, normal, full); ok {
		t.Error("no sync fact: a promise was given")
	}
}
