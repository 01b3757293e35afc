package coord

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/sqlite"
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
	if tag, _ := deal.ParseTag(value); tag.Preload {
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

// dying is SQLite (modernc) as the driver "dying": in a worker process
// (kill set) the connection's 300th write commits, then the process
// SIGKILLs itself before it can report the write. The coordinator's own
// connections (setup, preload, verification) never die.
func dying(kill bool) store.Driver {
	return storetest.Wrap("dying", sqlite.Modernc(), func(c store.Conn) store.Conn { return &dyingConn{Conn: c, kill: kill} })
}

type dyingConn struct {
	store.Conn
	kill bool
	puts int
}

func (c *dyingConn) Put(key uint64, value []byte) error {
	err := c.Conn.Put(key, value)
	if c.puts++; c.kill && c.puts == 300 && err == nil {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	}
	return err
}

// When a worker process dies, --verify still checks the database against
// what was acknowledged, and says how much it checked: every key, the
// acknowledged writes, none lost; the writes the dead worker committed
// and never reported (at least its last) are in doubt, not violations.
// The run still fails for the dead worker.
func TestVerifyAfterWorkerDied(t *testing.T) {
	reg := all.Registry()
	reg.Register(dying(false))
	p := verifyPlan("dying")
	p.Mode, p.Procs, p.Goroutines = workload.ModeProcess, 2, 1
	p.Phases[0].Ops = 1000
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "dying.db")}
	var notes strings.Builder
	res, err := Run(context.Background(), Config{Plan: p, Registry: reg, Command: helper("dying"), Notes: &notes})
	if !errors.Is(err, ErrWorker) || errors.Is(err, workload.ErrVerify) || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("err = %v, want the killed worker and no failed verification", err)
	}
	v := res.Verify
	if v == nil || v.KeysChecked != p.Keys.Count || v.AckedWrites == 0 || v.Violations != 0 || v.InDoubt == 0 {
		t.Fatalf("verification after the death: %+v", v)
	}
	if res.Complete {
		t.Error("the result of a run with a dead worker is complete")
	}
	if want := "verified 500 keys against"; !strings.Contains(notes.String(), want) {
		t.Errorf("notes lack %q:\n%s", want, notes.String())
	}
}
