package sqlite

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// spanOptions binds the SQLite drivers' declared flags, parses args and
// spans the cells for w: each cell's options JSON and its named settings.
func spanOptions(t *testing.T, w store.Want, args ...string) ([]store.Cell, []string, error) {
	t.Helper()
	s := Modernc().Options().Settings()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	s.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	cells, err := s.Cells(w)
	var named []string
	for _, c := range cells {
		n, err := Modernc().Options().Name(c.Options)
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, fmt.Sprint(n))
	}
	return cells, named, err
}

// The declared options span the matrices, and write the options JSON and
// the named settings, that the hand-written settings did: journal × sync
// × busy timeout × checkpoint, checkpoints on WAL cells only, keywords in
// any case, "delete" the rollback journal.
func TestDeclaredMatrix(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args      []string
		want      store.Want
		json, set []string
		budget    time.Duration
	}{
		{nil, store.Want{},
			[]string{`{"journal":"rollback","sync":"full","busy_timeout_ms":5000}`},
			[]string{"[{journal rollback} {sync full} {busy-timeout 5s}]"}, 0},
		{[]string{"--journal", "wal,DELETE", "--sync", "full,normal"}, store.Want{},
			[]string{`{"journal":"wal","sync":"full","busy_timeout_ms":5000}`, `{"journal":"wal","sync":"normal","busy_timeout_ms":5000}`,
				`{"journal":"delete","sync":"full","busy_timeout_ms":5000}`, `{"journal":"delete","sync":"normal","busy_timeout_ms":5000}`},
			[]string{"[{journal wal} {sync full} {busy-timeout 5s}]", "[{journal wal} {sync normal} {busy-timeout 5s}]",
				"[{journal delete} {sync full} {busy-timeout 5s}]", "[{journal delete} {sync normal} {busy-timeout 5s}]"}, 0},
		{[]string{"--journal", "rollback,wal", "--checkpoint", "auto,OFF", "--busy-timeout", "250ms"}, store.Want{},
			[]string{`{"journal":"rollback","sync":"full","busy_timeout_ms":250}`,
				`{"journal":"wal","sync":"full","busy_timeout_ms":250,"checkpoint":"auto"}`, `{"journal":"wal","sync":"full","busy_timeout_ms":250,"checkpoint":"off"}`},
			[]string{"[{journal rollback} {sync full} {busy-timeout 250ms}]",
				"[{journal wal} {sync full} {busy-timeout 250ms} {checkpoint auto}]", "[{journal wal} {sync full} {busy-timeout 250ms} {checkpoint off}]"}, 0},
		{[]string{"--capi-loop=false"}, store.Want{Memory: true},
			[]string{`{"journal":"memory","sync":"full","busy_timeout_ms":5000,"memory":true,"no_c_loop":true}`},
			[]string{"[{journal memory} {sync full} {busy-timeout 5s} {memory true} {capi-loop false}]"}, 0},
		{[]string{"--busy-timeout", "2s"}, store.Want{BusyRetry: true},
			[]string{`{"journal":"rollback","sync":"full","busy_timeout_ms":0,"setup_busy_timeout_ms":2000}`},
			[]string{"[{journal rollback} {sync full} {busy-timeout 0s}]"}, 2 * time.Second},
	} {
		cells, named, err := spanOptions(t, tt.want, tt.args...)
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		var raw []string
		for _, c := range cells {
			raw = append(raw, string(c.Options))
			if c.RetryBudget != tt.budget {
				t.Errorf("%v: retry budget %v, want %v", tt.args, c.RetryBudget, tt.budget)
			}
		}
		if !slices.Equal(raw, tt.json) || !slices.Equal(named, tt.set) {
			t.Errorf("%v:\n%s\n%s\nwant\n%s\n%s", tt.args, strings.Join(raw, "\n"), strings.Join(named, "\n"), strings.Join(tt.json, "\n"), strings.Join(tt.set, "\n"))
		}
	}
}

// What a cell cannot be is refused: a checkpoint without a WAL cell, a
// retry policy without a budget, a journal that needs files in memory.
func TestDeclaredRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want store.Want
		err  string
	}{
		{[]string{"--checkpoint", "off"}, store.Want{}, "--checkpoint applies to --journal wal"},
		{[]string{"--busy-timeout", "0s"}, store.Want{BusyRetry: true}, "give it a positive duration"},
		{[]string{"--journal", "wal"}, store.Want{Memory: true}, "journal mode wal needs files"},
		{[]string{"--journal", "wall"}, store.Want{}, `unknown journal mode "wall"`},
	} {
		if _, _, err := spanOptions(t, tt.want, tt.args...); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.err)
		}
	}
}

// Options written before the declaration read back the same: a result's
// plan still opens and names its options.
func TestOldOptionsRead(t *testing.T) {
	t.Parallel()
	raw := `{"journal":"wal","sync":"normal","busy_timeout_ms":1500,"setup_busy_timeout_ms":3000,"api":"blob","checkpoint":"250","no_c_loop":true}`
	o, err := DecodeOptions([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 1500, SetupBusyTimeoutMS: 3000, API: APIBlob, Checkpoint: "250", NoCLoop: true}
	if o != want {
		t.Errorf("decoded %+v, want %+v", o, want)
	}
	if got := string(o.Encode()); got != raw {
		t.Errorf("encoded %s, want %s", got, raw)
	}
	named, err := Modernc().Options().Name([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(named); got != "[{journal wal} {sync normal} {busy-timeout 1.5s} {api blob} {checkpoint 250} {capi-loop false}]" {
		t.Errorf("named %s", got)
	}
}
