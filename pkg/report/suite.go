package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/units"
)

// suiteText writes a suite's report, the answer first: a header saying
// what was varied and what was common; which runs did not complete and
// whether ops failed; a scenario's verdict and finding; the gates; what
// power cuts lost (--crash); every cell ranked by the headline figures;
// each varied setting against the baseline's value at every combination
// of the others; how precise the repeats made it (--precision). Then one table per
// figure with each cell's median over its repeats (with their spread,
// min and max when there are repeats) and its factor against the
// baseline cell, the figure's direction stated.
func suiteText(w io.Writer, sum *judge.Summary) error {
	ew := textWriter(w)
	s := sum.Suite
	single := singleRuns(sum)
	suiteHeader(ew, s)
	for _, line := range incompleteLines(s) {
		ew.printf("%s\n", line)
	}
	failed := failedSuiteWarning(s)
	if failed != "" {
		ew.printf("%s\n", failed)
	}
	scenarioText(ew, s.Scenario)
	gatesText(ew, s.Gates)
	suiteAnswerText(ew, sum, single)
	var logs []string
	for _, c := range s.Cells {
		if len(c.Runs[0].Phases) > 0 {
			if line := walText(c.Runs[0].Phases[0]); line != "" {
				logs = append(logs, fmt.Sprintf("  %s: %s", c.Settings, strings.TrimPrefix(line, "wal: ")))
			}
		}
	}
	if len(logs) > 0 {
		ew.printf("\nwrite-ahead log (first run of each cell):\n")
		for _, l := range logs {
			ew.printf("%s\n", l)
		}
	}
	errs := failed != ""
	for _, m := range sum.Metrics {
		ew.printf("\n%s (%s, %s)\n", m.Metric, m.Unit, m.Direction)
		if text := statementText(s, m.Metric.Kind); text != "" {
			ew.printf("  statement %s: %s\n", m.Metric.Kind, text)
		}
		tw := ew.keyedTable(0, len(variedOr(s)))
		head := append(append([]string{}, statHead(single)...), "vs baseline")
		if errs {
			head = append(head, "errors")
		}
		tw.printf("  %s\t%s\n", textCells(variedOr(s)), textCells(head))
		for i, c := range m.Cells {
			row := append(statCells(m, c, single), factorText(s, c, single))
			if errs {
				row = append(row, errorsShort(result.CellErrors(s.Cells[i])))
			}
			tw.printf("  %s\t%s\n", textCells(cellValues(s.Varied, c.Settings)), textCells(row))
		}
		if v, ok := capturedStat(s, m.Metric); ok {
			tw.printf("  %s\t%s\n", textCells(capturedLabels(len(variedOr(s)))), textCells(capturedCells(m, v, single, errs)))
		}
		tw.flush()
		for _, n := range metricNotes(m) {
			ew.printf("  ~: %s\n", n)
		}
	}
	return ew.err
}

// suiteAnswerText writes what a suite's text report says first, after
// its gates: the durability table (--crash), the ranking of every cell,
// the headlines, and once why factors are not significant.
func suiteAnswerText(ew *errWriter, sum *judge.Summary, single bool) {
	s := sum.Suite
	if t := suiteDurabilityTable(s); t != nil {
		ew.printf("\n%s:\n", strings.ToLower(t.Caption[:1])+t.Caption[1:])
		t.writeKeyedText(ew)
		for _, n := range t.Notes {
			ew.printf("  %s\n", n)
		}
	}
	if rk := sum.Ranking(); len(s.Cells) > 1 && len(rk.Metrics) > 0 {
		ew.printf("\n%s:\n", rankingCaption(sum, rk))
		tw := ew.keyedTable(0, 1+len(s.Varied))
		tw.printf("  #\t%s\t%s\n", textCells(s.Varied), textCells(rankingHead(s, rk)))
		for i, c := range rk.Cells {
			tw.printf("  %s\t%s\t%s\n", rankLabel(c, i), textCells(cellValues(s.Varied, c.Settings)), textCells(rankingRow(rk, c)))
		}
		tw.flush()
	}
	if hs := sum.Headlines(); len(hs) > 0 {
		ew.printf("\nheadline (ratios of medians; ~ not significant):\n")
		for _, h := range hs {
			ew.printf("  %s\n", headlineLine(h, single))
		}
		for _, n := range headlineNotes(hs) {
			ew.printf("  ~: %s\n", n)
		}
	}
	if s.Precision != nil {
		ew.printf("\n%s\n", s.Precision.Text)
	}
	if note := repeatsNote(sum); note != "" {
		ew.printf("%s\n", note)
	}
}

