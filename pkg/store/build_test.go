package store_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// Definitions are NAME or NAME=VALUE joined by "+", returned sorted and
// each once; anything a compiler's command line would read otherwise is
// refused, naming the bad item.
func TestParseDefines(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "", want: nil},
		{in: "SQLITE_ENABLE_SETLK_TIMEOUT", want: []string{"SQLITE_ENABLE_SETLK_TIMEOUT"}},
		{in: "B=1+A", want: []string{"A", "B=1"}},
		{in: "SQLITE_DEFAULT_CACHE_SIZE=-4000", want: []string{"SQLITE_DEFAULT_CACHE_SIZE=-4000"}},
		{in: "A+A", want: []string{"A"}},
		{in: "A=1+A=2", wantErr: "defined twice"},
		{in: "1A", wantErr: `"1A"`},
		{in: "A B", wantErr: "C identifier"},
		{in: "A=", wantErr: "VALUE"},
		{in: "A=$(rm)", wantErr: "VALUE"},
		{in: "A=1 -DB", wantErr: "VALUE"},
		{in: "A++B", wantErr: `""`},
		{in: "-DA", wantErr: "C identifier"},
	} {
		got, err := store.ParseDefines(tc.in)
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseDefines(%q) = %v, %v; want an error containing %q", tc.in, got, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("ParseDefines(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// A build's definitions become compiler flags, one -D each.
func TestWorkerBuildCFlags(t *testing.T) {
	b := store.WorkerBuild{Defines: []string{"A", "B=1"}}
	if got := b.CFlags(); !slices.Equal(got, []string{"-DA", "-DB=1"}) {
		t.Errorf("CFlags = %v", got)
	}
}
