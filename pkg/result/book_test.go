package result

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A book reads back as the suites written, each checked as a suite file
// is; a command that wants one suite refuses a book, saying what it is.
func TestBookRoundTrip(t *testing.T) {
	a, err := NewSuite("mix", "single", []*Result{fakeRun(t, "wal", "full", 1, 10, time.Microsecond)}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSuite("mix", "single", []*Result{fakeRun(t, "rollback", "full", 1, 10, time.Microsecond)}, "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := NewBook([]*Suite{a, b}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	v, err := ReadAny(bytes.NewReader(buf.Bytes()))
	bk, ok := v.(*Book)
	if err != nil || !ok || len(bk.Suites) != 2 {
		t.Fatalf("ReadAny of a book: %T, %v", v, err)
	}
	for i, want := range []*Suite{a, b} {
		if got := bk.Suites[i].Cells[0].Runs[0].StartedAt; !got.Equal(want.Cells[0].Runs[0].StartedAt) {
			t.Errorf("book suite %d's run started at %v, want %v", i, got, want.Cells[0].Runs[0].StartedAt)
		}
	}
	if _, err := ReadSuite(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), "a book of 2 suites") {
		t.Errorf("ReadSuite of a book: %v", err)
	}
	for _, bad := range []string{
		`{"schema_version": 1, "kind": "book", "suites": []}`,
		`{"schema_version": 99, "kind": "book", "suites": []}`,
		`{"schema_version": 1, "kind": "book", "suites": [{"kind": "suite", "schema_version": 1, "cells": [{"runs": []}]}]}`,
	} {
		if _, err := ReadAny(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadAny(%s): no error", bad)
		}
	}
}
