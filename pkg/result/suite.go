package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobench/gobench/pkg/workload"
)

// Setting is one named value that distinguishes the cells of a matrix,
// such as journal=wal or procs=25: an engine's option by its flag's name
// (store.Setting), or one of the run's own.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Settings is an ordered list of settings. Its text form is
// "journal=wal,procs=25".
type Settings []Setting

// String returns "name=value,name=value", or "(all)" when empty.
func (s Settings) String() string {
	if len(s) == 0 {
		return "(all)"
	}
	parts := make([]string, len(s))
	for i, st := range s {
		parts[i] = st.Name + "=" + st.Value
	}
	return strings.Join(parts, ",")
}

// Only returns the settings named in names, in s's order: a cell's
// varied settings out of all of a run's.
func (s Settings) Only(names []string) Settings {
	var out Settings
	for _, st := range s {
		if slices.Contains(names, st.Name) {
			out = append(out, st)
		}
	}
	return out
}

// Get returns the value of the named setting.
func (s Settings) Get(name string) (string, bool) {
	for _, st := range s {
		if st.Name == name {
			return st.Value, true
		}
	}
	return "", false
}

// Cell is one combination of settings and its repeated runs.
type Cell struct {
	// Settings holds the values of the suite's varied settings.
	Settings Settings `json:"settings"`
	// Runs are the repeats of the cell, in the order they ran.
	Runs []*Result `json:"runs"`
}

// Suite is the result of several runs: a matrix of cells, each repeated.
// Every run is kept whole, histograms included, so nothing is lost and
// suites merge.
type Suite struct {
	SchemaVersion int    `json:"schema_version"`
	Kind          string `json:"kind"` // always "suite"
	Command       string `json:"command"`
	// Shape is how the cells read against each other (ShapeMatrix when a
	// file written before shapes were recorded does not say).
	Shape Shape `json:"shape,omitempty"`
	// Reference is what a suite that does not compare cells by selector
	// compares against: a scaling table's driver ("" for the first), the
	// target of a suite of targets that the others face.
	Reference string `json:"reference,omitempty"`
	// Varied names the settings that differ between cells, in order.
	Varied []string `json:"varied"`
	// Baseline is the settings of the cell factors are computed against.
	Baseline Settings `json:"baseline"`
	// Order says how the runs were scheduled: "interleaved" (every cell
	// once, then again, so slow drift spreads evenly) or "merged".
	Order string `json:"order"`
	Cells []Cell `json:"cells"`
	// Gates holds the verdict of every gate (--expect) on the suite.
	Gates []Gate `json:"gates,omitempty"`
	// Precision is what --precision reached, when it was asked for.
	Precision *Precision `json:"precision,omitempty"`
	// Scenario, for a scenario's suite (gobench scenario), says whether
	// its pitfall was reproduced, and the finding.
	Scenario *Scenario `json:"scenario,omitempty"`
	// Shard, when set, says the suite is one shard of a job split by its
	// cells and repeats (--shard I/N): part of the job, which merge joins
	// with the other shards into the job's suite.
	Shard *Shard `json:"shard,omitempty"`
	// Missing names, in a suite merged from shards of a job (gobench
	// merge --partial), the job's runs no shard brought; empty when the
	// suite is whole.
	Missing []string `json:"missing,omitempty"`
}

// Precision is what a stop rule for repeats reached (see judge.Precision):
// the target half-width, the repeats run, whether every figure reached it,
// what stopped the repeats ("reached", "--max-repeats 30", "--max-time
// 10m0s") and the line that says it.
type Precision struct {
	Target    float64 `json:"target"`
	Repeats   int     `json:"repeats"`
	Reached   bool    `json:"reached"`
	StoppedBy string  `json:"stopped_by"`
	Text      string  `json:"text"`
}

// Scenario is the outcome of one of gobench's scenarios: a pitfall
// contrasted with its fix, judged by its gates (Suite.Gates).
type Scenario struct {
	// Name is the scenario's, such as "deferred-begin"; Title says in a
	// line what it shows; Doc is the SQLite documentation page that
	// explains it.
	Name  string `json:"name"`
	Title string `json:"title"`
	Doc   string `json:"doc"`
	// Verdict is OutcomeReproduced when every gate passed,
	// OutcomeNotReproduced when one failed, else inconclusive.
	Verdict string `json:"verdict"`
	// Finding says in plain words what the runs measured.
	Finding string `json:"finding"`
}

