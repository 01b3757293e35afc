package crashstate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

var names = [3]string{"db", "db-journal", "db-wal"}

// dbFiles are the files named names, as SQLite's driver names them.
var dbFiles = store.DiskFiles{Prefix: "db", Path: "db", Roles: []store.RoleSuffix{
	{Suffix: "-journal", Role: store.RoleJournal}, {Suffix: "-wal", Role: store.RoleWAL}, {Suffix: "-shm", Role: store.RoleOther}}}

// script is a run's record built event by event, over base files.
type script struct {
	t      *testing.T
	dir    string
	events []byte
	time   int64
}

func newScript(t *testing.T, base map[string]string) *script {
	s := &script{t: t, dir: t.TempDir()}
	if err := os.MkdirAll(filepath.Join(s.dir, "base"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, content := range base {
		if err := os.WriteFile(filepath.Join(s.dir, "base", name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.add(iorecord.Event{Kind: iorecord.KindStart})
	return s
}

func (s *script) add(e iorecord.Event) *script {
	s.time++
	e.Time = s.time
	s.events = iorecord.AppendEvent(s.events, &e)
	return s
}

func (s *script) write(role int, off int64, data string) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindWrite, Role: uint8(role), Arg: off, Data: []byte(data)})
}
func (s *script) sync(role int) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindSync, Role: uint8(role)})
}
func (s *script) dirSync() *script { return s.add(iorecord.Event{Kind: iorecord.KindDirSync}) }
func (s *script) create(role int) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindCreate, Role: uint8(role)})
}
func (s *script) del(role int) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindDelete, Role: uint8(role)})
}
func (s *script) trunc(role int, size int64) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindTruncate, Role: uint8(role), Arg: size})
}
func (s *script) ack(worker int, first uint64) *script {
	return s.add(iorecord.Event{Kind: iorecord.KindAck, Data: iorecord.AppendAck(nil, iorecord.Ack{Worker: worker, First: first, N: 1})})
}

// states builds every state (one per event, at most) of the record and
// returns each state's files.
func (s *script) states(model string, n int) ([]map[string]string, []store.CrashState) {
	files, states, err := s.build(store.CrashSpec{States: n, Model: model, Seed: 7})
	if err != nil {
		s.t.Fatal(err)
	}
	return files, states
}

// build builds the states of spec, returning each state's files.
func (s *script) build(spec store.CrashSpec) ([]map[string]string, []store.CrashState, error) {
	s.add(iorecord.Event{Kind: iorecord.KindEnd})
	rec := filepath.Join(s.dir, "record")
	if err := os.WriteFile(rec, s.events, 0o600); err != nil {
		s.t.Fatal(err)
	}
	var files []map[string]string
	var states []store.CrashState
	o := Options{Record: rec, Base: filepath.Join(s.dir, "base"), Work: filepath.Join(s.dir, "work"), Files: dbFiles, Spec: spec}
	_, err := Build(context.Background(), o, func(store.Ack) {}, func(st store.CrashState) error {
		m := map[string]string{}
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(filepath.Dir(st.Path), name))
			if err == nil {
				m[name] = string(b)
			} else if !errors.Is(err, os.ErrNotExist) {
				s.t.Fatal(err)
			}
		}
		files = append(files, m)
		states = append(states, st)
		return nil
	})
	if _, err := os.Stat(o.Work); !errors.Is(err, os.ErrNotExist) {
		s.t.Errorf("the work directory is left: %v", err)
	}
	return files, states, err
}

// last returns the state after the record's last event: with as many
// states as events, every event is a point.
func (s *script) last(model string) map[string]string {
	files, _ := s.states(model, 1<<20)
	return files[len(files)-1]
}

func TestWritesAfterTheLastSyncAreLost(t *testing.T) {
	s := newScript(t, map[string]string{"db": "0000"})
	s.write(store.RoleDatabase, 0, "AA").sync(store.RoleDatabase).write(store.RoleDatabase, 2, "BB")
	files, _ := s.states(store.CrashLose, 1<<20)
	want := []string{"0000", "AA00", "AA00"} // after the write, the sync, the second write
	if len(files) != len(want) {
		t.Fatalf("%d states, want %d", len(files), len(want))
	}
	for i, w := range want {
		if files[i]["db"] != w {
			t.Errorf("state %d: db = %q, want %q", i, files[i]["db"], w)
		}
	}
}

func TestCreationNeedsADirectorySync(t *testing.T) {
	s := newScript(t, map[string]string{"db": "x"})
	s.create(store.RoleJournal).write(store.RoleJournal, 0, "J").sync(store.RoleJournal)
	if f := s.last(store.CrashLose); f["db-journal"] != "" || len(f) != 1 {
		t.Errorf("a journal synced but never in a synced directory: state %q", f)
	}
	s = newScript(t, map[string]string{"db": "x"})
	s.create(store.RoleJournal).write(store.RoleJournal, 0, "J").sync(store.RoleJournal).dirSync()
	if f := s.last(store.CrashLose); f["db-journal"] != "J" {
		t.Errorf("a journal synced in a synced directory: state %q", f)
	}
	// The directory sync makes the entry durable, not the contents.
	s = newScript(t, map[string]string{"db": "x"})
	s.create(store.RoleJournal).dirSync().write(store.RoleJournal, 0, "J")
	if f, ok := s.last(store.CrashLose)["db-journal"]; !ok || f != "" {
		t.Errorf("an empty journal in a synced directory: %q, %v", f, ok)
	}
}

