package layering

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/cli"
	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/workload"
)

// The recipes of ARCHITECTURE.md ("where each kind of change goes"), each
// made once here with a fake: what the recipe says to write is all it
// takes for the new thing to appear everywhere it must.

// A new figure is its compute function and one row of judge.Figures:
// gates parse, check and judge it, comparisons and suite tables list it,
// and a run's text report shows it.
func TestRecipeFigure(t *testing.T) {
	saved := judge.Figures
	t.Cleanup(func() { judge.Figures = saved })
	judge.Figures = append(slices.Clone(saved), &judge.Figure{
		Name: "upsert share", Doc: "upserts per hundred data ops", Unit: "upserts per 100 ops", Higher: true,
		Scale: judge.Number, Line: true,
		Read: func(r *result.Result, _ string) (float64, bool) {
			o, ok := r.Phases[0].Op("upsert")
			if !ok || r.Phases[0].Total.Count == 0 {
				return 0, false
			}
			return 100 * float64(o.Count) / float64(r.Phases[0].Total.Count), true
		},
		Format: func(v float64) string { return fmt.Sprintf("%.2f", v) },
		Tag:    func(v float64) string { return fmt.Sprintf("%.2f upserts per 100 ops", v) },
	})
	oldSuite, suite := readSuite(t, "compare-aa-old.json"), readSuite(t, "compare-aa-new.json")
	new := suite.Cells[0].Runs[0]

	// Gates: parsed, checked against the plan, judged.
	e, err := judge.ParseExpectation("upsert share >= 1")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(suite); err != nil {
		t.Fatal(err)
	}
	gates, err := judge.Evaluate(suite, []judge.Expectation{e})
	if err != nil || len(gates) != 1 || gates[0].Unit != "upserts per 100 ops" || gates[0].Value <= 1 {
		t.Fatalf("the gate on the new figure: %+v, %v", gates, err)
	}

	// Comparisons and suite tables: among the default figures.
	if !slices.Contains(judge.DefaultMetrics(suite), judge.Metric{Kind: "upsert", Stat: "share"}) {
		t.Errorf("the default figures lack the new one: %v", judge.DefaultMetrics(suite))
	}
	c, err := judge.Compare("old", oldSuite, "new", suite, judge.DefaultMetrics(suite), judge.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(c.Rows, func(r judge.ComparisonRow) bool { return r.Metric.String() == "upsert share" }) {
		t.Error("compare does not list the new figure")
	}

	// The run's text report.
	if out := render(t, "text", new); !strings.Contains(out, "figures: upsert share ") {
		t.Errorf("the run's text report does not show the new figure:\n%s", out)
	}
}

// A new op source is one file of the plan-data package: its ops run
// through the worker, its kinds are what gates check a plan against, and
// the report names what it dealt and every kind it produced.
func TestRecipeSource(t *testing.T) {
	p := workload.DefaultPlan()
	p.Mode, p.Procs, p.Goroutines, p.Preload = workload.ModeGoroutine, 1, 2, 0
	p.Phases[0].Ops = 500
	p.Custom = pairSource{}
	res, err := bench.Run(context.Background(), p, mapstore.Driver{})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"insert", "read"} {
		o, ok := res.Phases[0].Op(kind)
		if !ok || o.Count != 500 || o.Errors.Total != 0 || o.NotFound != 0 {
			t.Errorf("%s: %+v (want 500 ops, each finding its key)", kind, o)
		}
	}
	res.Plan.Custom = p.Custom // the plan a result carries is data; a report of this process has the source
	out := render(t, "text", res)
	for _, want := range []string{"pairs of an insert and a read of it", "\n  insert ", "\n    read "} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	suite, err := result.NewSuite("mix", "", []*result.Result{res}, "")
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := judge.ParseExpectation("insert p99 <= 1h"); e.Validate(suite) != nil {
		t.Errorf("a gate on a kind the source deals is refused: %v", e.Validate(suite))
	}
	e, _ := judge.ParseExpectation("upsert p99 <= 1h")
	if err := e.Validate(suite); err == nil || !strings.Contains(err.Error(), "its ops: read, insert") {
		t.Errorf("a gate on a kind the source never deals: %v (want a refusal naming the kinds it deals)", err)
	}
}

// pairSource deals, to each worker, an insert of a fresh key then a read
// of it, over and over: a source of ops no built-in deals.
type pairSource struct{}

func (pairSource) Name() string { return "pairs" }
func (pairSource) Kinds(*workload.Plan, *workload.Phase) []workload.Op {
	return []workload.Op{workload.OpRead, workload.OpInsert}
}
func (pairSource) Writes(*workload.Plan, *workload.Phase) float64 { return 0.5 }
func (pairSource) Describe(*workload.Plan, bool) string {
	return "pairs of an insert and a read of it"
}
func (pairSource) Brief(*workload.Plan) string { return "pairs" }
func (pairSource) Dealer(p *workload.Plan, run, worker int, _ *deal.Shared) (deal.Dealer, error) {
	return &pairDealer{key: uint64(worker) << 32, value: make([]byte, p.ValueSize)}, nil
}

type pairDealer struct {
	key   uint64
	n     int
	value []byte
}

