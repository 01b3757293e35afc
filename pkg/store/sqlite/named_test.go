package sqlite

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// Options read as settings by the flags that set them, and facts read
// back sum up to the headline every report prints.
func TestNamedAndSummary(t *testing.T) {
	d := Modernc()
	o := DefaultOptions()
	o.Journal, o.Checkpoint, o.API = "wal", "off", APIBlob
	got, err := d.Options().Name(o.Encode())
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Setting{{Name: "journal", Value: "wal"}, {Name: "sync", Value: "full"}, {Name: "busy-timeout", Value: "5s"},
		{Name: "api", Value: "blob"}, {Name: "checkpoint", Value: "off"}}
	if len(got) != len(want) {
		t.Fatalf("named %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("setting %d = %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := d.Options().Name([]byte(`{"journal": "sideways"}`)); err == nil {
		t.Error("options that do not validate were named")
	}
	facts := []store.Fact{{Name: "sqlite_version", Value: "3.53.4"}, {Name: "journal_mode", Value: "delete"},
		{Name: "synchronous", Value: "off"}, {Name: "busy_timeout_ms", Value: "250"}}
	sum := d.Summarize(facts)
	for name, want := range map[string]string{
		store.FactEngine:   "SQLite 3.53.4",
		store.FactHeadline: "journal rollback (delete) · sync off · busy-timeout 250ms",
		store.FactSyncs:    "false",
	} {
		if got := store.FactValue(sum, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	facts = append(facts, store.Fact{Name: "c_loop", Value: "off: one call into C per op"})
	if got := store.FactValue(d.Summarize(facts), store.FactHeadline); !strings.HasSuffix(got, " · capi-loop off") {
		t.Errorf("capi's headline %q does not say its loop in C is off", got)
	}
	if d.Summarize(nil) != nil {
		t.Error("a summary of no facts")
	}
}

// TestPromise holds SQLite's promise at a power cut to its
// documentation of PRAGMA synchronous, per journal mode.
func TestPromise(t *testing.T) {
	for _, tc := range []struct{ journal, sync, want string }{
		{"wal", "off", store.PromiseNone},
		{"wal", "normal", store.PromiseMayLose},
		{"wal", "full", store.PromiseKeeps},
		{"wal", "extra", store.PromiseKeeps},
		{"delete", "normal", store.PromiseNone},
		{"delete", "full", store.PromiseMayLose},
		{"delete", "extra", store.PromiseKeeps},
		{"truncate", "full", store.PromiseKeeps},
		{"memory", "full", store.PromiseNone},
	} {
		p, ok := (&Driver{}).Promise([]store.Fact{{Name: "journal_mode", Value: tc.journal}, {Name: "synchronous", Value: tc.sync}})
		if !ok || p.Level != tc.want || p.Says == "" {
			t.Errorf("%s at %s: %+v, %v; want %s", tc.journal, tc.sync, p, ok, tc.want)
		}
	}
	if _, ok := (&Driver{}).Promise(nil); ok {
		t.Error("no facts: a promise was given")
	}
}
