package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/units"
)

// suiteText writes a suite's statistics: a header saying what was varied
// and what was common, then one block per metric with each cell's mean ±
// standard deviation, median, min and max over its repeats, and its factor
// against the baseline cell, the metric's direction stated.
func suiteText(w io.Writer, sum *judge.Summary) error {
	ew := textWriter(w)
	s := sum.Suite
	suiteHeader(ew, s)
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
	if rows, settings, model := suiteDurability(s); rows != nil {
		ew.printf("\ndurability (--crash: %s; over every repeat):\n", model)
		tw := ew.table(0)
		tw.printf("  %s\t%s\n", textCells(s.Varied), textCells(durabilityHead))
		for i, row := range rows {
			tw.printf("  %s\t%s\n", settingValues(settings[i]), textCells(row))
		}
		tw.flush()
		ew.printf("  %s\n", durabilityLegend)
	}
	for _, m := range sum.Metrics {
		ew.printf("\n%s (%s, %s)\n", m.Metric, m.Unit, m.Direction)
		if text := statementText(s, m.Metric.Kind); text != "" {
			ew.printf("  statement %s: %s\n", m.Metric.Kind, text)
		}
		tw := ew.table(0)
		tw.printf("  %s\tmean ± sd\tmedian\tmin\tmax\tvs baseline\n", textCells(s.Varied))
		for _, c := range m.Cells {
			tw.printf("  %s\t%s\t%s\t%s\t%s\t%s\n", settingValues(c.Settings),
				meanSD(m.Metric, c.Stats), m.Metric.Format(c.Stats.Median), m.Metric.Format(c.Stats.Min), m.Metric.Format(c.Stats.Max), factorCell(s, c))
		}
		tw.flush()
	}
	if hs := sum.Headlines(); len(hs) > 0 {
		ew.printf("\nheadline (each against the baseline; ~ means not significant):\n")
		for _, h := range hs {
			ew.printf("  %s\n", h)
		}
	}
	gatesText(ew, s.Gates)
	scenarioText(ew, s.Scenario)
	return ew.err
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
	var common []string
	for _, st := range result.RunSettings(first) {
		if !slices.Contains(s.Varied, st.Name) {
			common = append(common, st.Name+"="+st.Value)
		}
	}
	w.printf("common: %s\n", strings.Join(common, " "))
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
			if !r.Complete {
				w.printf("INCOMPLETE: %s run %d: %s\n", c.Settings, i+1, strings.Join(r.Problems, "; "))
			}
			if len(r.Shards) > 0 {
				w.printf("%s run %d merged from %d shards (%s)\n", c.Settings, i+1, len(r.Shards), shardHosts(r.Shards))
			}
			for _, warning := range r.Warnings {
				w.printf("WARNING: %s run %d: %s\n", c.Settings, i+1, warning)
			}
		}
	}
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

// settingValues are a cell's values, the cells of a text table.
func settingValues(s result.Settings) trusted {
	if len(s) == 0 {
		return "(all)"
	}
	vals := make([]string, len(s))
	for i, st := range s {
		vals[i] = st.Value
	}
	return textCells(vals)
}

func factorCell(s *result.Suite, c judge.CellStats) string {
	if c.Settings.String() == s.Baseline.String() {
		return "baseline"
	}
	if c.Factor == nil {
		return "–"
	}
	return c.Factor.String()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // expressions such as ">=" stay readable
	return enc.Encode(v)
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