// The verdicts of a scenario (Scenario.Verdict).
const (
	OutcomeReproduced    = "reproduced"
	OutcomeNotReproduced = "not reproduced"
)

// SuiteKind marks a suite's JSON.
const SuiteKind = "suite"

// RunSettings returns every setting of a run that a matrix can vary, in a
// fixed order: the driver, the worker layout, the batch size, the number
// of keys (rows), and each of the store's options by the name of its flag
// (such as journal, sync and busy-timeout; see store.Declarer). Every name is
// the flag that sets it, so it is also the gate selector and the column.
func RunSettings(r *Result) Settings { return PlanSettings(&r.Plan) }

// PlanSettings returns the matrix settings of a plan (see RunSettings).
func PlanSettings(pl *workload.Plan) Settings {
	p := *pl
	var s Settings
	if p.Variant != "" {
		s = append(s, Setting{"variant", p.Variant})
	}
	for _, st := range p.SourceSettings() {
		s = append(s, Setting(st))
	}
	if q := p.SQL; q != nil {
		if q.Schema != nil && q.Schema.Variant != "" {
			s = append(s, Setting{"schema", q.Schema.Variant})
		}
		for _, f := range q.Scripts {
			if f.Variant != "" {
				s = append(s, Setting{"file", f.Variant})
			}
		}
	}
	s = append(s, Settings{
		{"driver", p.Driver},
		{"mode", p.Mode},
		{"procs", strconv.Itoa(p.Procs)},
		{"goroutines", strconv.Itoa(p.Goroutines)},
	}...)
	if len(p.Phases) > 0 {
		s = append(s, Setting{"batch", strconv.Itoa(p.Phases[0].Batch)})
	}
	if p.SQL == nil {
		s = append(s, Setting{"keys", strconv.FormatUint(p.Keys.Count, 10)})
	}
	if p.Rate > 0 {
		s = append(s, Setting{"rate", strconv.FormatFloat(p.Rate, 'f', -1, 64)})
		if p.Arrival == workload.ArrivalPoisson {
			s = append(s, Setting{"arrival", p.Arrival})
		}
	}
	if p.Busy == workload.BusyRetry {
		s = append(s, Setting{"busy", "retry " + time.Duration(p.BusyBudget).String()})
	}
	if len(p.Store.Settings) > 0 {
		for _, st := range p.Store.Settings {
			s = append(s, Setting(st))
		}
	} else {
		s = append(s, optionKeys(p.Store.Options)...)
	}
	if p.Crash != nil && len(p.Crash.Models) > 1 {
		// Last: a durability table reads engine, setting, model.
		s = append(s, Setting{"crash-model", p.Crash.Model})
	}
	return s
}

// optionKeys names engine options by their JSON keys, sorted: the
// settings of a plan written before engines named their options by their
// flags (store.Declarer) and of engines that do not.
func optionKeys(options json.RawMessage) Settings {
	var opts map[string]any
	if len(options) == 0 || json.Unmarshal(options, &opts) != nil {
		return nil
	}
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	sort.Strings(names)
	var s Settings
	for _, k := range names {
		s = append(s, Setting{k, fmt.Sprint(opts[k])})
	}
	return s
}

// workloadOf returns the JSON of everything in a run's plan that is not a
// matrix setting, a path or a shard: two runs are of the same workload
// exactly when these agree.
func workloadOf(r *Result) []byte {
	p := r.Plan
	p.Driver, p.Mode, p.Procs, p.Goroutines = "", "", 0, 0
	p.Store.Path, p.Store.Options, p.Store.Settings = "", nil, nil
	// A replay's database is bare (a replay's, from this gobench on) and
	// its examples of divergence go to a file beside it: the store's
	// keeping and a path, not the workload.
	p.Store.Bare = false
	p.Unplace()
	p.Shard, p.Target = nil, ""
	// What traced the I/O is resolved per engine (its VFS, or the file
	// system recorder under one with none): a measuring instrument, like
	// the engine's options, not the workload.
	p.IOTrace = ""
	if p.Crash != nil && len(p.Crash.Models) > 1 {
		// The crash model of a run that spans them is a matrix setting.
		c := *p.Crash
		c.Model = ""
		p.Crash = &c
	}
	p.Keys.Count, p.Preload = 0, 0
	p.SQL = withoutVariants(p.SQL)
	p.Phases = slices.Clone(p.Phases)
	for i := range p.Phases {
		p.Phases[i].Batch = 0
		if p.Records != nil {
			// A record workload's size is its operation count over all
			// workers: each cell splits it over its own.
			p.Phases[i].Ops = 0
		}
	}
	b, _ := json.Marshal(p)
	return b
}

