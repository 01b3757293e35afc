package judge

import (
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

// GateInterval says what range a verdict read, labelled with its true
// confidence: "90% interval 181µs–240µs", "Hodges-Lehmann ×1.55, 90.5%
// interval ×1.41–×1.72" (a relative gate: the estimate the interval is
// built around), "the runs' range 181µs–240µs" (too few runs for an
// interval); "" when it read none (one run, or no figure).
func GateInterval(g result.Gate) string {
	if (g.Low == 0 && g.High == 0 || g.Low == g.High) && !g.Unbounded {
		return ""
	}
	format := func(v float64) string { return formatIn(g.Unit, v) }
	if g.Against != "" {
		format = func(v float64) string { return "×" + units.Sig3(v) }
	}
	if g.Confidence == 0 {
		return "the runs' range " + intervalSpan(g, format)
	}
	iv := ConfidenceLabel(g.Confidence) + "% interval " + intervalSpan(g, format)
	if g.Estimate != 0 && g.Against != "" {
		// The interval's own centre, not the ratio of medians beside it.
		iv = "Hodges-Lehmann ×" + units.Sig3(g.Estimate) + ", " + iv
	}
	return iv
}

// intervalSpan is "lo–hi" in the gate's unit ("lo–∞" with no upper end).
func intervalSpan(g result.Gate, format func(float64) string) string {
	if g.Unbounded {
		return format(g.Low) + "–∞"
	}
	return format(g.Low) + "–" + format(g.High)
}

// OutcomeWord is how a line names an outcome: "passed", "FAILED",
// "INCONCLUSIVE".
func OutcomeWord(outcome string) string {
	switch outcome {
	case result.OutcomePass:
		return "passed"
	case result.OutcomeInconclusive:
		return "INCONCLUSIVE"
	}
	return "FAILED"
}

// gateVerdict is a gate's line: its outcome, the gate, the figures, the
// interval read and the statistic; for an inconclusive gate, why, and
// what would decide it.
func gateVerdict(g result.Gate) string {
	s := "gate " + OutcomeWord(g.OutcomeOf()) + ": " + g.Expression + ": " + GateFigures(g)
	if iv := GateInterval(g); iv != "" {
		s += ", " + iv
	}
	s += " (" + g.Statistic + ")"
	if g.Why != "" {
		s += ": " + g.Why
	}
	if g.Unsteady {
		s += " · decided on a run with no steady state"
	}
	return s
}

// formatIn renders a value in a gate's unit (see Metric.Unit), with the
// unit, as its figure's row tags it.
func formatIn(unit string, v float64) string {
	if f := figureOfUnit(unit); f != nil {
		return f.Tag(v)
	}
	return units.Sig3(v) + " " + unit
}
