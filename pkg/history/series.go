package history

import (
	"context"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// Options says how a series is read and searched.
type Options struct {
	// Detector finds the change points.
	Detector Detector
	// MaxDrift is the largest move of a run's calibration during the run
	// (Calibration.Drift, on the series' basis) that keeps it in the search: a run whose
	// machine changed under it is shown, marked, and left out.
	MaxDrift float64
	// Raw searches the figure as measured, not normalised.
	Raw bool
}

// DefaultOptions are history show's defaults: the default detector, runs
// whose calibration moved by more than 20% left out.
var DefaultOptions = Options{Detector: DefaultDetector, MaxDrift: 0.20}

// Series is one figure of one plan's cell over time: a point per commit
// and the change points found in them.
type Series struct {
	Figure  string          `json:"figure"`
	Unit    string          `json:"unit"`
	Higher  bool            `json:"higher_is_better"`
	Neutral bool            `json:"neutral,omitempty"`
	Plan    string          `json:"plan_hash"`
	Command string          `json:"command"`
	Cell    string          `json:"cell"`
	Setting result.Settings `json:"settings"`
	// Args is the command line of the series' latest run ("mix",
	// "--journal", "wal", …): what history confirm runs by default.
	Args []string `json:"args,omitempty"`
	// Basis is the calibration the values are normalised by; Reference
	// the calibration they are normalised to (the median of the runs').
	Basis     Basis         `json:"basis,omitempty"`
	Reference float64       `json:"reference,omitempty"`
	Points    []Point       `json:"points"`
	Changes   []Change      `json:"changes"`
	Raw       bool          `json:"searched_raw,omitempty"`
	Detector  Detector      `json:"detector"`
	MaxDrift  float64       `json:"max_drift"`
	Excluded  []ExcludedRun `json:"excluded,omitempty"`
}

// ExcludedRun is a run left out of the search, and why.
type ExcludedRun struct {
	RunID  string  `json:"run_id"`
	Commit string  `json:"commit"`
	Drift  float64 `json:"drift"`
}

// Point is one commit's runs of a figure.
type Point struct {
	Commit string     `json:"commit"`
	Branch string     `json:"branch"`
	At     time.Time  `json:"at"`
	Runs   []RunValue `json:"runs"`
	// Raw is the median of the runs' values as measured; Value the
	// median of the kept runs' normalised values (Raw where the series
	// is not normalised), with its interval (judge.MedianInterval from 5
	// runs; below, the runs' range, Confidence 0).
	Raw        float64 `json:"raw"`
	Value      float64 `json:"value"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Confidence float64 `json:"confidence"`
	// Excluded says every run of the commit was left out of the search.
	Excluded bool `json:"excluded,omitempty"`
}

// RunValue is one run of a point.
type RunValue struct {
	RunID      string      `json:"run_id"`
	StartedAt  time.Time   `json:"started_at"`
	Machine    string      `json:"machine,omitempty"`
	Raw        float64     `json:"raw"`
	Normalised float64     `json:"normalised"`
	Cal        Calibration `json:"calibration"`
	Drift      float64     `json:"drift"`
	Excluded   bool        `json:"excluded,omitempty"`
}

// Change is a change point: where the figure stepped, between two
// commits.
type Change struct {
	// Index is the first point after the change; Before and After the
	// commits on either side.
	Index  int    `json:"index"`
	Before string `json:"before"`
	After  string `json:"after"`
	// From and To are the medians of the points on either side (up to
	// the neighbouring change points); Step is To/From - 1.
	From float64 `json:"from"`
	To   float64 `json:"to"`
	Step float64 `json:"step"`
	// P is the permutation test's p.
	P float64 `json:"p"`
	// Ratio is the interval of To/From over the points on either side,
	// at most the 50 nearest each (judge.RatioInterval); RatioOK is false
	// where they are too few.
	Ratio   judge.Interval `json:"ratio"`
	RatioOK bool           `json:"ratio_ok"`
	// Worse says the step is the wrong way (latency up, throughput down).
	Worse bool `json:"worse"`
	// Verdict and Detail are what history confirm recorded of it; "" when
	// it was not confirmed.
	Verdict string `json:"verdict,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

// Show reads the series of q's figure, one per plan and cell, and finds
// each one's change points.
func (s *Store) Show(ctx context.Context, q Query, o Options) ([]*Series, error) {
	m, err := judge.ParseMetric(q.Figure)
	if err != nil {
		return nil, err
	}
	raws, err := s.samples(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]*Series, 0, len(raws))
	for _, rs := range raws {
		sr := build(m, rs, o)
		if err := s.verdicts(ctx, sr); err != nil {
			return nil, err
		}
		out = append(out, sr)
	}
	return out, nil
}
