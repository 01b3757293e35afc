package report

import (
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// scenarioText writes a scenario's outcome (gobench scenario): its name
// and verdict, the finding wrapped, and the SQLite page that explains it.
func scenarioText(w *errWriter, sc *result.Scenario) {
	if sc == nil {
		return
	}
	w.printf("\nscenario %s: %s\n", sc.Name, sc.Verdict)
	for _, line := range wrapWords(sc.Finding, 76) {
		w.printf("  %s\n", line)
	}
	w.printf("  why: %s\n", sc.Doc)
}

// scenarioMarkdown writes a scenario's outcome as a markdown paragraph.
func scenarioMarkdown(w *errWriter, sc *result.Scenario) {
	if sc == nil {
		return
	}
	w.printf("**scenario %s: %s.** %s ([SQLite's documentation](%s))\n\n", sc.Name, sc.Verdict, sc.Finding, sc.Doc)
}

// scenarioHTML is the scenario's section of an HTML report.
const scenarioHTML = `{{define "scenario"}}{{if .}}<section class="scenario {{if eq .Verdict "reproduced"}}pass{{else}}fail{{end}}">
<h2>scenario {{.Name}}: {{.Verdict}}</h2>
<p><em>{{.Title}}</em></p>
<p>{{.Finding}}</p>
<p>Why: <a href="{{.Doc}}">{{.Doc}}</a></p>
</section>
{{end}}{{end}}`

// wrapWords breaks text into lines of at most width characters, at
// spaces (a longer word keeps a line of its own).
func wrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
