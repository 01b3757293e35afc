package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// choiceTable is gobench choose's ranked table: a row per engine and
// setting, those that kept the promise first by speed (choiceSpeed's
// columns), then the others with what they lost or why they have no
// place.
func choiceTable(c *result.Choice) *table {
	speedHead, speedNum, speed := choiceSpeed(c)
	t := &table{Caption: "Every engine and setting able to keep the promise, ranked by " + choiceKey(c), Keys: 2,
		Head: slices.Concat([]string{"rank", "engine and setting"}, speedHead, []string{"power cuts", "syncs/commit", "on disk", "space amp", "engine RSS", "version"}),
		Num:  slices.Concat([]bool{true, false}, speedNum, []bool{false, true, true, true, true, false})}
	for _, r := range c.Rows {
		rank := "–"
		if r.Rank > 0 {
			rank = strconv.Itoa(r.Rank)
		}
		row := append([]string{rank, r.Name()}, speed(r)...)
		row = append(row, choiceCuts(r), "–")
		if r.SyncsPerCommit >= 0 {
			row[len(row)-1] = units.Fixed(r.SyncsPerCommit, 2)
		}
		t.Rows = append(t.Rows, append(append(row, choiceSpace(r)...), r.Version))
	}
	for _, r := range c.Rows {
		if r.Rank == 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("%s: not ranked: %s", r.Name(), r.Why))
		}
		if r.Errors.Total > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("%s: ops failed over its speed runs: %s", r.Name(), errorsShort(r.Errors)))
		}
	}
	t.Notes = append(t.Notes, choiceUnstated(c.Rows, "space amp", func(r result.ChoiceRow) string { return r.SpaceNote })...)
	t.Notes = append(t.Notes, choiceUnstated(c.Rows, "engine RSS", func(r result.ChoiceRow) string { return r.MemoryNote })...)
	t.Notes = append(t.Notes, choiceMemoryNote(c)...)
	return t
}

// choiceKey names what ranks the rows: "speed" (the total ops/s) or,
// for roles, "writer ops/s".
func choiceKey(c *result.Choice) string {
	if c.RankBy == "" {
		return "speed"
	}
	return c.RankBy + " ops/s"
}

// choiceSpeed is the table's speed columns and a row's cells in them:
// the median ops/s, its interval and the p99 of the row's kind; for
// roles, the ranking role's ops/s, its interval and p99, then each other
// role's ops/s and p99, in the workload's order.
func choiceSpeed(c *result.Choice) ([]string, []bool, func(result.ChoiceRow) []string) {
	if c.RankBy == "" {
		return []string{"ops/s", "interval", "p99"}, []bool{true, false, true}, func(r result.ChoiceRow) []string {
			if r.Runs == 0 {
				return []string{"–", "–", "–"}
			}
			return []string{units.Rate(r.OpsPerSec), choiceInterval(r), r.P99Kind + " " + units.Micros(r.P99)}
		}
	}
	roles := []string{c.RankBy}
	for _, r := range c.Rows {
		for _, ro := range r.Roles {
			if !slices.Contains(roles, ro.Name) {
				roles = append(roles, ro.Name)
			}
		}
	}
	head, num := []string{c.RankBy + " ops/s", "interval", c.RankBy + " p99"}, []bool{true, false, true}
	for _, name := range roles[1:] {
		head, num = append(head, name+" ops/s", name+" p99"), append(num, true, true)
	}
	return head, num, func(r result.ChoiceRow) []string {
		var cells []string
		for i, name := range roles {
			ro, ok := r.Role(name)
			ops, iv, p99 := "–", "–", "–"
			if ok && r.Runs > 0 {
				ops, p99 = units.Rate(ro.OpsPerSec), units.Micros(ro.P99)
				iv = choiceInterval(result.ChoiceRow{Low: ro.Low, High: ro.High, Confidence: ro.Confidence, Runs: r.Runs})
			}
			if i == 0 {
				cells = append(cells, ops, iv, p99)
			} else {
				cells = append(cells, ops, p99)
			}
		}
		return cells
	}
}

