package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/preset"
)

// choose's bad input is one line, exit 2, naming what a choice takes: an
// unknown --format lists a choice's formats, not every report's; a --json
// that cannot be written is said once, not once per candidate; two
// workloads, or a workload's flag given to another, are refused naming
// both.
func TestChooseBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, `unknown format "xml" for a choice (want one of html, json, markdown, text)`},
		{[]string{"--format", "csv"}, `unknown format "csv" for a choice`},
		{[]string{"--keep", "bogus"}, `--keep "bogus": want acked, process-crash, none`},
		{[]string{"--driver", "bbolt", "--budget", "10m", "--json", dir}, "--json " + dir + ": " + dir + " is a directory"},
		{[]string{"--mix", "read=100", "--ycsb", "a"}, "--mix and --ycsb both given: choose measures one workload"},
		{[]string{"--role", "w:2:append=100", "--trace", "app.trace"}, "--role and --trace both given"},
		{[]string{"--file", "x.sql", "--ycsb", "b"}, "--ycsb and --file both given"},
		{[]string{"--keys", "10", "--ycsb", "a"}, "--keys applies to a mix or roles workload, not to --ycsb"},
		{[]string{"-p", "recordcount=10"}, "--property applies to a ycsb workload, not to the default mix"},
		{[]string{"--role", "w:2:append=100", "--workers", "3"}, "--role and --workers both given: each role's COUNT sets its workers"},
		{[]string{"--ycsb", "a", "-p", "threadcount=2", "--workers", "3"}, "--workers and threadcount (-p) both set the workers"},
		{[]string{"--ycsb", "nothere"}, "--ycsb: workload nothere: "},
		{[]string{"--file", "nothere.sql"}, "--file: open nothere.sql"},
		{[]string{"--trace", "nothere.trace"}, "nothere.trace: "},
		{[]string{"--builtin", "tpcb-like", "--file", "x.sql"}, "--file: open x.sql"},
		{[]string{"--mix", "read=90,scan=10", "--scan-length", "0"}, "--scan-length 0: a scan reads at least one key"},
		{[]string{"--ycsb", "e", "--scan-length", "10"}, "--scan-length applies to a mix or roles workload, not to --ycsb"},
		{[]string{"--mix", "read=100", "--scan-length", "10"}, "scan length 10: no phase of the plan scans"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			env, stdout, stderr := testEnv(t)
			if code := Main(append([]string{"choose"}, tt.args...), env); code != ExitUsage {
				t.Fatalf("exit %d, want %d: %s", code, ExitUsage, stderr)
			}
			if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tt.want) {
				t.Errorf("stderr %q, want one line holding %q", msg, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %s", stdout)
			}
		})
	}
}

// An operationcount the user set, with -p or in a property file of their
// own, is said not to be used (choose sizes each run from --budget); the
// canonical workloads' own is not said.
func TestChooseUnusedOperationCount(t *testing.T) {
	canonical, _ := preset.CanonicalYCSB("a")
	withP := append(slices.Clone(canonical), preset.Property{Name: "operationcount", Value: "100", Origin: "-p"})
	file := []preset.Property{{Name: "recordcount", Value: "10", Origin: "w.props:1"}, {Name: "operationcount", Value: "5", Origin: "w.props:2"}}
	for _, tt := range []struct {
		name      string
		props     []preset.Property
		canonical bool
		want      string
	}{
		{"canonical alone", canonical, true, ""},
		{"canonical and -p", withP, true, "operationcount (-p) is not used: choose sizes each run from --budget"},
		{"own file", file, false, "operationcount (w.props:2) is not used"},
		{"none", file[:1], false, ""},
	} {
		got := unusedOperationCount(tt.props, tt.canonical)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// --rank-by's help says every default rankKey falls back to, not only
// the first (a workload whose closed-loop roles all read has no writer).
func TestChooseRankByHelp(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("choose", pflag.ContinueOnError)
	defaultChooseOptions().AddFlags(fs)
	usage := fs.Lookup("rank-by").Usage
	for _, want := range []string{"the first closed-loop role that writes", "else the first closed-loop role", "else the first role"} {
		if !strings.Contains(usage, want) {
			t.Errorf("--rank-by's help %q lacks %q", usage, want)
		}
	}
}