// withoutVariants returns q without the files that are alternatives of
// one another (SQLFile.Variant): a matrix setting, not the workload.
func withoutVariants(q *workload.SQL) *workload.SQL {
	if q == nil {
		return nil
	}
	c := *q
	if c.Schema != nil && c.Schema.Variant != "" {
		c.Schema = nil
	}
	c.Scripts = slices.Clone(c.Scripts)
	for i, f := range c.Scripts {
		if f.Variant != "" {
			c.Scripts[i] = workload.SQLFile{Name: f.Name, Weight: f.Weight}
		}
	}
	return &c
}

// SameWorkload returns nil when a and b ran the same workload (seed, keys,
// values, mix, ops or duration, phases) and an error naming the first
// difference otherwise.
func SameWorkload(a, b *Result) error {
	wa, wb := workloadOf(a), workloadOf(b)
	if bytes.Equal(wa, wb) {
		return nil
	}
	var ma, mb any
	_ = json.Unmarshal(wa, &ma)
	_ = json.Unmarshal(wb, &mb)
	if d := firstDiff("", ma, mb); d != "" {
		return fmt.Errorf("different workloads: %s", d)
	}
	return fmt.Errorf("different workloads")
}

// firstDiff names the first difference between two decoded JSON values
// at its deepest key ("sql.scale is 1 in one and 2 in the other"), each
// value shortened to a line; "" when they are equal.
func firstDiff(path string, a, b any) string {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA && okB {
		keys := make([]string, 0, len(ma)+len(mb))
		for k := range ma {
			keys = append(keys, k)
		}
		for k := range mb {
			if _, ok := ma[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if d := firstDiff(p, ma[k], mb[k]); d != "" {
				return d
			}
		}
		return ""
	}
	va, _ := json.Marshal(a)
	vb, _ := json.Marshal(b)
	if bytes.Equal(va, vb) {
		return ""
	}
	return fmt.Sprintf("%s is %s in one and %s in the other", path, shortJSON(va), shortJSON(vb))
}

// shortJSON shortens a JSON value to at most 60 bytes, marking the cut.
func shortJSON(v []byte) string {
	const most = 60
	if len(v) <= most {
		return string(v)
	}
	n := most - 3
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return string(v[:n]) + "…"
}

// NewSuite groups runs into cells by their settings. The varied settings
// are those that differ between runs; cells keep the order in which their
// first run appears; runs keep their order within a cell. All runs must be
// of the same workload, but for a scenario's variants (Plan.Variant),
// which contrast workloads by design: runs of one variant are of one
// workload. The baseline is the first cell unless baseline
// (settings or values, see Select) picks another. The suite is a matrix;
// a caller building another shape sets Shape (and Reference).
func NewSuite(command, order string, runs []*Result, baseline string) (*Suite, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("no runs")
	}
	firstOf := map[string]*Result{}
	for _, r := range runs {
		if r.Plan.Scenario != runs[0].Plan.Scenario {
			return nil, fmt.Errorf("different workloads: runs of scenario %q and of %q", runs[0].Plan.Scenario, r.Plan.Scenario)
		}
		first, ok := firstOf[r.Plan.Variant]
		if !ok {
			firstOf[r.Plan.Variant] = r
			continue
		}
		if err := SameWorkload(first, r); err != nil {
			return nil, err
		}
	}
	if err := distinctRuns(runs); err != nil {
		return nil, err
	}
	all := make([]Settings, len(runs))
	for i, r := range runs {
		all[i] = RunSettings(r)
	}
	varied := variedNames(all)
	s := &Suite{SchemaVersion: SchemaVersion, Kind: SuiteKind, Command: command, Varied: varied, Order: order}
	index := map[string]int{}
	for i, r := range runs {
		cs := Settings{}
		for _, name := range varied {
			v, _ := all[i].Get(name)
			cs = append(cs, Setting{name, v})
		}
		key := cs.String()
		ci, ok := index[key]
		if !ok {
			ci = len(s.Cells)
			index[key] = ci
			s.Cells = append(s.Cells, Cell{Settings: cs})
		}
		s.Cells[ci].Runs = append(s.Cells[ci].Runs, r)
	}
	s.Shape = ShapeMatrix
	s.Baseline = s.Cells[0].Settings
	if baseline != "" {
		matches, err := s.Select(baseline)
		if err != nil {
			return nil, fmt.Errorf("--baseline: %w", err)
		}
		if len(matches) != 1 {
			return nil, fmt.Errorf("--baseline %q matches %d cells (want exactly one; name more settings, such as journal=wal,sync=full)", baseline, len(matches))
		}
		s.Baseline = s.Cells[matches[0]].Settings
	}
	return s, nil
}

