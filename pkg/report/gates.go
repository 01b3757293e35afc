package report

import "github.com/gobench/gobench/pkg/result"

// gatesText writes the verdict of every gate, one line each.
func gatesText(w *errWriter, gates []result.Gate) {
	if len(gates) == 0 {
		return
	}
	w.printf("\ngates: %d of %d passed\n", len(gates)-result.GatesFailed(gates), len(gates))
	for _, g := range gates {
		w.printf("  %s\n", g.Verdict)
	}
}

// gatesMarkdown writes the gates as a markdown table: verdict, gate,
// cell, figures and the statistic compared.
func gatesMarkdown(w *errWriter, gates []result.Gate) {
	if len(gates) == 0 {
		return
	}
	w.printf("\n**Gates: %d of %d passed**\n\n| verdict | gate | cell | figures | compared |\n|---|---|---|---|---|\n", len(gates)-result.GatesFailed(gates), len(gates))
	for _, g := range gates {
		verdict := "pass"
		if !g.Pass {
			verdict = "**FAIL**"
		}
		cell := g.Cell
		if g.Against != "" {
			cell += " vs " + g.Against
		}
		w.printf("| %s | `%s` | %s | %s | %s |\n", verdict, g.Expression, mdEscape(cell), mdEscape(gateFigures(g)), g.Statistic)
	}
}

// gateFigures says what a gate read: the cell's figure, or both cells'
// and their ratio.
func gateFigures(g result.Gate) string {
	switch {
	case g.NoFigure:
		return "no figure to compare"
	case g.Against == "":
		return g.Cell + " " + formatIn(g.Unit, g.Value)
	}
	return g.Cell + " " + formatIn(g.Unit, g.Value) + " / " + g.Against + " " + formatIn(g.Unit, g.Other) + " = ×" + sig3(g.Ratio)
}

// gateVerdict is a gate's line: whether it held, the gate, the figures
// and the statistic compared.
func gateVerdict(g result.Gate) string {
	verdict := "passed"
	if !g.Pass {
		verdict = "FAILED"
	}
	return "gate " + verdict + ": " + g.Expression + ": " + gateFigures(g) + " (" + g.Statistic + ")"
}

// formatIn renders a value in a gate's unit (see Metric.Unit).
func formatIn(unit string, v float64) string {
	switch unit {
	case "ops/s":
		return Rate(v) + " ops/s"
	case "µs":
		return Micros(v)
	case "µs of CPU per op":
		return Micros(v) + " CPU/op"
	}
	return sig3(v) + "%"
}
