package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// ScaleText writes a scale search (gobench replay --find-scale): what
// was asked, each cell's largest scale that met the objectives, then
// each cell's steps.
func ScaleText(w io.Writer, s *result.Scale) error {
	ew := textWriter(w)
	noun := scaleNoun(s.By)
	ew.printf("gobench %s --find-scale · objectives: %s · %s 1, doubling while met (up to %d), then bisected; each step a whole replay; errors reported, not judged\n",
		s.Command, strings.Join(s.Objectives, ", "), noun, s.MaxScale)
	for _, cv := range s.Cells {
		ew.printf("\n%s\n", cv.Settings.String())
		ew.printf("%s\n", ScaleHeadline(cv))
		if !cv.Complete {
			ew.printf("INCOMPLETE: %s\n", strings.Join(cv.Problems, "; "))
		}
		tw := ew.aligned(tabwriter.AlignRight)
		tw.printf(noun + "\tstatements\tops/s\tp50\tp99\tmax\terrors\tnew errors\t  verdict\n")
		for _, st := range cv.Steps {
			tw.printf("%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t  %s\n", st.Scale, st.Statements, units.Rate(st.OpsPerSec),
				units.Micros(st.P50Micros), units.Micros(st.P99Micros), units.Micros(st.MaxMicros), st.Errors, st.NewErrors, verdictText(st.Met, st.Verdicts))
		}
		tw.flush()
	}
	return ew.err
}

// ScaleHeadline says what a cell's scale search found: "holds 4× its
// captured connections (scale 4; scale 5 did not)".
func ScaleHeadline(cv result.ScaleCurve) string {
	failed := 0
	for _, st := range cv.Steps {
		if !st.Met && (failed == 0 || st.Scale < failed) {
			failed = st.Scale
		}
	}
	noun := scaleNoun(cv.By)
	switch {
	case !cv.Found && len(cv.Steps) > 0 && !cv.Steps[0].Met:
		return fmt.Sprintf("no %s met the objectives: not even the capture as it was (%s 1)", noun, noun)
	case !cv.Found:
		return "no " + noun + " found"
	case cv.By == result.ScaleByFold:
		holds := fmt.Sprintf("holds %d time slices of its capture at once", cv.Scale)
		if cv.Scale == 1 {
			holds = "holds its capture as it was, not folded"
		}
		if failed > 0 {
			return fmt.Sprintf("%s (fold %d met the objectives; fold %d did not)", holds, cv.Scale, failed)
		}
		return fmt.Sprintf("%s (fold %d met the objectives, the largest tried)", holds, cv.Scale)
	case failed > 0:
		return fmt.Sprintf("holds %d× its captured connections (scale %d met the objectives; scale %d did not)", cv.Scale, cv.Scale, failed)
	}
	return fmt.Sprintf("holds %d× its captured connections (scale %d met the objectives, the largest tried)", cv.Scale, cv.Scale)
}

// scaleNoun names what a scale search grows (result.Scale.By): scale
// (copies) or fold (time slices).
func scaleNoun(by string) string {
	if by == result.ScaleByFold {
		return "fold"
	}
	return "scale"
}
