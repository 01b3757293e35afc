package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeOptions are a base engine's options, declared.
type fakeOptions struct {
	Sync string `json:"sync,omitempty" flag:"sync"`
	Size int64  `json:"size" flag:"fake-size" help:"fake engine: a size in MiB"`
}

func (o fakeOptions) Validate() error { return CheckMiB("a size", o.Size, 1, 4<<10) }

var fakeDeclared = Declare("the fake engine", func() fakeOptions { return fakeOptions{Sync: SyncFull, Size: 8} })

// fakeDriver is an engine on Base, as bbolt, pebble and badger are.
type fakeDriver struct{ Base[fakeDriver, fakeOptions] }

func (fakeDriver) Engine() *Engine[fakeOptions] { return &fakeEngine }

type fakeStore struct {
	Site[fakeOptions]
	Store
}

var fakeEngine = Engine[fakeOptions]{
	Name: "fake", Keeps: "a directory", Declared: fakeDeclared, SyncPrimitive: "fdatasync",
	Module: "example.com/fake", ModuleVersion: "v1.2.3", Lock: "a lock", IOTrace: "not traced",
	New:    func(s Site[fakeOptions]) Store { return fakeStore{Site: s} },
	Off:    Promise{Level: PromiseNone, Says: "off"},
	Normal: Promise{Level: PromiseKeeps, Says: "normal"},
	Full:   Promise{Level: PromiseKeeps, Says: "full"},
}

// Base answers a driver's methods from the engine's description: Open's
// checks, its version and facts, its summary (commits sync where the
// promise at the run's --sync keeps them), its promise.
func TestBase(t *testing.T) {
	d := fakeDriver{}
	var _ Driver = d
	if d.Name() != "fake" || d.Share() != (Share{Sharing: ShareProcess, Lock: "a lock"}) || !d.Tables().Ordered {
		t.Errorf("name %q, share %+v, tables %+v", d.Name(), d.Share(), d.Tables())
	}
	if v, err := d.EngineVersion(); v != "fake v1.2.3" || err != nil {
		t.Errorf("EngineVersion() = %q, %v", v, err)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "the fake engine keeps a directory: give it a path"},
		{Config{Path: "x", Reuse: true}, "the fake engine cannot reuse a database it did not create"},
		{Config{Path: "x", Table: &Table{}}, "invalid"},
		{Config{Path: "x", Options: fakeDeclared.Encode(fakeOptions{Sync: SyncFull, Size: 0})}, "a size of 0 MiB is out of range (want 1 MiB to 4 GiB)"},
	} {
		_, err := d.Open(context.Background(), c.cfg)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%+v) = %v, want ErrInvalid saying %q", c.cfg, err, c.want)
		}
	}
	st, err := d.Open(context.Background(), Config{Path: "db", Options: fakeDeclared.Encode(fakeOptions{Sync: SyncOff, Size: 16})})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := st.(Describer).Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if FactValue(facts, "driver") != "fake" || FactValue(facts, VersionFact("fake")) != "fake v1.2.3" || FactValue(facts, "fake-size") != "16" ||
		FactValue(facts, FactSyncPrimitive) != "fdatasync" || FactValue(facts, FactIOTrace) != "not traced" {
		t.Errorf("facts %v", facts)
	}
	for sync, want := range map[string]string{SyncOff: "false", SyncNormal: "true", SyncFull: "true"} {
		sum := d.Summarize([]Fact{{Name: VersionFact("fake"), Value: "fake v1"}, {Name: "sync", Value: sync}})
		if FactValue(sum, FactEngine) != "fake v1" || FactValue(sum, FactSyncs) != want {
			t.Errorf("--sync %s: summary %v, want syncs %s", sync, sum, want)
		}
		if p, ok := d.Promise([]Fact{{Name: "sync", Value: sync}}); !ok || p.Says != sync {
			t.Errorf("--sync %s: promise %+v, %v", sync, p, ok)
		}
	}
	if sum := d.Summarize([]Fact{{Name: "driver", Value: "fake"}}); sum != nil {
		t.Errorf("a summary without the version fact: %v", sum)
	}
}

// closer counts its closes.
type closer struct{ closed *int }

func (c closer) Close() error { *c.closed++; return nil }

// A Handle opens once until it is closed, and again after.
func TestHandle(t *testing.T) {
	var h Handle[closer]
	opens, closes := 0, 0
	open := func() (closer, error) { opens++; return closer{&closes}, nil }
	for range 3 {
		if _, err := h.Get(open); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(); err != nil || opens != 1 || closes != 1 {
		t.Fatalf("opens %d, closes %d, %v", opens, closes, err)
	}
	if err := h.Close(); err != nil || closes != 1 {
		t.Fatalf("a second close: closes %d, %v", closes, err)
	}
	if _, err := h.Get(func() (closer, error) { return closer{}, errors.New("refused") }); err == nil {
		t.Fatal("a failed open returned no error")
	}
	if _, err := h.Get(open); err != nil || opens != 2 {
		t.Fatalf("reopen: opens %d, %v", opens, err)
	}
}

// A Txn is the one owner of whether a transaction is open: Commit and
// Rollback end it whatever the engine answers.
func TestTxn(t *testing.T) {
	var log []string
	next := 0
	tx := NewTxn("fake", func() (int, error) { next++; log = append(log, "begin"); return next, nil },
		func(n int) error { log = append(log, "commit"); return errors.New("commit failed") },
		func(n int) error { log = append(log, "rollback"); return nil })
	if tx.InTx() || tx.Rollback() != nil || tx.Commit() == nil {
		t.Fatal("a Txn without a transaction: in one, or rolled back with an error, or committed")
	}
	if err := tx.Begin(); err != nil || !tx.InTx() {
		t.Fatal(err)
	}
	if err := tx.Begin(); err == nil || !strings.Contains(err.Error(), "fake: a transaction is open already") {
		t.Errorf("a second Begin: %v", err)
	}
	if n, ok := tx.Current(); n != 1 || !ok {
		t.Errorf("Current() = %d, %v", n, ok)
	}
	if err := tx.Commit(); err == nil || tx.InTx() {
		t.Errorf("a failed commit: %v, in a transaction after it: %v", err, tx.InTx())
	}
	_ = tx.Begin()
	if err := tx.Close(); err != nil || tx.InTx() {
		t.Errorf("Close: %v, in a transaction after it: %v", err, tx.InTx())
	}
	if got := strings.Join(log, " "); got != "begin commit begin rollback" {
		t.Errorf("the engine saw %q", got)
	}
}
