package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/choose"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/workload"
)

// chooseWorkload is choose's workload flags: a mix (the default) or
// roles, a YCSB workload, SQL scripts, or a trace, each given as its own
// command takes it.
type chooseWorkload struct {
	mix     preset.MixSpec
	ycsb    string
	props   []string
	files   []string
	schema  string
	builtin string
	trace   string
	order   string
}

// AddFlags binds the workload's flags.
func (w *chooseWorkload) AddFlags(fs *pflag.FlagSet) {
	p := &w.mix.Plan
	fs.Var(&p.Phases[0].Mix, "mix", "op mix in percent, summing to 100 (the mix vocabulary of gobench mix: read, upsert, update, delete, scan, append)")
	fs.IntVar(&p.ScanLength, "scan-length", 0, "consecutive keys a scan op of the mix or roles reads, in key order (100 unless given)")
	fs.Var(&w.mix.Roles, "role", "a role of workers with a mix of its own, NAME:COUNT:MIX[@RATE] as gobench mix takes it (repeatable; the roles' counts set the workers)")
	fs.Var(newCount(&p.Keys.Count), "keys", "rows preloaded before each run of a mix or roles; ops draw keys from them")
	fs.IntVar(&p.ValueSize, "value-size", p.ValueSize, "bytes per written value of a mix or roles")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "seed of every worker's ops")
	fs.StringVar(&w.ycsb, "ycsb", "", "YCSB's core workload, run as gobench ycsb run does: a to f, or a property file (--workers sets threadcount)")
	fs.StringArrayVarP(&w.props, "property", "p", nil, "a property NAME=VALUE of the --ycsb workload, as YCSB's -p (repeatable)")
	fs.StringArrayVar(&w.files, "file", nil, "a SQL script, FILE or FILE@WEIGHT, as gobench sql takes it (repeatable); runs on the SQLite drivers only")
	fs.StringVar(&w.schema, "schema", "", "SQL run once before each run of the --file scripts, unmeasured")
	fs.StringVar(&w.builtin, "builtin", "", "a built-in SQL workload on pgbench's tables instead of --file: "+strings.Join(workload.BuiltinNames(), " or "))
	fs.StringVar(&w.trace, "trace", "", "a trace captured by gobench capture, replayed as gobench replay does, each captured connection a goroutine; runs on the SQLite drivers only")
	fs.StringVar(&w.order, "order", w.order, "the --trace's order: commit (each transaction where it was in the captured order of commits: every statement does what it did, so every candidate does the same work) or race (its transactions race, as in production; what diverges fails or differs)")
}

// chooseKinds are the workload kinds by the flags that give one, in the
// order a conflict names them; chooseFlagKinds the kinds each flag of a
// workload's applies to.
var (
	chooseKinds     = []struct{ flag, kind string }{{"mix", "mix"}, {"role", "roles"}, {"ycsb", "ycsb"}, {"file", "sql"}, {"builtin", "sql"}, {"trace", "trace"}}
	chooseFlagKinds = []struct {
		flag  string
		kinds []string
	}{{"keys", []string{"mix", "roles"}}, {"value-size", []string{"mix", "roles"}}, {"scan-length", []string{"mix", "roles"}}, {"property", []string{"ycsb"}}, {"schema", []string{"sql"}}, {"order", []string{"trace"}}}
)

// kind returns the one workload kind fs's flags give (a mix where none
// does), refusing two and a flag of another kind's.
func (w *chooseWorkload) kind(fs *pflag.FlagSet) (string, error) {
	kind, by := "mix", ""
	for _, k := range chooseKinds {
		if !fs.Changed(k.flag) {
			continue
		}
		if by != "" && k.kind != kind {
			return "", fmt.Errorf("--%s and --%s both given: choose measures one workload (--mix, --role, --ycsb, --file or --builtin, or --trace)", by, k.flag)
		}
		kind, by = k.kind, k.flag
	}
	for _, f := range chooseFlagKinds {
		if fs.Changed(f.flag) && !slices.Contains(f.kinds, kind) {
			return "", fmt.Errorf("--%s applies to a %s workload, not to %s", f.flag, strings.Join(f.kinds, " or "), kindFlag(kind, by))
		}
	}
	if fs.Changed("workers") && (kind == "roles" || kind == "trace") {
		return "", fmt.Errorf("--%s and --workers both given: %s", by, map[string]string{
			"roles": "each role's COUNT sets its workers", "trace": "each captured connection is a worker"}[kind])
	}
	return kind, nil
}

