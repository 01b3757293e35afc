package all

import (
	"slices"
	"testing"
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