// variedNames returns the names of the settings that vary between runs,
// in order of first appearance: those two runs that both have give
// different values. A setting only some runs have, with one value
// wherever it is (an engine's own option, such as bbolt-batch, or the
// journal of a matrix of SQLite and other engines), is no axis of the
// matrix: the engine's rows say it (Suite.Fixed). It varies only where
// the cells could not be told apart without it.
func variedNames(all []Settings) []string {
	var names []string
	for _, a := range all {
		for _, st := range a {
			if !slices.Contains(names, st.Name) {
				names = append(names, st.Name)
			}
		}
	}
	varied := []string{}
	var partial []string
	for _, name := range names {
		values := map[string]bool{}
		missing := false
		for _, a := range all {
			if v, ok := a.Get(name); ok {
				values[v] = true
			} else {
				missing = true
			}
		}
		switch {
		case len(values) > 1:
			varied = append(varied, name)
		case missing:
			partial = append(partial, name)
		}
	}
	for _, name := range partial {
		if !apartWithout(all, varied, name) {
			varied = append(varied, name)
		}
	}
	out := []string{} // in the order of first appearance
	for _, name := range names {
		if slices.Contains(varied, name) {
			out = append(out, name)
		}
	}
	return out
}

// apartWithout reports whether runs that agree on every setting in
// varied also agree on having name: whether the cells stay apart
// without it.
func apartWithout(all []Settings, varied []string, name string) bool {
	has := map[string]bool{}
	for _, a := range all {
		key := a.Only(varied).String()
		_, ok := a.Get(name)
		if prev, seen := has[key]; seen && prev != ok {
			return false
		}
		has[key] = ok
	}
	return true
}

// ErrDuplicateRun marks a run given more than once: as a repeat of itself
// it would pass for independent evidence.
var ErrDuplicateRun = errors.New("the same run is given twice")

// distinctRuns refuses runs of which two are one run: the same start, the
// same plan and the same worker processes.
func distinctRuns(runs []*Result) error {
	seen := map[string]int{}
	for i, r := range runs {
		id := runIdentity(r)
		if j, ok := seen[id]; ok {
			return fmt.Errorf("%w (runs %d and %d both started %s with the same plan and worker processes): a run counted twice would pass for two independent repeats", ErrDuplicateRun, j+1, i+1, r.StartedAt.Format(time.RFC3339Nano))
		}
		seen[id] = i
	}
	return nil
}

// runIdentity is what makes a run this run and no other: its start, its
// plan and the processes of its workers.
func runIdentity(r *Result) string {
	plan, _ := json.Marshal(r.Plan) // plain data: cannot fail
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%s", r.StartedAt.UnixNano(), plan)
	for _, ph := range r.Phases {
		for _, w := range ph.Workers {
			fmt.Fprintf(&b, "|%d:%d", w.ID, w.PID)
		}
	}
	return b.String()
}

