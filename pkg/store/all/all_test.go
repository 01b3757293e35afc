package all

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

func TestRegistry(t *testing.T) {
	t.Parallel()
	names := Registry().Names()
	for _, want := range []string{"null", "modernc", DefaultDriver()} {
		if !slices.Contains(names, want) {
			t.Errorf("registry %v lacks %q", names, want)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("Names() = %v, not sorted", names)
	}
	if _, err := Registry().Lookup("oracle"); err == nil {
		t.Error("Lookup of an unknown driver succeeded")
	}
}

// Every engine binds exactly the flags it lists, and no two engines bind
// one flag but a common one (--sync): together they bind into one flag
// set, as every run command binds them.
func TestEngineFlagsDistinct(t *testing.T) {
	reg := Registry()
	es := reg.Settings()
	owner := map[string]string{}
	for _, name := range reg.Names() {
		s := es.Of(name)
		if s == nil {
			continue
		}
		fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
		s.AddFlags(fs)
		var bound []string
		fs.VisitAll(func(f *pflag.Flag) { bound = append(bound, f.Name) })
		listed := slices.Sorted(slices.Values(s.Flags()))
		if !slices.Equal(bound, listed) {
			t.Errorf("%s binds %v but lists %v", s.Engine(), bound, listed)
		}
		for _, f := range listed {
			if _, common := store.CommonFlags[f]; common {
				continue
			}
			if o, ok := owner[f]; ok && o != s.Engine() {
				t.Errorf("--%s is bound by %s and by %s", f, o, s.Engine())
			}
			owner[f] = s.Engine()
		}
	}
	if len(owner) < 4 {
		t.Fatalf("only %d engine flags: %v", len(owner), owner)
	}
	es.AddFlags(pflag.NewFlagSet("all", pflag.ContinueOnError)) // panics on a clash
}

// A flag bound twice is refused with the engine's name, not pflag's
// bare panic.
func TestEngineFlagClashPanics(t *testing.T) {
	fs := pflag.NewFlagSet("clash", pflag.ContinueOnError)
	fs.String("journal", "", "a command's own --journal")
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "the SQLite drivers binds --journal") {
			t.Errorf("panic %q, want one naming the engine and the flag", msg)
		}
	}()
	Registry().Settings().AddFlags(fs)
}
