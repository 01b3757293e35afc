package coord

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// misbehaving wraps the map engine: "lossy" acknowledges every 7th upsert
// without storing it; "ghost" stores every 7th upsert but reports busy.
func misbehaving(mode string) store.Driver {
	return storetest.Wrap(mode, mapstore.Driver{}, func(c store.Conn) store.Conn { return &misbehavingConn{Conn: c, mode: mode} })
}

type misbehavingConn struct {
	store.Conn
	mode string
	n    int
}

func (c *misbehavingConn) Put(key uint64, value []byte) error {
	if tag, _ := workload.ParseTag(value); tag.Preload {
		return c.Conn.Put(key, value) // the preload is not under test
	}
	if c.n++; c.n%7 == 0 {
		if c.mode == "lossy" {
			return nil
		}
		_ = c.Conn.Put(key, value)
		return store.ErrBusy
	}
	return c.Conn.Put(key, value)
}

func verifyPlan(driver string) *workload.Plan {
	p := nullPlan(1, 4, 2000)
	p.Mode = workload.ModeGoroutine
	p.Driver = driver
	p.Verify = true
	p.Phases[0].Mix, _ = workload.ParseMix("read=50,upsert=50")
	p.Keys.Count, p.Preload = 500, 500
	return p
}

// --verify finds no violation on a sound engine, and finds the writes a
// lossy engine dropped or a ghostly one made without acknowledging.
func TestVerify(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	reg.Register(misbehaving("lossy"))
	reg.Register(misbehaving("ghost"))

	res, err := Run(context.Background(), Config{Plan: verifyPlan("map"), Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Verify; v == nil || v.Violations != 0 || v.KeysChecked != 500 || v.AckedWrites != 4000 {
		t.Fatalf("sound engine: %+v", res.Verify)
	}
	for _, tt := range []struct{ mode, want string }{
		{"lossy", "acknowledged after the surviving write ended"},
		{"ghost", "which was not acknowledged"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			res, err := Run(context.Background(), Config{Plan: verifyPlan(tt.mode), Registry: reg})
			if !errors.Is(err, workload.ErrVerify) {
				t.Fatalf("err = %v, want a failed verification", err)
			}
			v := res.Verify
			if v == nil || v.Violations == 0 || res.Complete {
				t.Fatalf("report %+v, complete %v", v, res.Complete)
			}
			found := false
			for _, e := range v.Examples {
				found = found || strings.Contains(e, tt.want)
			}
			if !found {
				t.Errorf("examples %q lack %q", v.Examples, tt.want)
			}
		})
	}
}
