package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// testOptions is an engine's options as a declaration reads them.
type testOptions struct {
	Mode    string        `json:"mode" flag:"t-mode" values:"fast,safe" help:"test engine: the mode"`
	Size    int64         `json:"size_mib" flag:"t-size" help:"test engine: the size in MiB"`
	Strict  bool          `json:"strict" flag:"t-strict" help:"test engine: be strict"`
	Wait    time.Duration `json:"wait_ns" flag:"t-wait" help:"test engine: how long to wait"`
	Sync    string        `json:"sync" flag:"sync"`
	Derived int           `json:"derived,omitempty"` // no flag: set by the engine
}

func (o testOptions) Validate() error {
	if o.Size < 1 {
		return fmt.Errorf("size %d MiB: want at least 1", o.Size)
	}
	return nil
}

func defaultTestOptions() testOptions {
	return testOptions{Mode: "safe", Size: 8, Wait: time.Second, Sync: store.SyncFull}
}

var testDecl = store.Declare("the test engine", defaultTestOptions)

// bind binds the test declaration's flags and parses args.
func bind(t *testing.T, args ...string) store.Settings { return bindDecl(t, testDecl, args...) }

// bindDecl binds d's flags and parses args.
func bindDecl(t *testing.T, d store.Declaration, args ...string) store.Settings {
	t.Helper()
	s := d.Settings()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	s.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return s
}

// cellValues returns each cell's named values, joined by "/".
func cellValues(t *testing.T, d store.Declaration, cells []store.Cell) []string {
	t.Helper()
	var out []string
	for _, c := range cells {
		named, err := d.Name(c.Options)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, n := range named {
			parts = append(parts, n.Value)
		}
		out = append(out, strings.Join(parts, "/"))
	}
	return out
}

// Every combination of the lists is a cell, the first field outermost; a
// bare bool flag is true; every cell decodes back to its values.
func TestDeclaredCells(t *testing.T) {
	t.Parallel()
	s := bind(t, "--t-mode", "fast,safe", "--t-size", "1,2", "--t-strict", "--sync", "off,full")
	cells, err := s.Cells(store.Want{})
	if err != nil {
		t.Fatal(err)
	}
	got := cellValues(t, testDecl, cells)
	want := []string{
		"fast/1/true/1s/off", "fast/1/true/1s/full", "fast/2/true/1s/off", "fast/2/true/1s/full",
		"safe/1/true/1s/off", "safe/1/true/1s/full", "safe/2/true/1s/off", "safe/2/true/1s/full",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cells\n%v\nwant\n%v", got, want)
	}
	if got := s.Flags(); !slices.Equal(got, []string{"t-mode", "t-size", "t-strict", "t-wait", "sync"}) {
		t.Errorf("flags %v", got)
	}
}