func suiteHeader(w *errWriter, s *result.Suite) {
	first := s.Cells[0].Runs[0]
	repeats := 0
	for _, c := range s.Cells {
		repeats = max(repeats, len(c.Runs))
	}
	w.printf("gobench %s · %d %s × %d %s (%s)", s.Command, len(s.Cells), plural(len(s.Cells), "cell", "cells"), repeats, plural(repeats, "repeat", "repeats"), s.Order)
	if len(s.Varied) > 0 {
		w.printf(" · varied: %s · baseline: %s", strings.Join(s.Varied, ", "), s.Baseline)
	}
	w.printf("\n")
	fixed, own := s.Fixed()
	var common []string
	for _, st := range fixed {
		common = append(common, st.Name+"="+st.Value)
	}
	w.printf("common: %s\n", strings.Join(common, " "))
	if line := optionsLine(own); line != "" {
		w.printf("%s\n", line)
	}
	p := first.Plan
	w.printf("workload: seed %d · %s", p.Seed, p.Describe(false))
	if wp := p.Warmup; wp != nil {
		if wp.Ops > 0 {
			w.printf(" · warm-up %d ops/worker, not measured", wp.Ops)
		} else {
			w.printf(" · warm-up %v/worker, not measured", wp.Duration)
		}
	}
	w.printf("\n")
	env := first.Environment
	w.printf("environment: %s, %s", machineText(env), filesystemText(env))
	if e := enginesText(s); e != "" {
		w.printf(" · %s", e)
	}
	w.printf(" · %s %s, %s\n", first.Tool.Name, first.Tool.Version, first.Tool.GoVersion)
	if line := judge.SuiteVersionsNote(s); line != "" {
		w.printf("%s\n", line)
	}
	if line := suiteVersionLine(s); line != "" {
		w.printf("%s\n", line)
	}
	if p.SQL != nil && p.SQL.PerStatement {
		w.printf("note: the tables compare whole scripts; each statement's latency (--per-statement) is in every run of the JSON result, and a single run's report prints them\n")
	}
	if line := suiteMachineText(s); line != "" {
		w.printf("%s\n", line)
	}
	if line := suiteTraced(s); line != "" {
		w.printf("%s\n", line)
	}
	if c := env.Ceiling; c != nil {
		w.printf("ceiling: before the runs this disk (%s) made %s durable %d-byte writes/s (fdatasync p50 %s, p99 %s)\n",
			c.Filesystem, units.Rate(c.FsyncPerSec), c.WriteSize, units.Micros(c.P50Micros), units.Micros(c.P99Micros))
	}
	for _, c := range s.Cells {
		for i, r := range c.Runs {
			if len(r.Shards) > 0 {
				w.printf("%s run %d merged from %d shards (%s)\n", c.Settings, i+1, len(r.Shards), shardHosts(r.Shards))
			}
			for _, warning := range r.Warnings {
				w.printf("WARNING: %s run %d: %s\n", c.Settings, i+1, warning)
			}
		}
	}
}

// optionsLine says what each engine's own options were, the settings of
// its rows that are no axis of the matrix: "engine options: mattn,
// modernc: journal=wal,busy-timeout=5s · bbolt: bbolt-batch=false"; ""
// when no engine has its own.
func optionsLine(own []result.Options) string {
	if len(own) == 0 {
		return ""
	}
	parts := make([]string, len(own))
	for i, o := range own {
		parts[i] = o.String()
	}
	return "engine options: " + strings.Join(parts, " · ")
}

// shardHosts lists the distinct hosts of a merged run's shards.
func shardHosts(origins []result.ShardOrigin) string {
	var hosts []string
	for _, o := range origins {
		if h := cmp.Or(o.Host, "unknown host"); !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return "on " + strings.Join(hosts, ", ")
}

// enginesText names the engine each driver of the suite ran: the engine
// alone when every cell ran one and the same ("SQLite 3.53.4"), else
// every driver's ("mattn SQLite 3.53.4, modernc SQLite 3.54.1").
func enginesText(s *result.Suite) string {
	var pairs, engines []string
	for _, c := range s.Cells {
		r := c.Runs[0]
		e := r.Environment.StoreFact(store.FactEngine)
		if e == "" {
			continue
		}
		if p := r.Plan.Driver + " " + e; !slices.Contains(pairs, p) {
			pairs = append(pairs, p)
		}
		if !slices.Contains(engines, e) {
			engines = append(engines, e)
		}
	}
	if len(engines) == 1 {
		return engines[0]
	}
	return strings.Join(pairs, ", ")
}
