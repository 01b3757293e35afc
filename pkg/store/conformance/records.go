package conformance

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gobench/gobench/pkg/store"
)

// TestTable is the record table the record checks open their stores
// with: YCSB's usertable, three fields.
var TestTable = store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 3}

// recordChecks are the checks of record tables (store.Tabular), each on
// a store opened with TestTable.
func recordChecks() []Check {
	table := TestTable
	return []Check{
		{Name: "RecordsDeclared", Fn: testRecordsDeclared, Table: &table},
		{Name: "RecordCRUD", Fn: onRecords(testRecordCRUD), Table: &table},
		{Name: "RecordValueNotKept", Fn: onRecords(testRecordValueNotKept), Table: &table},
		{Name: "RecordScan", Fn: onRecords(testRecordScan), Table: &table},
		{Name: "RecordBatch", Fn: onRecords(testRecordBatch), Table: &table},
	}
}

// onRecords adapts a check of a record table: skipped for a driver that
// keeps none.
func onRecords(f func(T, store.TableSupport, store.Store)) func(T, store.Driver, store.Store) {
	return func(t T, drv store.Driver, st store.Store) {
		ts, ok := store.TablesOf(drv)
		if !ok {
			t.Skip("engine keeps no record tables")
		}
		f(t, ts, st)
	}
}

// testRecordsDeclared holds a driver to what it declares of record
// tables (store.Tabular): plans that need records, or scans of them, are
// refused or accepted by the declaration alone, before any store opens.
func testRecordsDeclared(t T, drv store.Driver, st store.Store) {
	ts, declared := store.TablesOf(drv)
	c := conn(t, st)
	_, records := c.(store.Recorder)
	_, scans := c.(store.RecordScanner)
	if declared != records {
		t.Errorf("the driver declares record tables %v, its connections read and write records: %v", declared, records)
	}
	if declared && ts.Ordered != scans {
		t.Errorf("the driver declares ordered record tables %v, its connections scan records: %v", ts.Ordered, scans)
	}
}

// values returns a record's values for the test table: "<tag>-<field>".
func values(tag string) [][]byte {
	v := make([][]byte, TestTable.Fields)
	for i := range v {
		v[i] = fmt.Appendf(nil, "%s-%d", tag, i)
	}
	return v
}

// recorder returns a connection's record operations.
func recorder(t T, c store.Conn) store.Recorder {
	t.Helper()
	r, ok := c.(store.Recorder)
	if !ok {
		t.Fatalf("a connection of a store with a record table does not implement store.Recorder")
	}
	return r
}

// wantRecord checks every field of key, and each field alone.
func wantRecord(t T, r store.Recorder, key string, want [][]byte) {
	t.Helper()
	got, err := r.ReadRecord([]byte(key), -1, nil)
	if err != nil {
		t.Fatalf("ReadRecord(%s): %v", key, err)
	}
	if !slices.EqualFunc(got, want, bytes.Equal) {
		t.Fatalf("ReadRecord(%s) = %q, want %q", key, got, want)
	}
	buf := make([][]byte, 0, 1)
	for i := range want {
		if buf, err = r.ReadRecord([]byte(key), i, buf); err != nil || len(buf) != 1 || !bytes.Equal(buf[0], want[i]) {
			t.Fatalf("ReadRecord(%s, field %d) = %q, %v; want [%q]", key, i, buf, err, want[i])
		}
	}
}

func testRecordCRUD(t T, _ store.TableSupport, st store.Store) {
	c := conn(t, st)
	r := recorder(t, c)
	for _, k := range []string{"user1", "user2", "user10"} {
		if err := r.InsertRecord([]byte(k), values(k)); err != nil {
			t.Fatalf("InsertRecord(%s): %v", k, err)
		}
	}
	wantRecord(t, r, "user2", values("user2"))
	// Another connection sees committed records.
	wantRecord(t, recorder(t, conn(t, st)), "user10", values("user10"))

	if err := r.InsertRecord([]byte("user2"), values("again")); store.Classify(err) != store.Constraint {
		t.Errorf("InsertRecord of an existing key: %v (class %v), want class constraint", err, store.Classify(err))
	}
	wantRecord(t, r, "user2", values("user2"))
	if _, err := r.ReadRecord([]byte("user3"), -1, nil); store.Classify(err) != store.NotFound {
		t.Errorf("ReadRecord of a missing key: %v, want class not_found", err)
	}

	if err := r.UpdateRecord([]byte("user1"), 1, [][]byte{[]byte("one")}); err != nil {
		t.Fatalf("UpdateRecord(field 1): %v", err)
	}
	want := values("user1")
	want[1] = []byte("one")
	wantRecord(t, r, "user1", want)
	if err := r.UpdateRecord([]byte("user1"), -1, values("all")); err != nil {
		t.Fatalf("UpdateRecord(every field): %v", err)
	}
	wantRecord(t, r, "user1", values("all"))
	if err := r.UpdateRecord([]byte("user3"), 0, [][]byte{[]byte("x")}); store.Classify(err) != store.NotFound {
		t.Errorf("UpdateRecord of a missing key: %v, want class not_found", err)
	}

	if err := r.ReadModifyWrite([]byte("user10"), -1, 2, [][]byte{[]byte("rmw")}); err != nil {
		t.Fatalf("ReadModifyWrite: %v", err)
	}
	want = values("user10")
	want[2] = []byte("rmw")
	wantRecord(t, r, "user10", want)
	if err := r.ReadModifyWrite([]byte("user10"), 0, -1, values("rmw-all")); err != nil {
		t.Fatalf("ReadModifyWrite of every field: %v", err)
	}
	wantRecord(t, r, "user10", values("rmw-all"))
	if err := r.ReadModifyWrite([]byte("user3"), -1, 0, [][]byte{[]byte("x")}); store.Classify(err) != store.NotFound {
		t.Errorf("ReadModifyWrite of a missing key: %v, want class not_found", err)
	}
	if _, err := r.ReadRecord([]byte("user3"), -1, nil); store.Classify(err) != store.NotFound {
		t.Errorf("after a ReadModifyWrite of a missing key, ReadRecord: %v, want class not_found (nothing written)", err)
	}
	if p, ok := c.(store.TxProber); ok && p.InTx() {
		t.Errorf("a transaction is still open after the record operations")
	}
}