// Select returns the indices of the cells a selector picks. A selector is
// a comma-separated list of name=value pairs, or of bare values, each
// matching whichever varied setting has that value: "wal", "journal=wal",
// "wal,procs=25".
func (s *Suite) Select(selector string) ([]int, error) {
	var want Settings
	for part := range strings.SplitSeq(selector, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if name, val, ok := strings.Cut(part, "="); ok {
			if !slices.Contains(s.selectable(), name) {
				return nil, fmt.Errorf("%q is not a varied setting (varied: %s)", name, strings.Join(s.Varied, ", "))
			}
			want = append(want, Setting{name, val})
			continue
		}
		var found []string
		for _, name := range s.selectable() {
			for _, c := range s.Cells {
				if v, _ := cellSettings(c).Get(name); v == part && !slices.Contains(found, name) {
					found = append(found, name)
				}
			}
		}
		switch len(found) {
		case 0:
			return nil, fmt.Errorf("no cell has a setting of value %q (cells: %s)", part, s.cellList())
		case 1:
			want = append(want, Setting{found[0], part})
		default:
			return nil, fmt.Errorf("value %q is ambiguous: settings %s all take it; write name=%s", part, strings.Join(found, " and "), part)
		}
	}
	var out []int
	for i, c := range s.Cells {
		if cellSettings(c).matches(want) {
			out = append(out, i)
		}
	}
	return out, nil
}

func (s Settings) matches(want Settings) bool {
	for _, w := range want {
		if v, _ := s.Get(w.Name); v != w.Value {
			return false
		}
	}
	return true
}

// cellSettings returns every setting of a cell's first run, the varied
// ones as the cell holds them: what a selector is matched against.
func cellSettings(c Cell) Settings {
	if len(c.Runs) == 0 || c.Runs[0] == nil {
		return c.Settings
	}
	all := slices.Clone(c.Settings)
	for _, st := range RunSettings(c.Runs[0]) {
		if _, ok := c.Settings.Get(st.Name); !ok {
			all = append(all, st)
		}
	}
	return all
}

// selectable returns the names a selector may name: the varied settings,
// then the options only some engines of the suite have (see Fixed).
func (s *Suite) selectable() []string {
	names := slices.Clone(s.Varied)
	for _, o := range s.fixedOwn() {
		for _, st := range o.Settings {
			if !slices.Contains(names, st.Name) {
				names = append(names, st.Name)
			}
		}
	}
	return names
}

// Options is the settings that some of a suite's drivers have and the
// others do not, each with one value wherever it is, such as SQLite's
// journal=wal or bbolt's bbolt-freelist=array: no axis of the matrix,
// but what the rows of those drivers ran with.
type Options struct {
	Drivers  []string
	Settings Settings
}

// String returns "mattn, modernc: journal=wal,busy-timeout=5s".
func (o Options) String() string {
	return strings.Join(o.Drivers, ", ") + ": " + o.Settings.String()
}

// Fixed returns what the suite held fixed: the settings every cell has,
// with one value, and is not varied along (common), and, per group of
// drivers that share them, the settings only some cells have (own), in
// the order of the cells.
func (s *Suite) Fixed() (common Settings, own []Options) {
	if len(s.Cells) == 0 || len(s.Cells[0].Runs) == 0 {
		return nil, nil
	}
	for _, st := range RunSettings(s.Cells[0].Runs[0]) {
		if !slices.Contains(s.Varied, st.Name) && s.everyCellHas(st.Name) {
			common = append(common, st)
		}
	}
	return common, s.fixedOwn()
}

// everyCellHas reports whether every cell's first run has the setting.
func (s *Suite) everyCellHas(name string) bool {
	for _, c := range s.Cells {
		if _, ok := cellSettings(c).Get(name); !ok {
			return false
		}
	}
	return true
}

// fixedOwn returns the own options of Fixed.
func (s *Suite) fixedOwn() []Options {
	var own []Options
	for _, c := range s.Cells {
		all := cellSettings(c)
		var mine Settings
		for _, st := range all {
			if !slices.Contains(s.Varied, st.Name) && !s.everyCellHas(st.Name) {
				mine = append(mine, st)
			}
		}
		if len(mine) == 0 {
			continue
		}
		driver, _ := all.Get("driver")
		i := slices.IndexFunc(own, func(o Options) bool { return o.Settings.String() == mine.String() })
		switch {
		case i < 0:
			own = append(own, Options{Drivers: []string{driver}, Settings: mine})
		case !slices.Contains(own[i].Drivers, driver):
			own[i].Drivers = append(own[i].Drivers, driver)
		}
	}
	return own
}