// kindFlag names a kind by the flag that gave it.
func kindFlag(kind, by string) string {
	if by == "" {
		return "the default mix"
	}
	return "--" + by
}

// workload returns the workload the flags give; note says what a workload's properties set that choose does not use.
func (w *chooseWorkload) workload(env *Env, fs *pflag.FlagSet, workers int, note func(string)) (choose.Workload, error) {
	kind, err := w.kind(fs)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "ycsb":
		return w.ycsbWorkload(env, fs, workers, note)
	case "sql":
		spec := preset.DefaultSQLSpec()
		spec.Plan.Seed, spec.Builtin = w.mix.Plan.Seed, w.builtin
		if err := (&sqlOptions{files: w.files, schema: w.schema}).readSources(env, &spec); err != nil {
			return nil, err
		}
		return choose.SQL{Spec: spec}, nil
	case "trace":
		spec := preset.DefaultReplaySpec()
		abs, err := env.FS.Abs(w.trace)
		if err != nil {
			return nil, fmt.Errorf("--trace %s: %w", w.trace, err)
		}
		spec.Open = func() (io.ReadCloser, error) { return env.FS.Open(abs) }
		spec.Options.Trace, spec.Options.Order = abs, w.order
		return choose.Replay{Spec: spec}, nil
	}
	if err := checkScanLengthFlag(fs, w.mix.Plan.ScanLength); err != nil {
		return nil, err
	}
	return choose.Mix{Spec: w.mix}, nil
}

// ycsbWorkload reads --ycsb's properties as gobench ycsb does (a
// canonical workload's or a file's, then -p), threadcount from --workers
// where the properties set none or --workers was given.
func (w *chooseWorkload) ycsbWorkload(env *Env, fs *pflag.FlagSet, workers int, note func(string)) (choose.Workload, error) {
	props, err := (&ycsbOptions{props: w.props}).properties(env, w.ycsb)
	if err != nil {
		return nil, fmt.Errorf("--ycsb: %w", err)
	}
	set := slices.IndexFunc(props, func(p preset.Property) bool { return p.Name == "threadcount" })
	switch {
	case set >= 0 && fs.Changed("workers"):
		return nil, fmt.Errorf("--workers and threadcount (%s) both set the workers (want one of them)", props[set].Origin)
	case set < 0:
		props = append(props, preset.Property{Name: "threadcount", Value: strconv.Itoa(workers), Origin: "--workers"})
	}
	spec := preset.DefaultYCSBSpec()
	spec.Plan.Seed = w.mix.Plan.Seed
	if err := spec.SetProperties(props); err != nil {
		return nil, err
	}
	notes, err := spec.Notes()
	if err != nil {
		return nil, err
	}
	_, canonical := preset.CanonicalYCSB(w.ycsb)
	if n := unusedOperationCount(props, canonical); n != "" {
		notes = append(notes, n)
	}
	for _, n := range notes {
		note(n)
	}
	label := filepath.Base(w.ycsb)
	if canonical {
		label = strings.ToUpper(strings.TrimPrefix(strings.ToLower(w.ycsb), "workload"))
	}
	return choose.YCSB{Spec: spec, Label: label}, nil
}

// unusedOperationCount says that an operationcount the user set (with -p,
// or in a property file of their own) is not used: choose sizes every run
// from --budget. The canonical workloads' own operationcount goes unsaid.
func unusedOperationCount(props []preset.Property, canonical bool) string {
	last := -1
	for i, p := range props {
		if p.Name == "operationcount" {
			last = i
		}
	}
	if last < 0 || canonical && props[last].Origin != "-p" {
		return ""
	}
	return fmt.Sprintf("operationcount (%s) is not used: choose sizes each run from --budget", props[last].Origin)
}
