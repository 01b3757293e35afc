package result_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
)

// head returns what an output check sees of a file: its first
// HeadBytes bytes.
func head(b []byte) []byte { return b[:min(len(b), result.HeadBytes)] }

// Every file gobench writes is recognised as its own: every format of
// every shape of output, rendered from the recorded results, the disk
// report and the interval log. An output may replace them.
func TestWrittenRecognisesEveryOutput(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.json"))
	if err != nil || len(fixtures) < 5 {
		t.Fatalf("fixtures: %v %v", fixtures, err)
	}
	var values []any
	for _, p := range fixtures {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !result.Written(head(b)) {
			t.Errorf("%s itself is not recognised", p)
		}
		v, err := result.ReadAny(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		values = append(values, v)
	}
	old, _ := result.ReadSuite(bytes.NewReader(must(os.ReadFile(filepath.Join("..", "..", "testdata", "compare-old.json")))))
	c, err := judge.Compare("old.json", old, "new.json", old, judge.DefaultMetrics(old), judge.CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	values = append(values, c, &disk.Report{Dir: "/tmp", Filesystem: "ext4", Size: 1 << 20})
	rendered := 0
	for _, v := range values {
		for _, f := range report.FormatsFor(v) {
			render, err := report.Render(f, v, report.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := render(&out); err != nil {
				t.Fatalf("%T as %s: %v", v, f, err)
			}
			if !result.Written(head(out.Bytes())) {
				t.Errorf("%T as %s is not recognised:\n%.300s", v, f, out.Bytes())
			}
			rendered++
		}
	}
	r, err := result.Read(bytes.NewReader(must(os.ReadFile(filepath.Join("..", "..", "testdata", "mix-wal.json")))))
	if err != nil {
		t.Fatal(err)
	}
	var hlog bytes.Buffer
	if err := report.NewIntervalLog(&hlog, &r.Plan, time.Unix(1_700_000_000, 0)).Write(result.Interval{}); err != nil {
		t.Fatal(err)
	}
	if !result.Written(head(hlog.Bytes())) {
		t.Errorf("the interval log is not recognised:\n%.300s", hlog.Bytes())
	}
	t.Logf("%d renderings recognised", rendered)
}

// What gobench did not write is not recognised: a SQLite database, a
// binary file, another program's JSON, HTML or text.
func TestWrittenRefusesOthers(t *testing.T) {
	for name, b := range map[string]string{
		"sqlite":      "SQLite format 3\x00\x10\x00\x02\x02\x00@  \x00\x00\x00\x01",
		"binary":      "\x7fELF\x02\x01\x01\x00\x00\x00",
		"latin-1":     "caf\xe9 cr\xe8me\n",
		"json":        `{"name": "my-app", "version": "1.0.0"}`,
		"json-array":  `[{"schema_version": 1}]`,
		"html":        "<!doctype html>\n<html><head><title>My page</title></head></html>",
		"go":          "package main\n\nfunc main() {}\n",
		"notes":       "Things to do before the release:\n- gobench the new build\n",
		"markdown":    "# My project\n\nIt uses gobench.\n",
		"csv-prose":   "Name, Address\nAda, London\n",
		"hlog-like":   "#!/bin/sh\necho hi\n",
		"yaml-config": "name: ci\non: push\n",
	} {
		if result.Written([]byte(b)) {
			t.Errorf("%s: recognised as gobench's: %q", name, b)
		}
	}
	for name, b := range map[string]string{"empty": "", "blank": "\n\n"} {
		if !result.Written([]byte(b)) {
			t.Errorf("%s: not replaceable", name)
		}
	}
	if !result.IsSQLite([]byte("SQLite format 3\x00rest")) || result.IsSQLite([]byte("SQLite format 3")) {
		t.Error("IsSQLite")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
