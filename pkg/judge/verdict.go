package judge

import (
	"math"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// GateFigures says what a gate read: the cell's figure, or both cells'
// and their ratio.
func GateFigures(g result.Gate) string {
	switch {
	case g.NoFigure:
		return "no figure to compare"
	case g.Against == "":
		return g.Cell + " " + formatIn(g.Unit, g.Value)
	}
	return g.Cell + " " + formatIn(g.Unit, g.Value) + " / " + g.Against + " " + formatIn(g.Unit, g.Other) + " = ×" + units.Sig3(g.Ratio)
}

// gateVerdict is a gate's line: whether it held, the gate, the figures
// and the statistic compared.
func gateVerdict(g result.Gate) string {
	verdict := "passed"
	if !g.Pass {
		verdict = "FAILED"
	}
	return "gate " + verdict + ": " + g.Expression + ": " + GateFigures(g) + " (" + g.Statistic + ")"
}

// formatIn renders a value in a gate's unit (see Metric.Unit).
func formatIn(unit string, v float64) string {
	switch unit {
	case "ops/s":
		return units.Rate(v) + " ops/s"
	case "µs":
		return units.Micros(v)
	case "µs of CPU per op":
		return units.Micros(v) + " CPU/op"
	case unitSyncs:
		return units.Fixed(v, 2) + " syncs/commit"
	case unitBytes:
		return bytesize.Units{}.Round(int64(math.Round(v))) + "/commit"
	case unitLost:
		return Metric{"lost", "acked writes"}.Format(v) + " lost"
	case unitStates:
		return Metric{"corrupt", "states"}.Format(v) + " states"
	}
	return units.Sig3(v) + "%"
}
