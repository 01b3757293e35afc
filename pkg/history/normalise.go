package history

import (
	"math"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/workload"
)

// Basis is what a figure's values are normalised by: the machine's
// calibration that the figure moves with.
type Basis string

// The bases of normalisation.
const (
	// BasisNone: the figure does not move with the machine (a count, a
	// share), or no run of the series was calibrated.
	BasisNone Basis = ""
	// BasisCPU: the CPU loop's calibration (result.Probe.CPUMicros).
	BasisCPU Basis = "cpu"
	// BasisFsync: the fsync probe's calibration (result.Probe.FsyncMicros).
	BasisFsync Basis = "fsync"
)

// isWriteKind reports whether the op kind's latency and throughput wait,
// where the engine syncs its commits, on the disk's fsync: every op that
// changes the database (workload.Op.IsWrite: upsert, insert, update,
// delete, append, read-modify-write), the commit and the commit rate; a
// role's kind ("writer append") by its op's.
func isWriteKind(kind string) bool {
	if _, k, ok := strings.Cut(kind, " "); ok {
		kind = k
	}
	if kind == "commit" || kind == "commits" {
		return true
	}
	op, err := workload.ParseOp(kind)
	return err == nil && op.IsWrite()
}

// basisOf chooses the calibration a figure is normalised by, the rule
// docs/history.md states: latency and throughput (and CPU per op) move
// with the machine, counts and shares do not; those of writing op kinds
// (isWriteKind: upsert, insert, update, delete, append,
// read-modify-write, commit, the commit rate) by the fsync
// probe where every calibrated run measured it, every other by the CPU
// loop; none where no run was calibrated.
func basisOf(m judge.Metric, samples []Sample) Basis {
	f := m.Figure()
	if f.Neutral || (f.Scale != judge.Rate && f.Scale != judge.Latency) {
		return BasisNone
	}
	cpu, fsync, calibrated := false, true, false
	for _, s := range samples {
		if s.Cal.cal(BasisCPU) > 0 {
			cpu, calibrated = true, true
			fsync = fsync && s.Cal.cal(BasisFsync) > 0
		}
	}
	switch {
	case !calibrated:
		return BasisNone
	case isWriteKind(m.Kind) && fsync:
		return BasisFsync
	case cpu:
		return BasisCPU
	}
	return BasisNone
}

// cal is the run's calibration on basis b: the mean of before and after,
// 0 where either was not measured.
func (c Calibration) cal(b Basis) float64 {
	var x, y float64
	switch b {
	case BasisCPU:
		x, y = c.CPUBefore, c.CPUAfter
	case BasisFsync:
		x, y = c.FsyncBefore, c.FsyncAfter
	}
	if x <= 0 || y <= 0 {
		return 0
	}
	return (x + y) / 2
}

// Drift is how far the machine's calibration on basis b (the CPU loop's
// for BasisNone) moved during the run: its change from before to after,
// relative to the smaller of the two; 0 where not measured.
func (c Calibration) Drift(b Basis) float64 {
	x, y := c.CPUBefore, c.CPUAfter
	if b == BasisFsync {
		x, y = c.FsyncBefore, c.FsyncAfter
	}
	if x <= 0 || y <= 0 {
		return 0
	}
	return math.Abs(y-x) / math.Min(x, y)
}

// normalise returns v as it would read on a machine whose calibration is
// ref rather than cal: a latency scaled by ref/cal, a rate by cal/ref (a
// machine twice as slow doubles a latency and halves a rate). v as it is
// where either is unknown.
func normalise(v, cal, ref float64, higher bool) float64 {
	if cal <= 0 || ref <= 0 {
		return v
	}
	if higher {
		return v * cal / ref
	}
	return v * ref / cal
}
