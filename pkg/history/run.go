package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// Meta is what a run does not say of itself: which commit and branch it
// measured and the machine it ran on.
type Meta struct {
	Commit, Branch string
	// Machine names the machine; "" for the host name the run recorded.
	Machine string
}

// run is one run as the history keeps it.
type run struct {
	id, planHash, command, cell, settings string
	// args is the run's command line, as JSON.
	args                                 string
	startedAt                            int64
	toolVersion, toolRevision, goVersion string
	engine                               string
	complete                             bool
	cal                                  Calibration
	figures                              []figure
	machine                              string
}

// figure is one figure of a run.
type figure struct {
	name, unit string
	value      float64
}

// Calibration is the machine's state around a run, as the run measured
// it (result.Machine); a value of 0 was not measured.
type Calibration struct {
	// CPUBefore and CPUAfter are the CPU loop's µs per unit; FsyncBefore
	// and FsyncAfter the median µs of a 4 KiB write and fdatasync.
	CPUBefore, CPUAfter     float64
	FsyncBefore, FsyncAfter float64
	// LoadBefore and LoadAfter are the 1-minute load averages; Steal the
	// share of CPU time stolen over the run, in percent.
	LoadBefore, LoadAfter, Steal float64
}

// RunID returns a run's id in a history: the SHA-256 of its JSON, in
// hex. The same result added again has the same id.
func RunID(r *result.Result) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", fmt.Errorf("hashing a run: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// runOf reads what the history keeps of r.
func runOf(r *result.Result, m Meta) (run, error) {
	id, err := RunID(r)
	if err != nil {
		return run{}, err
	}
	settings := result.RunSettings(r)
	sj, _ := json.Marshal(settings)
	ej, _ := json.Marshal(r.Environment.Store)
	aj, _ := json.Marshal(r.Args)
	machine := m.Machine
	if machine == "" {
		machine = r.Environment.Host
	}
	figs, err := figuresOf(r)
	if err != nil {
		return run{}, err
	}
	return run{
		id: id, planHash: result.PlanHash(r), command: r.Command, args: string(aj),
		cell: settings.String(), settings: string(sj),
		startedAt:   r.StartedAt.UnixNano(),
		toolVersion: r.Tool.Version, toolRevision: r.Tool.Revision, goVersion: r.Tool.GoVersion,
		engine: string(ej), complete: r.Complete, cal: calibrationOf(r.Environment.Machine),
		figures: figs, machine: machine,
	}, nil
}

// calibrationOf reads a run's machine probes; zero where not measured.
func calibrationOf(m *result.Machine) Calibration {
	if m == nil {
		return Calibration{}
	}
	c := Calibration{
		CPUBefore: m.Before.CPUMicros, CPUAfter: m.After.CPUMicros,
		FsyncBefore: m.Before.FsyncMicros, FsyncAfter: m.After.FsyncMicros,
	}
	if m.Before.Load1 != nil {
		c.LoadBefore = *m.Before.Load1
	}
	if m.After.Load1 != nil {
		c.LoadAfter = *m.After.Load1
	}
	if m.StealPercent != nil {
		c.Steal = *m.StealPercent
	}
	return c
}

// figuresOf reads every figure of the figure table that r has: its
// default figures (judge.DefaultMetrics: throughput, the latency
// percentiles of each op kind, CPU per op, the commit rate, …).
func figuresOf(r *result.Result) ([]figure, error) {
	if len(r.Phases) == 0 {
		return nil, nil
	}
	s, err := result.NewSuite(r.Command, "single", []*result.Result{r}, "")
	if err != nil {
		return nil, fmt.Errorf("reading a run's figures: %w", err)
	}
	var out []figure
	for _, m := range judge.DefaultMetrics(s) {
		v, ok := m.Value(r)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		out = append(out, figure{name: m.String(), unit: m.Unit(), value: v})
	}
	return out, nil
}
