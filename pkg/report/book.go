package report

import (
	"fmt"
	"io"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// book is one HTML page of several suites (gobench scenario run all):
// a table of contents with each scenario's verdict, then each suite's
// page.
type book struct {
	Title string
	Pages []htmlPage
}

// htmlSuites writes several suites as one self-contained HTML page: a
// table of their scenarios and verdicts, then each suite as htmlSuite
// would show it.
func htmlSuites(w io.Writer, sums []*judge.Summary) error {
	bk := book{Title: "gobench"}
	for i, sum := range sums {
		if i == 0 {
			bk.Title += " " + sum.Suite.Command
		}
		pg, err := suitePage(fmt.Sprintf("page%d-", i), sum)
		if err != nil {
			return err
		}
		bk.Pages = append(bk.Pages, pg)
	}
	return writeTemplate(w, "book", bk)
}

// summaries summarizes each suite over its default figures.
func summaries(ss []*result.Suite) []*judge.Summary {
	out := make([]*judge.Summary, len(ss))
	for i, s := range ss {
		out[i] = judge.Summarize(s, judge.DefaultMetrics(s))
	}
	return out
}
