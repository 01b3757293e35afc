package store_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// A declared boolean option takes its comma list as a word of its own, as
// every matrix flag does, and still stands alone as true; a word that is
// not meant as its value stays an argument; a bad value is refused naming
// the flag and what it wants.
func TestBoolListArgs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args  []string
		cells []string // each cell's t-strict
		rest  []string // the arguments left
		err   string
		not   string // nor may the error say this (the value said twice)
	}{
		{args: []string{"--t-strict", "false,true"}, cells: []string{"false", "true"}},
		{args: []string{"--t-strict", "true,false", "--t-mode", "fast"}, cells: []string{"true", "false"}},
		{args: []string{"--t-strict=false,true"}, cells: []string{"false", "true"}},
		{args: []string{"--t-strict", "false"}, cells: []string{"false"}},
		{args: []string{"--t-strict"}, cells: []string{"true"}},
		{args: []string{"--t-strict", "--t-mode", "fast"}, cells: []string{"true"}},
		{args: []string{"--t-strict", "workloada"}, cells: []string{"true"}, rest: []string{"workloada"}},
		{args: []string{"--", "--t-strict", "false"}, cells: []string{"false"}, rest: []string{"--t-strict", "false"}},
		{args: []string{"--t-strict", "false,maybe"}, err: `"maybe": want true or false`},
		{args: []string{"--t-strict", "yes"}, err: `invalid argument "yes" for "--t-strict" flag: want true or false`, not: `"yes": `},
		{args: []string{"--t-mode", "false", "--t-strict", "false"}, err: "--t-mode false: want fast or safe"},
	} {
		s := testDecl.Settings()
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		s.AddFlags(fs)
		err := fs.Parse(store.JoinBoolLists(fs, tt.args))
		var cells []store.Cell
		if err == nil {
			cells, err = s.Cells(store.Want{})
		}
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || tt.not != "" && strings.Contains(err.Error(), tt.not) {
				t.Errorf("%q: %v, want %q (and no %q)", tt.args, err, tt.err, tt.not)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		var got []string
		for _, v := range cellValues(t, testDecl, cells) {
			got = append(got, strings.Split(v, "/")[2])
		}
		if !slices.Equal(got, tt.cells) || !slices.Equal(fs.Args(), tt.rest) && len(fs.Args())+len(tt.rest) > 0 {
			t.Errorf("%q: cells %v args %q, want %v %q", tt.args, got, fs.Args(), tt.cells, tt.rest)
		}
	}
}