// testRecordValueNotKept holds record writes to the value contract: keys
// and values are the caller's, valid only during the call.
func testRecordValueNotKept(t T, _ store.TableSupport, st store.Store) {
	r := recorder(t, conn(t, st))
	key := []byte("user7")
	vals := values("kept")
	if err := r.InsertRecord(key, vals); err != nil {
		t.Fatalf("InsertRecord: %v", err)
	}
	copy(key, "XXXXX")
	for _, v := range vals {
		copy(v, bytes.Repeat([]byte("X"), len(v)))
	}
	wantRecord(t, r, "user7", values("kept"))
	one := []byte("update")
	if err := r.UpdateRecord([]byte("user7"), 0, [][]byte{one}); err != nil {
		t.Fatalf("UpdateRecord: %v", err)
	}
	copy(one, "XXXXXX")
	want := values("kept")
	want[0] = []byte("update")
	wantRecord(t, r, "user7", want)
}

// testRecordScan checks that scans read records in key order, bytewise
// as strings sort ("user10" before "user9"), from the first key at or
// above the start, up to the count asked for.
func testRecordScan(t T, ts store.TableSupport, st store.Store) {
	c := conn(t, st)
	sc, ok := c.(store.RecordScanner)
	if !ts.Ordered {
		if ok {
			t.Errorf("the driver declares unordered record tables, yet its connections scan")
		}
		t.Skip("engine keeps records in no key order")
	}
	if !ok {
		t.Fatalf("the driver declares ordered record tables, yet its connections do not scan")
	}
	r := recorder(t, c)
	keys := []string{"user1", "user10", "user100", "user2", "user20", "user9", "user99", "userx"}
	shuffled := slices.Clone(keys)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, k := range shuffled {
		if err := r.InsertRecord([]byte(k), values(k)); err != nil {
			t.Fatalf("InsertRecord(%s): %v", k, err)
		}
	}
	for _, tt := range []struct {
		from  string
		n     int
		field int
		want  []string
	}{
		{"", 3, -1, keys[:3]},
		{"user1", 100, -1, keys},
		{"user11", 2, 1, []string{"user2", "user20"}},
		{"user9", 5, -1, []string{"user9", "user99", "userx"}},
		{"uz", 5, -1, nil},
		{"user2", 1, 0, []string{"user2"}},
	} {
		var seen []string
		n, err := sc.ScanRecords([]byte(tt.from), tt.n, tt.field, func(key []byte, vals [][]byte) {
			seen = append(seen, string(key))
			want := values(string(key))
			if tt.field >= 0 {
				want = want[tt.field : tt.field+1]
			}
			if !slices.EqualFunc(vals, want, bytes.Equal) {
				t.Errorf("ScanRecords(%q): record %s holds %q, want %q", tt.from, key, vals, want)
			}
		})
		if err != nil || n != len(tt.want) || !slices.Equal(seen, tt.want) {
			t.Errorf("ScanRecords(%q, %d) = %d %v, %v; want %d %v", tt.from, tt.n, n, seen, err, len(tt.want), tt.want)
		}
		// The measured path, without a visitor, reads as many.
		if m, err := sc.ScanRecords([]byte(tt.from), tt.n, tt.field, nil); err != nil || m != len(tt.want) {
			t.Errorf("ScanRecords(%q, %d) without a visitor = %d, %v; want %d", tt.from, tt.n, m, err, len(tt.want))
		}
	}
}

// testRecordBatch checks record writes inside a batch: kept by Commit,
// undone by Rollback.
func testRecordBatch(t T, _ store.TableSupport, st store.Store) {
	c := conn(t, st)
	b, ok := c.(store.Batcher)
	if !ok {
		t.Skip("engine does not batch")
	}
	r := recorder(t, c)
	if err := b.Begin(); err != nil {
		t.Fatalf("Begin: %v", err)
	}
	if err := r.InsertRecord([]byte("user1"), values("a")); err != nil {
		t.Fatalf("InsertRecord in a batch: %v", err)
	}
	if err := r.ReadModifyWrite([]byte("user1"), -1, 0, [][]byte{[]byte("b")}); err != nil {
		t.Fatalf("ReadModifyWrite in a batch: %v", err)
	}
	if err := b.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	want := values("a")
	want[0] = []byte("b")
	wantRecord(t, recorder(t, conn(t, st)), "user1", want)
	if err := b.Begin(); err != nil {
		t.Fatalf("Begin: %v", err)
	}
	if err := r.InsertRecord([]byte("user2"), values("c")); err != nil {
		t.Fatalf("InsertRecord in a batch: %v", err)
	}
	if err := b.Rollback(); err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if _, err := r.ReadRecord([]byte("user2"), -1, nil); store.Classify(err) != store.NotFound {
		t.Errorf("a record inserted in a rolled-back batch: %v, want class not_found", err)
	}
}
