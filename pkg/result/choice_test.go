package result

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// ReadAny reads back the answer gobench choose writes (so gobench report
// renders it), and refuses a choice of another schema version or one
// that is not JSON.
func TestReadAnyChoice(t *testing.T) {
	t.Parallel()
	want := &Choice{SchemaVersion: SchemaVersion, Kind: ChoiceKind, Keep: "acked", Winner: "pebble sync=full",
		Rows: []ChoiceRow{{Rank: 1, Driver: "pebble", Settings: "sync=full", OpsPerSec: 8306, Runs: 3}}}
	var buf bytes.Buffer
	if err := want.Write(&buf); err != nil {
		t.Fatal(err)
	}
	v, err := ReadAny(bytes.NewReader(buf.Bytes()))
	got, ok := v.(*Choice)
	if err != nil || !ok {
		t.Fatalf("ReadAny of a choice: %T, %v", v, err)
	}
	if got.Winner != want.Winner || len(got.Rows) != 1 || got.Rows[0].OpsPerSec != want.Rows[0].OpsPerSec {
		t.Errorf("ReadAny of a choice: %+v, want %+v", got, want)
	}
	for _, tc := range []struct{ in, err string }{
		{`{"schema_version": 99, "kind": "choice", "rows": []}`, "schema version 99"},
		{`{"schema_version": 1, "kind": "choice", "rows": 3}`, "decoding choice"},
	} {
		if _, err := ReadAny(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ReadAny(%s): %v, want an error saying %q", tc.in, err, tc.err)
		}
	}
}

// ReadSuite refuses by name a file that is no run or suite: a choice, a
// capacity search, JSON without a schema version (a compare verdict).
func TestReadSuiteOtherKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, err string }{
		{`{"schema_version": 1, "kind": "choice", "rows": []}`, "gobench choose's answer"},
		{`{"schema_version": 1, "kind": "capacity"}`, "a capacity search's result"},
		{`{"schema_version": 1, "kind": "scale"}`, "a scale search's result"},
		{`{"old": "a.json", "new": "b.json", "rows": []}`, "no schema_version"},
	} {
		_, err := ReadSuite(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrNotResult) {
			t.Errorf("ReadSuite(%s): %v, want an error saying %q", tc.in, err, tc.err)
		}
	}
}

// FuzzReadAnyChoice: no input makes ReadAny panic, and a choice it reads
// writes back and reads again.
func FuzzReadAnyChoice(f *testing.F) {
	var buf bytes.Buffer
	c := &Choice{SchemaVersion: SchemaVersion, Kind: ChoiceKind, Rows: []ChoiceRow{{Rank: 1, Driver: "bbolt"}}}
	if err := c.Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"schema_version": 1, "kind": "choice", "rows": 3}`))
	f.Add([]byte(`{"kind": "choice"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ReadAny(bytes.NewReader(data))
		c, ok := v.(*Choice)
		if err != nil || !ok {
			return
		}
		var out bytes.Buffer
		if err := c.Write(&out); err != nil {
			t.Fatalf("writing a choice read: %v", err)
		}
		if _, err := ReadAny(bytes.NewReader(out.Bytes())); err != nil {
			t.Fatalf("reading a choice written: %v", err)
		}
	})
}
