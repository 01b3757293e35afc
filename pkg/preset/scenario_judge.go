package preset

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// Gates parses the scenario's gates.
func (sc *Scenario) Gates() ([]judge.Expectation, error) {
	out := make([]judge.Expectation, len(sc.Expect))
	for i, text := range sc.Expect {
		e, err := judge.ParseExpectation(text)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		out[i] = e
	}
	return out, nil
}

// Judge judges the scenario's gates on s, the suite its cells made, and
// records the outcome in it (s.Gates, s.Scenario). A reproduction is a
// statement about these runs: each gate reads the median of a cell's
// runs as exact (judge.EvaluateFigures), so one run decides it. Every
// gate passed: reproduced; one failed: not reproduced; one had no
// figure to read: inconclusive.
func (sc *Scenario) Judge(s *result.Suite) error {
	exps, err := sc.Gates()
	if err != nil {
		return err
	}
	gates, err := judge.EvaluateFigures(s, exps)
	if err != nil {
		return fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	verdict := result.OutcomeReproduced
	for _, g := range gates {
		switch {
		case g.NoFigure:
			verdict = result.OutcomeInconclusive
		case !g.Pass && verdict == result.OutcomeReproduced:
			verdict = result.OutcomeNotReproduced
		}
	}
	s.Gates = gates
	s.Scenario = &result.Scenario{Name: sc.Name, Title: sc.Title, Doc: sc.Doc, Verdict: verdict, Finding: sc.FindingOf(s)}
	return nil
}

// placeholder is a figure in a finding's template: {FIGURE@CELLS}.
var placeholder = regexp.MustCompile(`\{([^{}@]+)@([^{}]+)\}`)

// FindingOf returns the finding with every figure of its template read
// from s: the median of the runs of the cells the selector picks, each
// labelled with its other varied settings when it picks several; "n/a"
// where no cell has the figure (a selector that names a setting the
// command line narrowed away).
func (sc *Scenario) FindingOf(s *result.Suite) string {
	text := placeholder.ReplaceAllStringFunc(sc.Finding, func(ph string) string {
		m := placeholder.FindStringSubmatch(ph)
		return figureText(s, m[1], m[2])
	})
	return strings.Join(strings.Fields(text), " ")
}

// figureText reads one figure of a finding.
func figureText(s *result.Suite, figure, selector string) string {
	metric, err := judge.ParseMetric(figure)
	if err != nil {
		return "n/a"
	}
	cells, err := s.Select(selector)
	if err != nil || len(cells) == 0 {
		return "n/a"
	}
	var parts []string
	for _, i := range cells {
		c := s.Cells[i]
		var vs []float64
		for _, r := range c.Runs {
			if v, ok := metric.Value(r); ok {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			continue
		}
		v := metric.Format(judge.StatsOf(vs).Median)
		if len(cells) > 1 {
			v += " (" + otherSettings(c.Settings) + ")"
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return "n/a"
	}
	return strings.Join(parts, ", ")
}

// otherSettings names a cell by its varied settings but the variant.
func otherSettings(st result.Settings) string {
	var parts []string
	for _, x := range st {
		if x.Name != "variant" {
			parts = append(parts, x.Value)
		}
	}
	return strings.Join(parts, " ")
}
