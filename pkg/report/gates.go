package report

import (
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

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
		w.printf("| %s | `%s` | %s | %s | %s |\n", verdict, g.Expression, mdEscape(cell), mdEscape(judge.GateFigures(g)), g.Statistic)
	}
}
