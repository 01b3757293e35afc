package judge

import (
	"fmt"
	"slices"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// MachineShift is how the machine's calibration (result.Machine: a fixed
// CPU loop, µs per unit, lower is faster) moved from the old file's runs
// to the new one's, over every probe before and after every run.
type MachineShift struct {
	// Old and New are the median calibrations, µs per unit, over OldN and
	// NewN probes.
	Old  float64 `json:"old_us"`
	New  float64 `json:"new_us"`
	OldN int     `json:"old_probes"`
	NewN int     `json:"new_probes"`
	// Ratio is New over Old (above 1: the machine was slower during the
	// new file's runs); Low and High its interval at Confidence
	// (RatioInterval over the probes).
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"low,omitempty"`
	High  float64 `json:"high,omitempty"`
	// OldRunnable and NewRunnable are the median threads of other
	// processes ready to run at the probes, where known (-1 otherwise).
	OldRunnable float64 `json:"old_runnable"`
	NewRunnable float64 `json:"new_runnable"`
	// Tolerance is the largest move the comparison can absorb: half the
	// regression it looks for. Changed says the whole interval lies
	// beyond it, either way; Why says so in a sentence.
	Tolerance float64 `json:"tolerance"`
	Changed   bool    `json:"changed"`
	Why       string  `json:"why"`
}

// defaultMachineTolerance is the tolerance of a comparison without a
// threshold (it reports whether the machine changed, and judges nothing).
const defaultMachineTolerance = 0.05

// machineShift measures how the machine moved between two files; nil when
// either has no calibrated run. A machine slower or faster by more than
// half the threshold, beyond the noise of its probes, changed: a move of
// that size could make, or hide, a regression of the threshold's size in
// throughput or latency, which follow how much of the CPUs a run got.
func machineShift(old, new *result.Suite, maxRegression float64) *MachineShift {
	oc, or := calibrations(old)
	nc, nr := calibrations(new)
	if len(oc) == 0 || len(nc) == 0 {
		return nil
	}
	m := &MachineShift{Old: StatsOf(oc).Median, New: StatsOf(nc).Median, OldN: len(oc), NewN: len(nc),
		OldRunnable: medianOr(or, -1), NewRunnable: medianOr(nr, -1), Tolerance: maxRegression / 2}
	if m.Tolerance <= 0 {
		m.Tolerance = defaultMachineTolerance
	}
	m.Ratio = m.New / m.Old
	lo, hi := m.Ratio, m.Ratio
	if iv, ok := RatioInterval(nc, oc); ok {
		m.Low, m.High, lo, hi = iv.Lo, iv.Hi, iv.Lo, iv.Hi
	}
	m.Changed = lo > 1+m.Tolerance || hi < 1/(1+m.Tolerance)
	m.Why = m.sentence()
	return m
}

// sentence says how the machine moved: "the machine was 38% slower during
// NEW: calibration 2.10µs vs 1.50µs (medians of 10 and 10 probes, 90%
// interval ×1.25–×1.52; 9.0 vs 7.0 other runnable threads); not a valid
// comparison of throughput or latency".
func (m *MachineShift) sentence() string {
	word, pct := "slower", 100*(m.Ratio-1)
	if m.Ratio < 1 {
		word, pct = "faster", 100*(1-m.Ratio) // its unit of work took that much less time
	}
	s := fmt.Sprintf("the machine was %.0f%% %s during NEW: calibration %s vs %s (medians of %d and %d probes", pct, word, units.Micros(m.New), units.Micros(m.Old), m.NewN, m.OldN)
	if m.Low > 0 {
		s += fmt.Sprintf(", %.0f%% interval ×%s–×%s", 100*Confidence, units.Sig3(m.Low), units.Sig3(m.High))
	}
	if m.OldRunnable >= 0 && m.NewRunnable >= 0 {
		s += fmt.Sprintf("; %s vs %s other runnable threads", units.Fixed(m.NewRunnable, 1), units.Fixed(m.OldRunnable, 1))
	}
	s += ")"
	if m.Changed {
		return s + fmt.Sprintf("; beyond the %.0f%% a comparison at this threshold absorbs: not a valid comparison of throughput or latency", 100*m.Tolerance)
	}
	return s + fmt.Sprintf("; its probes show no move beyond the %.0f%% this comparison absorbs", 100*m.Tolerance)
}

// calibrations returns every calibration (µs per unit) of a suite's runs,
// before and after each, and the other runnable threads where known.
func calibrations(s *result.Suite) (cal, runnable []float64) {
	for _, p := range s.Probes() {
		if p.CPUMicros > 0 {
			cal = append(cal, p.CPUMicros)
		}
		if p.OtherRunnable != nil {
			runnable = append(runnable, *p.OtherRunnable)
		}
	}
	return cal, runnable
}

func medianOr(vs []float64, or float64) float64 {
	if len(vs) == 0 {
		return or
	}
	return StatsOf(slices.Clone(vs)).Median
}
