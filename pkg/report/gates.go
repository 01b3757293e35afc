package report

import (
	"slices"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// gateRow is one gate as the markdown and HTML reports show it.
type gateRow struct {
	Outcome  string // result.OutcomePass, …
	Word     string // "pass", "FAIL", "INCONCLUSIVE"
	Mark     string // a coloured mark for markdown
	Gate     string
	Cell     string
	Figures  string
	Interval string
	Compared string
	Why      string
}

// outcomeOrder ranks outcomes as reports list them: what failed first,
// then what could not decide, then what passed.
var outcomeOrder = map[string]int{result.OutcomeFail: 0, result.OutcomeInconclusive: 1, result.OutcomePass: 2}

// sortedGates returns the gates in report order (outcomeOrder), each
// outcome's in their own order.
func sortedGates(gates []result.Gate) []result.Gate {
	out := slices.Clone(gates)
	slices.SortStableFunc(out, func(a, b result.Gate) int { return outcomeOrder[a.OutcomeOf()] - outcomeOrder[b.OutcomeOf()] })
	return out
}

// gateRows are the gates in report order, ready to show.
func gateRows(gates []result.Gate) []gateRow {
	var rows []gateRow
	for _, g := range sortedGates(gates) {
		r := gateRow{Outcome: g.OutcomeOf(), Gate: g.Expression, Cell: g.Cell, Figures: judge.GateFigures(g),
			Interval: judge.GateInterval(g), Compared: g.Statistic, Why: g.Why}
		if g.Against != "" {
			r.Cell += " vs " + g.Against
		}
		switch r.Outcome {
		case result.OutcomePass:
			r.Word, r.Mark = "pass", "🟢"
		case result.OutcomeInconclusive:
			r.Word, r.Mark = "INCONCLUSIVE", "🟡"
		default:
			r.Word, r.Mark = "FAIL", "🔴"
		}
		rows = append(rows, r)
	}
	return rows
}

// gatesText writes the verdict of every gate, one line each, what
// failed first.
func gatesText(w *errWriter, gates []result.Gate) {
	if len(gates) == 0 {
		return
	}
	w.printf("\n%s\n", judge.GatesSummary(gates))
	for _, g := range sortedGates(gates) {
		w.printf("  %s\n", g.Verdict)
	}
}

// gatesMarkdown writes the gates as a markdown table, what failed first,
// each verdict with a coloured mark and its interval, and for one that
// could not decide, why and what would.
func gatesMarkdown(w *errWriter, gates []result.Gate) {
	if len(gates) == 0 {
		return
	}
	w.printf("**gobench · %s**\n\n| verdict | gate | cell | figures | interval | compared | why |\n|---|---|---|---|---|---|---|\n", judge.GatesSummary(gates))
	for _, r := range gateRows(gates) {
		word := trusted("**" + mdEscape(r.Word) + "**")
		if r.Outcome == result.OutcomePass {
			word = trusted(mdEscape(r.Word))
		}
		w.printf("| %s %s | %s | %s | %s | %s | %s | %s |\n", r.Mark, word, mdCode(r.Gate), r.Cell, r.Figures, orDash(r.Interval), r.Compared, r.Why)
	}
	w.printf("\n")
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// gatesHTML is the gates' section of an HTML report: a table, what
// failed first, each verdict on its colour.
const gatesHTML = `{{define "gates"}}{{if .}}<section class="gates">
<h2>{{.Summary}}</h2>
<div class="scroll"><table>
<tr><th>verdict</th><th>gate</th><th>cell</th><th>figures</th><th>interval</th><th>compared</th><th>why, and what would decide it</th></tr>
{{range .Rows}}<tr class="{{.Outcome}}"><td><span class="verdict {{.Outcome}}">{{.Word}}</span></td><td><code>{{.Gate}}</code></td><td>{{.Cell}}</td><td>{{.Figures}}</td><td>{{.Interval}}</td><td>{{.Compared}}</td><td>{{.Why}}</td></tr>
{{end}}</table></div>
</section>
{{end}}{{end}}`

// gatesView is what gatesHTML shows; nil without gates.
type gatesView struct {
	Summary string
	Rows    []gateRow
}

func newGatesView(gates []result.Gate) *gatesView {
	if len(gates) == 0 {
		return nil
	}
	return &gatesView{Summary: judge.GatesSummary(gates), Rows: gateRows(gates)}
}