// Bad values are refused naming the engine and the flag: outside the
// declared values, not parsing, refused by Validate, unknown JSON.
func TestDeclaredRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--t-mode", "reckless"}, "the test engine: --t-mode reckless: want fast or safe"},
		{[]string{"--t-size", "0"}, "the test engine: size 0 MiB: want at least 1"},
		{[]string{"--sync", "extra"}, "the test engine: --sync extra: want off, normal or full"},
	} {
		_, err := bind(t, tt.args...).Cells(store.Want{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%v: %v, want ErrInvalid %q", tt.args, err, tt.want)
		}
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	testDecl.Settings().AddFlags(fs)
	if err := fs.Parse([]string{"--t-size", "two"}); err == nil || !strings.Contains(err.Error(), "want a whole number") {
		t.Errorf("--t-size two: %v", err)
	}
	if _, err := testDecl.Decode(json.RawMessage(`{"mode":"fast","colour":"red"}`)); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "the test engine") {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := bind(t).Cells(store.Want{Memory: true}); err == nil || !strings.Contains(err.Error(), "the test engine has no in-memory mode") {
		t.Errorf("memory: %v", err)
	}
}

// Options name themselves by their flags: as settings, as facts, and as a
// headline read back from facts.
func TestDeclaredNames(t *testing.T) {
	t.Parallel()
	o := defaultTestOptions()
	o.Derived = 3
	raw := testDecl.Encode(o)
	named, err := testDecl.Name(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(named); got != "[{t-mode safe} {t-size 8} {t-strict false} {t-wait 1s} {sync full}]" {
		t.Errorf("named %s", got)
	}
	facts := append([]store.Fact{{Name: "driver", Value: "t"}}, testDecl.Facts(o)...)
	if got := testDecl.Headline(facts); got != "t-mode safe · t-size 8 · t-strict false · t-wait 1s · sync full" {
		t.Errorf("headline %q", got)
	}
	back, err := testDecl.Decode(raw)
	if err != nil || back != o {
		t.Errorf("decoded %+v, %v; want %+v", back, err, o)
	}
}

// A cell hook fits cells to the run; cells it makes equal are one.
func TestDeclaredOnCell(t *testing.T) {
	t.Parallel()
	d := store.Declare("the hooked engine", defaultTestOptions).OnCell(func(o *testOptions, w store.Want, _ store.Given) (time.Duration, error) {
		if o.Mode == "fast" {
			o.Strict = false // fast is never strict: the strict cell is the same
		}
		if w.Memory {
			o.Derived = 1
		}
		return o.Wait, nil
	})
	s := d.Settings()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	s.AddFlags(fs)
	if err := fs.Parse([]string{"--t-mode", "fast", "--t-strict", "true,false", "--t-wait", "2s"}); err != nil {
		t.Fatal(err)
	}
	cells, err := s.Cells(store.Want{Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 || cells[0].RetryBudget != 2*time.Second {
		t.Fatalf("cells %+v, want one with a 2s budget", cells)
	}
	if o, _ := d.Decode(cells[0].Options); o.Derived != 1 {
		t.Errorf("the hook did not see the run: %+v", o)
	}
}

// otherOptions is a second engine's, sharing --sync.
type otherOptions struct {
	Sync string `json:"sync" flag:"sync" values:"off,normal,full,extra"`
}

func (otherOptions) Validate() error { return nil }

type declDriver struct {
	name string
	decl store.Declaration
}

func (d declDriver) Name() string { return d.name }
func (d declDriver) Open(context.Context, store.Config) (store.Store, error) {
	return nil, errors.New("not opened")
}
func (d declDriver) Options() store.Declaration { return d.decl }

// A common flag is bound once for every engine that declares it; each
// engine's cells read the one list, and each checks the values it takes.
func TestCommonFlagShared(t *testing.T) {
	t.Parallel()
	reg := store.NewRegistry()
	reg.Register(declDriver{"a", testDecl})
	reg.Register(declDriver{"b", store.Declare("the other engine", func() otherOptions { return otherOptions{Sync: store.SyncFull} })})
	es := reg.Settings()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	es.AddFlags(fs)
	if err := fs.Parse([]string{"--sync", "off,extra"}); err != nil {
		t.Fatal(err)
	}
	if cells, err := es.Cells("b", store.Want{}); err != nil || len(cells) != 2 {
		t.Errorf("b: %d cells, %v; want 2", len(cells), err)
	}
	if _, err := es.Cells("a", store.Want{}); err == nil || !strings.Contains(err.Error(), "the test engine: --sync extra") {
		t.Errorf("a: %v, want --sync extra refused naming the engine", err)
	}
	if got := es.Values("sync"); !slices.Equal(got, []string{"off", "normal", "full", "extra"}) {
		t.Errorf("sync completes %v", got)
	}
	if err := es.Check(fs.Changed, []string{"b"}); err != nil {
		t.Errorf("--sync for b: %v", err)
	}
	if err := es.Check(func(f string) bool { return f == "t-mode" }, []string{"b"}); err == nil || !strings.Contains(err.Error(), "--t-mode applies to the test engine, not to b") {
		t.Errorf("--t-mode for b: %v", err)
	}
	if named, err := reg.NameOptions("b", json.RawMessage(`{"sync":"extra"}`)); err != nil || fmt.Sprint(named) != "[{sync extra}]" {
		t.Errorf("named %v, %v", named, err)
	}
}

// The common --sync takes its keywords in any case, as SQLite takes its
// pragmas' ("--sync FULL" is full); a list still refuses a value twice.
func TestCommonFlagFoldsCase(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	l := store.BindCommon(fs, "sync")
	if err := fs.Parse([]string{"--sync", "OFF,Full"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(*l, []string{"off", "full"}) {
		t.Errorf("--sync OFF,Full is %v, want [off full]", *l)
	}
	if err := fs.Set("sync", "full,FULL"); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("--sync full,FULL: %v, want it refused as listed twice", err)
	}
	if store.BindCommon(fs, "sync") != l {
		t.Error("a second engine's --sync is another list")
	}
}

// hintOptions use the declaration's finer tags: suggested values that
// fold case without restricting, an option named only where set, and one
// no flag sets.
type hintOptions struct {
	Level string   `json:"level" flag:"h-level" complete:"low,high" help:"hinted engine: a level, or any word"`
	Extra string   `json:"extra,omitempty" flag:"h-extra" named:"omitzero" help:"hinted engine: an extra"`
	Wait  textWait `json:"wait" flag:"h-wait" help:"hinted engine: a wait"`
	Run   string   `json:"run,omitempty" name:"h-run" named:"omitzero"`
}

func (hintOptions) Validate() error { return nil }

// textWait is a text-marshalled option, which help calls a string.
type textWait int

func (w textWait) MarshalText() ([]byte, error) { return []byte(fmt.Sprint(int(w), "w")), nil }
func (w *textWait) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%dw", (*int)(w))
	return err
}

// The finer tags: suggested values fold case without restricting, an
// option is named only where set, one no flag sets is named but bound to
// no flag, a text option reads as a string, and the cell hook sees what
// the command line gave.
func TestDeclaredHints(t *testing.T) {
	t.Parallel()
	var seen []string
	d := store.Declare("the hinted engine", func() hintOptions { return hintOptions{Level: "low", Wait: 2} }).
		OnCell(func(o *hintOptions, _ store.Want, given store.Given) (time.Duration, error) {
			seen = append(seen, fmt.Sprint(given("h-level"), given("h-extra")))
			o.Run = "by-hook"
			return 0, nil
		})
	s := d.Settings()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	s.AddFlags(fs)
	if err := fs.Parse([]string{"--h-level", "HIGH,Medium"}); err != nil {
		t.Fatal(err)
	}
	if fs.Lookup("h-run") != nil || slices.Contains(s.Flags(), "h-run") {
		t.Error("an option no flag sets has a flag")
	}
	if got := fs.Lookup("h-wait").Value.Type(); got != "string" {
		t.Errorf("a text option's flag is a %s", got)
	}
	if got := s.(store.Completer).Values("h-level"); !slices.Equal(got, []string{"low", "high"}) {
		t.Errorf("h-level completes %v", got)
	}
	cells, err := s.Cells(store.Want{})
	if err != nil {
		t.Fatal(err)
	}
	// h-extra is zero, so not named; h-run is named though no flag sets it.
	named := cellValues(t, d, cells)
	want := []string{"high/2w/by-hook", "medium/2w/by-hook"}
	if !slices.Equal(named, want) {
		t.Errorf("named %v, want %v", named, want)
	}
	if !slices.Equal(seen, []string{"[high medium] []", "[high medium] []"}) {
		t.Errorf("the hook saw given %v", seen)
	}
}