func (s *Suite) cellList() string {
	names := make([]string, len(s.Cells))
	for i, c := range s.Cells {
		names[i] = c.Settings.String()
	}
	return strings.Join(names, "; ")
}

// Write encodes the suite as indented JSON.
func (s *Suite) Write(w io.Writer) error { return writeIndented(w, s) }

// ReadSuite decodes a result file: a suite, or a single run's result,
// which becomes a suite of one cell. Every run is checked as Read checks
// a result, and the file is bounded as Read bounds it.
func ReadSuite(rd io.Reader) (*Suite, error) {
	data, err := readFile(rd)
	if err != nil {
		return nil, err
	}
	return decodeSuite(data)
}

// decodeSuite is ReadSuite of a file's bytes.
func decodeSuite(data []byte) (*Suite, error) {
	var probe struct {
		SchemaVersion *int              `json:"schema_version"`
		Kind          string            `json:"kind"`
		Suites        []json.RawMessage `json:"suites"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("decoding result: %w", err)
	}
	if probe.Kind == BookKind {
		return nil, fmt.Errorf("a book of %d suites (gobench scenario run with several scenarios): gobench report reads it whole; this wants one suite", len(probe.Suites))
	}
	if err := notRunOrSuite(probe.Kind, probe.SchemaVersion != nil); err != nil {
		return nil, err
	}
	if probe.Kind != SuiteKind {
		r, err := Read(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		out, err := NewSuite(r.Command, "single", []*Result{r}, "")
		if err == nil {
			out.Shape = shapeOr(r.Shape, r.Command)
		}
		return out, err
	}
	var s Suite
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("decoding suite: %w", err)
	}
	if s.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("suite schema version %d is not supported (this gobench reads version %d)", s.SchemaVersion, SchemaVersion)
	}
	var runs []*Result
	for ci, c := range s.Cells {
		if len(c.Runs) == 0 {
			return nil, fmt.Errorf("cell %s has no runs", c.Settings)
		}
		for ri, r := range c.Runs {
			if r == nil {
				return nil, fmt.Errorf("cell %d run %d is empty", ci, ri)
			}
			if err := r.check(); err != nil {
				return nil, fmt.Errorf("cell %s run %d: %w", c.Settings, ri+1, err)
			}
			r.fillPartialSeconds()
			runs = append(runs, r)
		}
	}
	// Rebuild the cells from the runs themselves, so a hand-edited file
	// cannot claim settings its runs do not have.
	baseline := ""
	if len(s.Baseline) > 0 {
		baseline = s.Baseline.String()
	}
	out, err := NewSuite(s.Command, s.Order, runs, baseline)
	if err != nil {
		return nil, err
	}
	out.Gates = s.Gates // the verdicts as the run gave them
	out.Scenario, out.Shard, out.Missing = s.Scenario, s.Shard, s.Missing
	out.Shape, out.Reference = shapeOr(s.Shape, s.Command), s.Reference
	fillLegacy(out)
	return out, nil
}

// CellErrors returns the data ops that failed in the cell's runs, by
// class, summed over their first phase: the one figures read.
func CellErrors(c Cell) Errors {
	var e Errors
	for _, r := range c.Runs {
		if len(r.Phases) > 0 {
			e.Add(r.Phases[0].Total.Errors)
		}
	}
	return e
}

// otherKinds names the result files of a kind that is neither a run nor
// a suite, which a reader of runs refuses by name.
var otherKinds = map[string]string{
	ChoiceKind:   "gobench choose's answer",
	KindCapacity: "a capacity search's result",
	KindScale:    "a scale search's result",
}

// notRunOrSuite refuses, saying what it is, a file of another kind than a
// run or a suite (a choice, a capacity or scale search), or one without a
// schema version (gobench compare's or ab's JSON verdict, any other JSON):
// a bare "plan is invalid" or "schema version 0" would not tell the user
// which file they gave.
func notRunOrSuite(kind string, versioned bool) error {
	if what, ok := otherKinds[kind]; ok {
		return fmt.Errorf("%w of a run or a suite: it is %s (kind %q; gobench report renders it)", ErrNotResult, what, kind)
	}
	if !versioned {
		return fmt.Errorf("%w: it has no schema_version (gobench compare's and ab's JSON are verdicts, not results)", ErrNotResult)
	}
	return nil
}