// choiceInterval is a row's interval of its median ops/s, or the range
// of its runs where they were too few for one.
func choiceInterval(r result.ChoiceRow) string {
	if r.Confidence > 0 {
		return fmt.Sprintf("%s–%s (%s%%)", units.Rate(r.Low), units.Rate(r.High), judge.ConfidenceLabel(r.Confidence))
	}
	return fmt.Sprintf("%s–%s (range of %d)", units.Rate(r.Low), units.Rate(r.High), r.Runs)
}

// choiceCuts is a row's power-cut result: "0 lost in 10", "3 of 10 lost
// up to 4", why there were none, or, where the cuts' states were checked
// for integrity alone (CutNote set), "10 intact, writes not checked":
// "0 lost" would claim a check of the acknowledged writes that was not made.
func choiceCuts(r result.ChoiceRow) string {
	switch {
	case r.Cuts == 0:
		return r.CutNote
	case r.CutNote != "" && r.Corrupt > 0:
		return fmt.Sprintf("%d of %d corrupt, writes not checked", r.Corrupt, r.Cuts)
	case r.CutNote != "":
		return fmt.Sprintf("%d intact, writes not checked", r.Cuts)
	case r.Lossy == 0 && r.Corrupt == 0:
		return fmt.Sprintf("0 lost in %d", r.Cuts)
	case r.Corrupt > 0:
		return fmt.Sprintf("%d of %d lost up to %d, %d corrupt", r.Lossy, r.Cuts, r.Lost, r.Corrupt)
	}
	return fmt.Sprintf("%d of %d lost up to %d", r.Lossy, r.Cuts, r.Lost)
}

// choiceHeader is the lines above the table: the question and how it was
// measured.
func choiceHeader(c *result.Choice) []string {
	how := fmt.Sprintf("measured: %s interleaved runs of %v each per row", choiceRunsMade(c), c.Duration)
	if c.Cuts > 0 {
		how += fmt.Sprintf(", and %d simulated power cuts of each row's own traced run", c.Cuts)
	}
	lines := []string{
		"gobench choose · keep " + c.Keep + ": " + c.Says,
		"workload: " + c.Workload,
		fmt.Sprintf("%s · budget %v, took %v · %s %s", how, c.Budget, c.Elapsed.Round(time.Second), c.Tool.Name, c.Tool.Version),
	}
	if c.RankBy != "" {
		why := c.RankWhy
		if !strings.Contains(why, "--rank-by") {
			why += "; --rank-by ROLE ranks by another"
		}
		lines = append(lines, fmt.Sprintf("ranked by %s, as is the winner's margin (%s)", choiceKey(c), why))
	}
	return lines
}

// choiceRunsMade is how many speed runs each row had: the planned
// Repeats, or, where no row completed them all (an interrupt, a failure),
// how many the rows completed of those planned, so that the header says
// what happened, as the rows' ranges do.
func choiceRunsMade(c *result.Choice) string {
	lo, hi := c.Repeats, 0
	for _, r := range c.Rows {
		lo, hi = min(lo, r.Runs), max(hi, r.Runs)
	}
	switch {
	case len(c.Rows) == 0 || hi >= c.Repeats:
		return strconv.Itoa(c.Repeats)
	case lo < hi:
		return fmt.Sprintf("%d–%d of %d planned", lo, hi, c.Repeats)
	}
	return fmt.Sprintf("%d of %d planned", hi, c.Repeats)
}

// choiceAllLost reports whether every row lost writes or was left
// corrupt at a power cut: only then did none keep the promise (a row can
// go unranked for other reasons, such as speed runs cut short).
func choiceAllLost(c *result.Choice) bool {
	for _, r := range c.Rows {
		if r.Lossy == 0 && r.Corrupt == 0 {
			return false
		}
	}
	return true
}

