package result

// Gate is the verdict of one gate (an --expect) on a run or a suite: the
// figures it compared and whether it held. A gate that compares two cells
// (relative) holds when Ratio = Value / Other meets Op Threshold; an
// absolute gate when Value does.
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
	Pass      bool    `json:"pass"`
	// NoFigure says a cell had no such figure (the op kind never ran):
	// the gate fails.
	NoFigure bool `json:"no_figure,omitempty"`
	// Verdict is the gate's line as gobench printed it.
	Verdict string `json:"verdict"`
}

// GatesFailed counts the gates that did not hold.
func GatesFailed(gates []Gate) int {
	n := 0
	for _, g := range gates {
		if !g.Pass {
			n++
		}
	}
	return n
}
