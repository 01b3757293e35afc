package bbolt

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

// Each profile sets what it says (the tool's is group commit), recorded
// in the cell's options, and a flag given explicitly wins over it.
func TestProfiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		args    []string
		profile string
		batch   bool
	}{
		{"default", nil, store.ProfileLibrary, false},
		{"library", []string{"--profile", "library"}, store.ProfileLibrary, false},
		{"tool", []string{"--profile", "tool"}, store.ProfileTool, true},
		{"tool, batch given", []string{"--profile", "tool", "--bbolt-batch=false"}, store.ProfileTool, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := storetest.Options(t, declared, tc.args...)
			if o.Profile != tc.profile || o.Batch != tc.batch {
				t.Fatalf("profile %q batch %v, want %q %v", o.Profile, o.Batch, tc.profile, tc.batch)
			}
		})
	}
}