// choiceWinner is the line naming the winner and its margin.
func choiceWinner(c *result.Choice) string {
	switch {
	case c.Winner == "" && choiceAllLost(c):
		return "no winner: no engine and setting kept the promise in its runs"
	case c.Winner == "":
		return "no winner: none was ranked (each row says why)"
	case c.Margin == nil:
		return "winner: " + c.Winner + " (the only one ranked)"
	}
	m := c.Margin
	s := fmt.Sprintf("winner: %s, ×%s the runner-up %s", c.Winner, units.Ratio(m.Ratio), m.RunnerUp)
	if c.RankBy != "" {
		s += " in " + choiceKey(c)
	}
	switch {
	case m.Confidence == 0:
		return s + " (too few runs for an interval of the ratio: not shown to be faster)"
	case m.Significant:
		return s + fmt.Sprintf(" (%s%% interval of the ratio ×%s–×%s: faster)", judge.ConfidenceLabel(m.Confidence), units.Ratio(m.Low), units.Ratio(m.High))
	}
	return s + fmt.Sprintf(" (%s%% interval of the ratio ×%s–×%s holds ×1: a tie at this budget; a larger --budget may tell them apart)", judge.ConfidenceLabel(m.Confidence), units.Ratio(m.Low), units.Ratio(m.High))
}

// choiceText writes the answer as text: the header, the ranked table,
// the winner, what was not measured.
func choiceText(w io.Writer, c *result.Choice) error {
	ew := textWriter(w)
	for _, l := range choiceHeader(c) {
		ew.printf("%s\n", l)
	}
	for _, n := range c.Notes {
		ew.printf("%s\n", n)
	}
	ew.printf("\n")
	t := choiceTable(c)
	t.writeKeyedText(ew)
	for _, n := range t.Notes {
		ew.printf("  %s\n", n)
	}
	ew.printf("\n%s\n", choiceWinner(c))
	for _, g := range c.Gates {
		ew.printf("gate %s\n", g.Verdict)
	}
	if len(c.NotMeasured) > 0 {
		ew.printf("\nnot measured:\n")
		for _, n := range c.NotMeasured {
			ew.printf("  - %s\n", n)
		}
	}
	return ew.err
}

// choiceMarkdown writes the answer as markdown.
func choiceMarkdown(w io.Writer, c *result.Choice) error {
	ew := markdownWriter(w)
	h := choiceHeader(c)
	ew.printf("**%s**\n\n", h[0])
	for _, l := range append(h[1:], c.Notes...) {
		ew.printf("%s\n\n", l)
	}
	t := choiceTable(c)
	t.writeMarkdown(ew)
	ew.printf("\n")
	for _, n := range t.Notes {
		ew.printf("- %s\n", n)
	}
	ew.printf("\n**%s**\n", choiceWinner(c))
	for _, g := range c.Gates {
		ew.printf("\ngate %s\n", g.Verdict)
	}
	if len(c.NotMeasured) > 0 {
		ew.printf("\nNot measured:\n\n")
		for _, n := range c.NotMeasured {
			ew.printf("- %s\n", n)
		}
	}
	return ew.err
}

// choiceJSON writes the answer as JSON.
func choiceJSON(w io.Writer, c *result.Choice) error { return c.Write(w) }

// choiceHTML writes the answer as a page: the table as its answer, the
// text report under it.
func choiceHTML(w io.Writer, c *result.Choice) error {
	var text bytes.Buffer
	if err := choiceText(&text, c); err != nil {
		return err
	}
	t := choiceTable(c)
	t.Notes = append(t.Notes, choiceWinner(c))
	return writePage(w, htmlPage{Title: "gobench choose · keep " + c.Keep, Notes: c.Notes, Answers: answers(t), Summary: text.String()})
}
