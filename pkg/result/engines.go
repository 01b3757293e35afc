package result

import (
	"encoding/json"

	"github.com/gobench/gobench/pkg/store"
)

// Engines fills in what results written before engines named their
// options by their flags (store.Declarer) and summed up their facts
// (store.Summarizer) lack; a store.Registry is one.
type Engines interface {
	NameOptions(driver string, options json.RawMessage) ([]store.Setting, error)
	Summarize(driver string, facts []store.Fact) []store.Fact
}

// Name fills the run's named settings and summary facts from eng where
// the run lacks them; a run of a driver eng does not know stays as it is.
func (r *Result) Name(eng Engines) {
	p := &r.Plan
	if len(p.Store.Settings) == 0 && len(p.Store.Options) > 0 {
		if s, err := eng.NameOptions(p.Driver, p.Store.Options); err == nil {
			p.Store.Settings = s
		}
	}
	r.Environment.Store = eng.Summarize(p.Driver, r.Environment.Store)
}

// Named names every run of the suite in place (Result.Name) and returns
// the suite with its cells grouped anew by the names: the same cells, the
// same baseline, under the settings' names of today. A suite of runs
// that were all named already regroups as it was.
func (s *Suite) Named(eng Engines) (*Suite, error) {
	base := -1
	var runs []*Result
	for i, c := range s.Cells {
		if c.Settings.String() == s.Baseline.String() {
			base = i
		}
		for _, r := range c.Runs {
			r.Name(eng)
			runs = append(runs, r)
		}
	}
	out, err := NewSuite(s.Command, s.Order, runs, "")
	if err != nil {
		return nil, err
	}
	if base >= 0 && base < len(out.Cells) {
		out.Baseline = out.Cells[base].Settings
	}
	out.Shape, out.Reference, out.Gates = s.Shape, s.Reference, s.Gates
	out.Shard, out.Missing = s.Shard, s.Missing
	return out, nil
}