func (d *pairDealer) Deal(dl *deal.Deal) error {
	*dl = deal.Deal{Op: workload.OpRead, Key: d.key, Value: d.value}
	if d.n%2 == 0 {
		d.key++
		dl.Op, dl.Key, dl.Seq = workload.OpInsert, d.key, uint64(d.n/2)
	}
	d.n++
	return nil
}
func (d *pairDealer) Len() int64           { return 0 }
func (d *pairDealer) Release(uint64) error { return errors.New("pairs claim no keynums") }

// readSuite reads a recorded suite from the repository's testdata.
func readSuite(t *testing.T, name string) *result.Suite {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := result.ReadSuite(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// render renders v in format.
func render(t *testing.T, format string, v any) string {
	t.Helper()
	f, err := report.Render(format, v, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A new engine is its package and one registration line: registered, its
// declared options are flags with their help, shells complete their
// values, a comma list spans cells named by the flag (in JSON and in
// gate selectors), the header names them, and a value outside the
// declared ones exits 2 naming the engine.
func TestRecipeEngine(t *testing.T) {
	reg := all.Registry()
	reg.Register(fakeEngine{}) // the one registration line
	gobench := func(args ...string) (int, string, string) {
		t.Helper()
		t.Setenv("TMPDIR", t.TempDir())
		var stdout, stderr bytes.Buffer
		env := cli.OSEnv()
		env.Stdin, env.Stdout, env.Stderr, env.Notify = strings.NewReader(""), &stdout, &stderr, nil
		env.Registry = reg
		return cli.Main(args, env), stdout.String(), stderr.String()
	}

	// A place in help: the driver among the drivers, its flag with its help.
	code, help, _ := gobench("mix", "--help")
	for _, want := range []string{"badger, bbolt, btree,", " fake,", "--fake-level string", "fake engine: how hard it works (a comma list spans a matrix) (default \"low\")"} {
		if code != 0 || !strings.Contains(help, want) {
			t.Errorf("mix --help (exit %d) lacks %q:\n%s", code, want, help)
		}
	}

	// Completion of the driver and of the option's declared values.
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "mix", "--driver", "fa"}, []string{"fake"}},
		{[]string{"__complete", "ycsb", "run", "a", "--fake-level", ""}, []string{"low", "high"}},
		{[]string{"__complete", "mix", "--fake-level", "low,"}, []string{"low,low", "low,high"}},
	} {
		code, out, _ := gobench(c.args...)
		got := strings.Fields(strings.Split(out, "\n:")[0])
		if code != 0 || !slices.Equal(got, c.want) {
			t.Errorf("%v: %q (exit %d), want %q", c.args, got, code, c.want)
		}
	}

	// A run: the comma list spans two cells named by the flag, which a
	// gate selects; the engine opened each with its own options.
	out := filepath.Join(t.TempDir(), "fake.json")
	code, stdout, stderr := gobench("mix", "--driver", "fake", "--fake-level", "low,high", "--procs", "2", "--queries", "50",
		"--expect", "fake-level=high: total ops/s > 0", "--json", out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	suite, err := result.ReadSuite(f)
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, c := range suite.Cells {
		cells = append(cells, c.Settings.String())
		if level, _ := c.Settings.Get("fake-level"); len(c.Runs) != 1 || c.Runs[0].Environment.StoreFact("fake-level") != level {
			t.Errorf("cell %s: the store described itself as %v", c.Settings, c.Runs[0].Environment.Store)
		}
	}
	if !slices.Equal(cells, []string{"fake-level=low", "fake-level=high"}) || len(suite.Gates) != 1 || !suite.Gates[0].Pass {
		t.Errorf("cells %q, gates %+v", cells, suite.Gates)
	}
	for _, want := range []string{"varied: fake-level", "common: driver=fake mode=goroutine"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}

	// A value it does not declare: exit 2, naming the engine and its values.
	code, _, stderr = gobench("mix", "--driver", "fake", "--fake-level", "medium", "--queries", "10")
	if code != 2 || !strings.Contains(stderr, "the fake engine: --fake-level medium: want low or high") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// fakeEngine is a new engine as the recipe makes one: a driver (here the
// map engine's, renamed) whose options are one declared struct.
type fakeEngine struct{ mapstore.Driver }

func (fakeEngine) Name() string               { return "fake" }
func (fakeEngine) Options() store.Declaration { return fakeDeclared }

// Open decodes the cell's options and opens a map that describes them.
func (fakeEngine) Open(ctx context.Context, cfg store.Config) (store.Store, error) {
	o, err := fakeDeclared.Decode(cfg.Options)
	if err != nil {
		return nil, err
	}
	s, err := mapstore.Driver{}.Open(ctx, store.Config{Table: cfg.Table})
	return fakeStore{s, o}, err
}

// fakeOptions are the fake engine's options.
type fakeOptions struct {
	Level string `json:"level" flag:"fake-level" values:"low,high" help:"fake engine: how hard it works"`
}

func (fakeOptions) Validate() error { return nil }

var fakeDeclared = store.Declare("the fake engine", func() fakeOptions { return fakeOptions{Level: "low"} })

// fakeStore is a map that describes its options.
type fakeStore struct {
	store.Store
	o fakeOptions
}

func (s fakeStore) Describe(context.Context) ([]store.Fact, error) {
	return append([]store.Fact{{Name: "driver", Value: "fake"}}, fakeDeclared.Facts(s.o)...), nil
}