func TestDeletionNeedsADirectorySync(t *testing.T) {
	s := newScript(t, map[string]string{"db": "x", "db-journal": "old"})
	s.write(store.RoleJournal, 0, "NEW").sync(store.RoleJournal).del(store.RoleJournal)
	if f := s.last(store.CrashLose); f["db-journal"] != "NEW" {
		t.Errorf("a journal deleted without a directory sync comes back with what was synced: %q", f)
	}
	s = newScript(t, map[string]string{"db": "x", "db-journal": "old"})
	s.del(store.RoleJournal).dirSync()
	if f, ok := s.last(store.CrashLose)["db-journal"]; ok {
		t.Errorf("a journal deleted and its directory synced is back: %q", f)
	}
	// Deleted, made anew, written, synced, directory not synced: the old
	// one is what the disk has.
	s = newScript(t, map[string]string{"db": "x", "db-journal": "old"})
	s.del(store.RoleJournal).create(store.RoleJournal).write(store.RoleJournal, 0, "fresh").sync(store.RoleJournal)
	if f := s.last(store.CrashLose); f["db-journal"] != "old" {
		t.Errorf("the old journal's entry is durable until the directory is synced: %q", f)
	}
}

func TestTruncateIsDurableAtTheSync(t *testing.T) {
	s := newScript(t, map[string]string{"db": "x", "db-journal": "journal"})
	s.trunc(store.RoleJournal, 0)
	if f := s.last(store.CrashLose); f["db-journal"] != "journal" {
		t.Errorf("an unsynced truncate: %q", f["db-journal"])
	}
	s = newScript(t, map[string]string{"db": "x", "db-journal": "journal"})
	s.trunc(store.RoleJournal, 0).sync(store.RoleJournal)
	if f, ok := s.last(store.CrashLose)["db-journal"]; !ok || f != "" {
		t.Errorf("a synced truncate: %q, %v", f, ok)
	}
}

// Under the torn model, unsynced writes survive sector by sector: every
// sector of the state is either what was durable or what a write put
// there, never a mix within a sector; over many states, some sectors
// survive and some do not.
func TestTornKeepsWholeSectors(t *testing.T) {
	old := bytes.Repeat([]byte{'o'}, 8*SectorSize)
	s := newScript(t, map[string]string{"db": string(old)})
	for i := range 40 {
		s.write(store.RoleDatabase, int64(i%8)*SectorSize, string(bytes.Repeat([]byte{byte('a' + i%8)}, SectorSize)))
		s.ack(0, uint64(i))
	}
	files, states := s.states(store.CrashTorn, 30)
	var kept int64
	for i, f := range files {
		db := f["db"]
		if len(db) != len(old) {
			t.Fatalf("state %d: %d bytes", i, len(db))
		}
		for sec := range 8 {
			part := db[sec*SectorSize : (sec+1)*SectorSize]
			if part != string(old[:SectorSize]) && part != string(bytes.Repeat([]byte{byte('a' + sec)}, SectorSize)) {
				t.Fatalf("state %d sector %d holds a mix", i, sec)
			}
		}
		kept += states[i].SurvivingSectors
	}
	if kept == 0 {
		t.Error("no unsynced sector ever survived")
	}
	lose := newScript(t, map[string]string{"db": string(old)})
	lose.write(store.RoleDatabase, 0, "x")
	if f := lose.last(store.CrashLose); f["db"] != string(old) {
		t.Error("the lose model kept an unsynced write")
	}
}

// States spread over the run, every other one just after an
// acknowledgement, at most one per event.
func TestPointsSpreadAndFollowAcknowledgements(t *testing.T) {
	s := newScript(t, map[string]string{"db": "x"})
	for i := range 100 {
		s.write(store.RoleDatabase, 0, "y").sync(store.RoleDatabase).ack(i%4, uint64(i/4))
	}
	acks := 0
	s.add(iorecord.Event{Kind: iorecord.KindEnd})
	rec := filepath.Join(s.dir, "record")
	if err := os.WriteFile(rec, s.events, 0o600); err != nil {
		t.Fatal(err)
	}
	var points []int64
	sum, err := Build(context.Background(), Options{Record: rec, Base: filepath.Join(s.dir, "base"), Work: filepath.Join(s.dir, "w"), Files: dbFiles,
		Spec: store.CrashSpec{States: 10, Model: store.CrashLose, Seed: 1}}, func(a store.Ack) {
		if a.Event%3 != 2 {
			t.Errorf("ack at event %d", a.Event)
		}
		acks++
	}, func(st store.CrashState) error {
		points = append(points, st.Event)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Events != 300 || sum.Acks != 100 || acks != 100 || len(points) != 10 {
		t.Fatalf("summary %+v, %d acks seen, points %v", sum, acks, points)
	}
	for i, p := range points {
		if p < int64(i)*30 || p >= int64(i+1)*30 {
			t.Errorf("point %d at event %d, outside its segment", i, p)
		}
		if i%2 == 1 && p%3 != 2 {
			t.Errorf("point %d at event %d is not just after an acknowledgement", i, p)
		}
	}
}

// A record without its end, or with garbage, is refused.
func TestBadRecords(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "record")
	var b []byte
	b = iorecord.AppendEvent(b, &iorecord.Event{Kind: iorecord.KindStart})
	if err := os.WriteFile(rec, b, 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Record: rec, Base: dir, Work: filepath.Join(dir, "w"), Files: dbFiles, Spec: store.CrashSpec{States: 1, Model: store.CrashLose}}
	if _, err := Build(context.Background(), o, func(store.Ack) {}, func(store.CrashState) error { return nil }); err == nil {
		t.Error("a record without an end was accepted")
	}
	if err := os.WriteFile(rec, append(b, 1, 2, 3), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), o, func(store.Ack) {}, func(store.CrashState) error { return nil }); err == nil {
		t.Error("a corrupt record was accepted")
	}
}
