package result

import (
	"bytes"
	"encoding/json"
)

// Gate is the verdict of one gate (an --expect) on a run or a suite: the
// figures it compared, the interval it read and its outcome. A gate that
// compares two cells (relative) reads Ratio = Value / Other against Op
// Threshold; an absolute gate reads Value.
type Gate struct {
	// Expression is the gate as written.
	Expression string `json:"expression"`
	// Cell is the settings of the cell read; Against, for a relative
	// gate, those of the cell compared with.
	Cell    string `json:"cell"`
	Against string `json:"against,omitempty"`
	// Statistic says which figure of the cell's repeats was compared,
	// such as "median of 3 runs".
	Statistic string `json:"statistic"`
	// Value and Other are the cells' figures, in Unit.
	Value float64 `json:"value"`
	Other float64 `json:"other,omitempty"`
	Ratio float64 `json:"ratio,omitempty"`
	Unit  string  `json:"unit"`
	// Op and Threshold are the condition: ">=", ">", "<=" or "<", and the
	// factor (relative) or the limit in Unit (absolute).
	Op        string  `json:"op"`
	Threshold float64 `json:"threshold"`
	// Outcome is the verdict: OutcomePass, OutcomeFail or
	// OutcomeInconclusive. Pass is Outcome == OutcomePass (results
	// written before gates had three outcomes have Pass alone).
	Outcome string `json:"outcome,omitempty"`
	Pass    bool   `json:"pass"`
	// Low and High bound what the verdict read (the ratio for a relative
	// gate, the value for an absolute one), at Confidence; a Confidence
	// of 0 with Low and High set marks the runs' own range, too few runs
	// for an interval. Both are zero when no interval was read.
	Low        float64 `json:"low,omitempty"`
	High       float64 `json:"high,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Estimate is, for a relative gate read on the interval of the ratio
	// over repeats, the Hodges-Lehmann estimate of the ratio that
	// interval is built around (the median of every ratio of a run of
	// one cell to a run of the other), which may differ from Ratio, the
	// ratio of the medians; 0 otherwise.
	Estimate float64 `json:"estimate,omitempty"`
	// Unbounded says no value bounds the figure from above at Confidence
	// (High is then 0): too few ops for an order statistic above a tail
	// percentile.
	Unbounded bool `json:"unbounded,omitempty"`
	// Why says what made the verdict inconclusive and what would make it
	// conclusive ("needs ≥ 1,000 upsert ops a run: raise --queries to
	// 20000, or gate p90").
	Why string `json:"why,omitempty"`
	// Unsteady says a run the gate read had no steady state (--warmup
	// auto found none): the figure may still have been moving.
	Unsteady bool `json:"unsteady,omitempty"`
	// NoFigure says a cell had no such figure (the op kind never ran).
	NoFigure bool `json:"no_figure,omitempty"`
	// Verdict is the gate's line as gobench printed it.
	Verdict string `json:"verdict"`
}

// The outcomes of a gate.
const (
	OutcomePass         = "pass"
	OutcomeFail         = "fail"
	OutcomeInconclusive = "inconclusive"
)

// OutcomeOf returns the gate's outcome, reading Pass for a gate recorded
// before gates had three.
func (g Gate) OutcomeOf() string {
	switch {
	case g.Outcome != "":
		return g.Outcome
	case g.Pass:
		return OutcomePass
	}
	return OutcomeFail
}

// GatesFailed counts the gates that failed.
func GatesFailed(gates []Gate) int { return countOutcome(gates, OutcomeFail) }

// GatesInconclusive counts the gates whose data could not tell.
func GatesInconclusive(gates []Gate) int { return countOutcome(gates, OutcomeInconclusive) }

func countOutcome(gates []Gate, outcome string) int {
	n := 0
	for _, g := range gates {
		if g.OutcomeOf() == outcome {
			n++
		}
	}
	return n
}

// MarshalJSON writes the gate, with value, other and ratio null where a
// cell had no figure (NoFigure): a verdict nothing could decide read no
// zero.
func (g Gate) MarshalJSON() ([]byte, error) {
	type plain Gate
	if !g.NoFigure {
		return marshalReadable(plain(g))
	}
	return marshalReadable(struct {
		plain
		Value *float64 `json:"value"`
		Other *float64 `json:"other,omitempty"`
		Ratio *float64 `json:"ratio,omitempty"`
	}{plain: plain(g)})
}

// marshalReadable is json.Marshal without HTML escaping, for the
// MarshalJSON methods of values inside a result: json.Marshal would write
// a gate's ">=" as "\u003e=", which the result's own encoder leaves
// readable everywhere else.
func marshalReadable(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
