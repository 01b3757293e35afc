package report

import (
	"html/template"
	"io"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// An HTML page and the template that writes it: its alerts, gates,
// scenario, answers (each a document's table), charts and the whole text
// report folded under them; a book of several pages.

// htmlPage is one page of an HTML report, in the order it shows its parts.
type htmlPage struct {
	Title string
	// Alerts come first, each a line: a run that did not complete, ops
	// that failed, a shard that is not the whole.
	Alerts []string
	// Gates come next: a gate that failed or could not decide is among
	// the first things a reader sees.
	Gates *gatesView
	// Scenario, for a scenario's suite, is its verdict and finding,
	// after the alerts and before the gates.
	Scenario *result.Scenario
	// Notes are lines said once for the whole page, before its answers:
	// each engine's own options, which are no column of its tables.
	Notes []string
	// Answers are the page's answer, after the gates, each a table: what
	// power cuts lost (--crash), a run's figures per op kind, a matrix's
	// cells ranked and each setting against the baseline's value, each
	// cell's sustainable rate.
	Answers []*answer
	// Summary is the whole text report, folded under the charts.
	Summary string
	Charts  []chart
}

// answer is a small table of the page: its caption, its head and its
// rows, and lines of notes under it (a document's table block).
type answer = table

// answers drops the tables that are nil.
func answers(as ...*answer) []*answer {
	var out []*answer
	for _, a := range as {
		if a != nil {
			out = append(out, a)
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("report").Parse(gatesHTML + scenarioHTML + bookHTML + `{{define "head"}}<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gobench">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.4em; }
pre.summary { background: #f6f6f6; padding: 1em; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85em; line-height: 1.35; }
figure.chart { margin: 2em 0; }
figure.chart figcaption { font-weight: 600; margin-bottom: 0.5em; }
figure.chart svg { width: 100%; height: auto; }
section.gates table, section.answer table { border-collapse: collapse; font-size: 0.9em; margin: 1em 0; }
div.scroll { overflow-x: auto; max-width: 100%; }
p.note { font-size: 0.85em; color: #555; overflow-wrap: anywhere; }
p.alert { background: #fdecea; border-left: 0.3em solid #c62828; padding: 0.5em 0.8em; font-weight: 600; }
section.answer p.note { font-size: 0.85em; color: #555; margin: 0.2em 0; }
section.answer th, section.answer td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; }
section.answer td:first-child, section.answer th:first-child { text-align: left; }
section.answer caption { text-align: left; font-weight: 600; margin-bottom: 0.4em; }
details.text summary { cursor: pointer; font-weight: 600; margin: 1em 0; }
section.gates th, section.gates td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
section.gates tr.fail { background: #fdecea; }
section.gates tr.inconclusive { background: #fff8e1; }
section.gates tr.pass { background: #edf7ed; }
section.scenario { border-left: 0.4em solid #2e7d32; padding: 0 1em; margin: 1em 0; }
section.scenario.fail { border-left-color: #c62828; }
.verdict { font-weight: 700; padding: 0.1em 0.5em; border-radius: 0.3em; color: #fff; white-space: nowrap; }
.verdict.fail { background: #c62828; }
.verdict.inconclusive { background: #b26a00; }
.verdict.pass { background: #2e7d32; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{end}}{{define "body"}}{{range .Alerts}}<p class="alert">{{.}}</p>
{{end}}{{template "scenario" .Scenario}}{{template "gates" .Gates}}{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{range .Answers}}<section class="answer"><div class="scroll"><table>
<caption>{{.Caption}}</caption>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{range .Notes}}<p class="note">{{.}}</p>
{{end}}</section>
{{end}}{{range .Charts}}<figure class="chart" id="{{.ID}}" data-points="{{.Points}}">
<figcaption>{{.Title}}</figcaption>
{{.SVG}}
</figure>
{{end}}<details class="text"{{if not .Charts}} open{{end}}><summary>The whole report, as text</summary>
<pre class="summary">{{.Summary}}</pre>
</details>
{{end}}{{template "head" .}}{{template "body" .}}</body>
</html>
`))

// writePage writes the page: html/template escapes its markup, and the
// control characters it leaves (an escape sequence in a crafted result's
// text, which a terminal showing the file would act on) are shown as %q
// would.
func writePage(w io.Writer, pg htmlPage) error {
	return writeTemplate(w, "report", pg)
}

// writeTemplate writes the page's template name with data, escaped as
// writePage says.
func writeTemplate(w io.Writer, name string, data any) error {
	var b strings.Builder
	if err := pageTemplate.ExecuteTemplate(&b, name, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, visible(b.String(), "\n"))
	return err
}

// bookHTML is the template of a book: the head of a page, the contents,
// and each page's body in a section of its own.
const bookHTML = `{{define "book"}}{{template "head" .}}<section class="answer"><div class="scroll"><table>
<caption>Scenarios</caption>
<tr><th>scenario</th><th>verdict</th><th>shows</th></tr>
{{range $i, $p := .Pages}}<tr>{{with $p.Scenario}}<td><a href="#page{{$i}}">{{.Name}}</a></td><td>{{.Verdict}}</td><td>{{.Title}}</td>{{else}}<td><a href="#page{{$i}}">{{$p.Title}}</a></td><td></td><td></td>{{end}}</tr>
{{end}}</table></div></section>
{{range $i, $p := .Pages}}<section class="page" id="page{{$i}}">
{{template "body" $p}}</section>
{{end}}</body>
</html>
{{end}}`
