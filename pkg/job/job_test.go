package job

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mixCell() *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver, p.Mode, p.Procs, p.Phases[0].Ops = "null", workload.ModeGoroutine, 2, 10
	p.Store.Path = "/somewhere/gobench.db"
	return &p
}

// A recorded matrix gives back its command, cells, repeats, baseline and
// seed, with no database path.
func TestReadResult(t *testing.T) {
	t.Parallel()
	j, err := Read(bytes.NewReader(readFixture(t, "matrix.json")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind != Kind || j.Command != "mix" || j.Repeat != 3 || len(j.Cells) != 2 || j.Baseline != "journal=rollback" {
		t.Fatalf("job %s × %d, %d cells, baseline %q", j.Command, j.Repeat, len(j.Cells), j.Baseline)
	}
	for _, c := range j.Cells {
		if c.Store.Path != "" || c.Seed != 1 {
			t.Errorf("cell %s: path %q, seed %d", result.PlanSettings(c), c.Store.Path, c.Seed)
		}
	}
	if err := j.Validate(context.Background(), all.Registry()); err != nil {
		t.Errorf("a recorded result's job does not validate: %v", err)
	}
	// A single run is a job of one cell, once.
	j, err = Read(bytes.NewReader(readFixture(t, "mix-wal.json")), nil)
	if err != nil || len(j.Cells) != 1 || j.Repeat != 1 {
		t.Fatalf("a single run: %+v, %v", j, err)
	}
}

// What Write writes, Read reads back the same; the cells are copies.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	cell := mixCell()
	j := New("mix", result.ShapeMatrix, []string{"mix", "--procs", "2"}, []*workload.Plan{cell}, 2)
	j.Expect, j.Baseline = []string{"read p99 <= 2ms"}, ""
	cell.Seed = 99 // the job holds its own copy
	var buf bytes.Buffer
	if err := j.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := back.Write(&again); err != nil {
		t.Fatal(err)
	}
	if buf.String() != again.String() {
		t.Errorf("round trip changed the file:\n%s\n%s", buf.String(), again.String())
	}
	if back.Cells[0].Seed != 1 || back.Cells[0].Store.Path != "" || back.Args[1] != "--procs" {
		t.Errorf("cell seed %d, path %q, args %q", back.Cells[0].Seed, back.Cells[0].Store.Path, back.Args)
	}
}

func TestReadRefuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"kind": "plan", "schema_version": 1, "command": "mix", "repeat": 1, "cell": []}`, `unknown field "cell"`},
		{`{"kind": "plan", "schema_version": 2, "command": "mix", "repeat": 1, "cells": []}`, "schema version 2"},
		{`{"kind": "plan", "schema_version": 1, "command": "mix", "repeat": "once"}`, "cannot unmarshal"},
		{`{"kind": "suite", "schema_version": 1}`, "neither a plan file nor a result"},
		{`[1, 2]`, "does not begin with a JSON object"},
		{"\x00\x00\x00", "does not begin with a JSON object"},
	} {
		_, err := Read(strings.NewReader(tt.in), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%.40q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// Validate refuses what the flags would refuse, naming the cell.
func TestValidate(t *testing.T) {
	reg := all.Registry()
	for _, tt := range []struct {
		name   string
		mutate func(j *Job)
		want   string
	}{
		{"valid", func(*Job) {}, ""},
		{"shape", func(j *Job) { j.Shape = "pyramid" }, `shape "pyramid"`},
		{"search", func(j *Job) {
			j.Search = &capacity.Spec{Objectives: "read p99 <= 1ms", Tolerance: 2, Step: workload.Duration(time.Second)}
		}, "--tolerance 2"},
		{"search objectives", func(j *Job) { sp := capacity.DefaultSpec(); sp.Objectives = "read ops/s >= 5"; j.Search = &sp }, "judge latency"},
		{"search repeats", func(j *Job) {
			sp := capacity.DefaultSpec()
			sp.Objectives = "read p99 <= 1ms"
			j.Search, j.Repeat = &sp, 2
		}, "no --repeat"},
		{"search gate", func(j *Job) {
			sp := capacity.DefaultSpec()
			sp.Objectives, j.Search, j.Expect = "read p99 <= 1ms", &sp, []string{"read p99 <= 2ms"}
		}, "sustainable rate"},
		{"repeat", func(j *Job) { j.Repeat = 0 }, "repeat 0"},
		{"no cells", func(j *Job) { j.Cells = nil }, "no cells"},
		{"empty cell", func(j *Job) { j.Cells = append(j.Cells, nil) }, "cell 2 is empty"},
		{"reuse", func(j *Job) { j.Reuse = true }, "reuse applies to a db file"},
		{"driver", func(j *Job) { j.Cells[0].Driver = "nosuch" }, `cell 1 (driver=nosuch`},
		{"in-process driver in processes", func(j *Job) { j.Cells[0].Driver, j.Cells[0].Mode = "map", workload.ModeProcess }, "one process's memory"},
		{"engine options", func(j *Job) {
			j.Cells[0].Driver, j.Cells[0].Store.Options = "mattn", []byte(`{"journal": "sideways"}`)
		}, `unknown journal mode "sideways"`},
		{"engine option unknown", func(j *Job) {
			j.Cells[0].Driver, j.Cells[0].Store.Options = "lmdb", []byte(`{"journal": "wal"}`)
		}, `unknown field "journal"`},
		{"plan", func(j *Job) { j.Cells[0].Procs = 0 }, "procs 0 is out of range"},
		{"gate", func(j *Job) { j.Expect = []string{"read p99 <= banana"} }, `limit "banana"`},
		{"gate's cells", func(j *Job) { j.Expect = []string{"total ops/s: wal >= 2x rollback"} }, "wal"},
		{"baseline of one cell", func(j *Job) { j.Baseline = "journal=wal" }, "--baseline compares cells"},
		{"gate on an op the mix lacks", func(j *Job) { j.Expect = []string{"delete p99 <= 2ms"} }, "the first phase deals no delete"},
		{"gate on the ceiling without it", func(j *Job) { j.Expect = []string{"commits fsync% >= 10%"} }, "give --ceiling"},
		{"gate on the ceiling with it", func(j *Job) { j.Expect, j.Ceiling = []string{"commits fsync% >= 10%"}, true }, ""},
	} {
		j := New("mix", result.ShapeMatrix, nil, []*workload.Plan{mixCell()}, 1)
		tt.mutate(j)
		err := j.Validate(context.Background(), reg)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalid)):
			t.Errorf("%s: %v, want ErrInvalid with %q", tt.name, err, tt.want)
		}
	}
	// Checking a cell's options opens no file.
	dir := t.TempDir()
	j := New("mix", result.ShapeMatrix, nil, []*workload.Plan{mixCell()}, 1)
	j.Cells[0].Driver, j.Cells[0].Mode = "mattn", workload.ModeProcess
	t.Chdir(dir) // the path Validate gives the store is relative
	if err := j.Validate(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("validation left %d files behind", len(entries))
	}
}

// A plan file written before jobs recorded their shape reads with the
// shape its command had; a scaling table's driver baseline becomes its
// reference, and a search round-trips as data.
func TestReadLegacyAndSearch(t *testing.T) {
	for _, tt := range []struct {
		command, baseline string
		shape             result.Shape
		wantBase, wantRef string
	}{
		{"mix", "journal=wal", result.ShapeMatrix, "journal=wal", ""},
		{"crud", "mattn", result.ShapeScaling, "", "mattn"},
		{"blob", "", result.ShapeTargets, "", "db"},
	} {
		in := `{"kind": "plan", "schema_version": 1, "command": "` + tt.command + `", "repeat": 1, "baseline": "` + tt.baseline + `", "cells": []}`
		j, err := Read(strings.NewReader(in), nil)
		if err != nil {
			t.Fatal(err)
		}
		if j.Shape != tt.shape || j.Baseline != tt.wantBase || j.Reference != tt.wantRef {
			t.Errorf("%s: shape %q baseline %q reference %q, want %q %q %q", tt.command, j.Shape, j.Baseline, j.Reference, tt.shape, tt.wantBase, tt.wantRef)
		}
	}
	sp := capacity.DefaultSpec()
	sp.Objectives, sp.RateMax = "upsert p99 <= 20ms", 5000
	j := New("mix", result.ShapeMatrix, nil, []*workload.Plan{mixCell()}, 1)
	j.Search, j.Expect = &sp, []string{"sustainable rate >= 100"}
	var buf bytes.Buffer
	if err := j.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Search == nil || *back.Search != sp {
		t.Fatalf("search after a round trip: %+v, want %+v", back.Search, sp)
	}
	if err := back.Validate(context.Background(), all.Registry()); err != nil {
		t.Errorf("a search job does not validate: %v", err)
	}
}

// FuzzRead: no input makes Read panic, and what it accepts writes back to
// a file it reads the same.
func FuzzRead(f *testing.F) {
	f.Add(readFixture(f, "mix-wal.json"))
	var buf bytes.Buffer
	_ = New("mix", result.ShapeMatrix, []string{"mix"}, []*workload.Plan{mixCell()}, 1).Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"kind": "plan", "schema_version": 1, "cells": [null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := Read(bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := j.Write(&out); err != nil {
			t.Fatal(err)
		}
		back, err := Read(bytes.NewReader(out.Bytes()), nil)
		if err != nil {
			t.Fatalf("a written job does not read back: %v\n%s", err, out.Bytes())
		}
		var again bytes.Buffer
		if err := back.Write(&again); err != nil || again.String() != out.String() {
			t.Fatalf("round trip changed the job: %v", err)
		}
	})
}
