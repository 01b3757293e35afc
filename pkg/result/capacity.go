package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gobench/gobench/pkg/units"
)

// KindCapacity is the kind of a capacity search's result file.
const KindCapacity = "capacity"

// Capacity is the result of a capacity search (gobench's --find-rate):
// for every cell of a matrix, the highest open-loop rate that met the
// objectives, confirmed by a longer run, and the curve of every step
// tried on the way.
type Capacity struct {
	Kind          string   `json:"kind"` // always KindCapacity
	SchemaVersion int      `json:"schema_version"`
	Command       string   `json:"command"`
	Args          []string `json:"args,omitempty"`
	Tool          Tool     `json:"tool"`
	// Objectives are the conditions every step is judged by, as written;
	// MaxErrorShare and MinAchieved the implicit ones: at most this share
	// of a step's ops may fail, and it must complete at least this share
	// of the ops it was offered.
	Objectives    []string `json:"objectives"`
	MaxErrorShare float64  `json:"max_error_share"`
	MinAchieved   float64  `json:"min_achieved"`
	// Tolerance is the bisection's end: the found rate is within this
	// share of the lowest rate that failed.
	Tolerance   float64 `json:"tolerance"`
	StepSeconds float64 `json:"step_seconds"`
	// Confirmations runs of ConfirmFactor steps each confirmed the rate
	// found.
	Confirmations int     `json:"confirmations"`
	ConfirmFactor float64 `json:"confirm_factor"`
	// Varied names the settings that differ between cells; Baseline is the
	// cell factors are computed against.
	Varied   []string        `json:"varied,omitempty"`
	Baseline Settings        `json:"baseline,omitempty"`
	Cells    []CapacityCurve `json:"cells"`
	Gates    []Gate          `json:"gates,omitempty"`
}

// CapacityCurve is one cell's search.
type CapacityCurve struct {
	Settings Settings `json:"settings"`
	// Found says a rate met every objective and its confirmation did too;
	// Rate is that rate (ops/s over all workers), Confirmed the
	// confirmation's step.
	Found     bool          `json:"found"`
	Rate      float64       `json:"rate"`
	Confirmed *CapacityStep `json:"confirmed,omitempty"`
	// Ceiling is the closed-loop probe's throughput (or the given maximum
	// rate): no rate above it was tried.
	Ceiling float64 `json:"ceiling"`
	// Steps are every open-loop run, in the order they ran,
	// confirmations included.
	Steps []CapacityStep `json:"steps"`
	// Complete is false when the search was interrupted or a step failed
	// to run; the steps so far are kept.
	Complete bool     `json:"complete"`
	Problems []string `json:"problems,omitempty"`
	// Environment is the first step's.
	Environment Environment `json:"environment"`
	// DiskBefore and DiskAfter are the disk's fsync rate measured just
	// before the search's first step and just after its last (see
	// Ceiling): a machine whose disk slowed under the search's load shows
	// here, and its late steps, confirmations included, ran on it.
	DiskBefore *Ceiling `json:"disk_before,omitempty"`
	DiskAfter  *Ceiling `json:"disk_after,omitempty"`
}

// NotFound says why the search found no sustainable rate: no step met
// the objectives, not even the lowest rate tried; or single steps met up
// to a rate but no rate held through its confirmation runs (the rates
// whose confirmations failed). "" when a rate was found.
func (c CapacityCurve) NotFound() string {
	if c.Found {
		return ""
	}
	var lowest, metUpTo, confHi, confLo float64
	rounds := 0
	for i, st := range c.Steps {
		if lowest == 0 || st.Offered < lowest {
			lowest = st.Offered
		}
		if !st.Confirmation {
			if st.Met {
				metUpTo = max(metUpTo, st.Offered)
			}
			continue
		}
		if i == 0 || !c.Steps[i-1].Confirmation || c.Steps[i-1].Offered != st.Offered {
			rounds++
			confHi = max(confHi, st.Offered)
			if confLo == 0 || st.Offered < confLo {
				confLo = st.Offered
			}
		}
	}
	switch {
	case metUpTo == 0:
		return fmt.Sprintf("no step met the objectives, not even %s ops/s", units.Rate(lowest))
	case rounds == 0:
		return fmt.Sprintf("single steps met up to %s ops/s; the search ended before confirming one", units.Rate(metUpTo))
	}
	return fmt.Sprintf("single steps met up to %s ops/s, but no rate held through its confirmation runs (%d rates tried, %s down to %s ops/s)",
		units.Rate(metUpTo), rounds, units.Rate(confHi), units.Rate(confLo))
}

// CapacityStep is one open-loop run at an offered rate and what it met.
type CapacityStep struct {
	Offered  float64 `json:"offered_rate"`
	Achieved float64 `json:"achieved_rate"` // ops completed per second, failed ones included
	Ops      int64   `json:"ops"`
	Errors   int64   `json:"errors"`
	// The total's latency from each op's due time (corrected), and its
	// service time from the actual start, in microseconds.
	P50Micros        float64 `json:"p50_us"`
	P99Micros        float64 `json:"p99_us"`
	MaxMicros        float64 `json:"max_us"`
	ServiceP99Micros float64 `json:"service_p99_us"`
	// Verdicts are the objectives' gates on this step, the implicit ones
	// included; Met says all passed.
	Verdicts     []Gate  `json:"verdicts"`
	Met          bool    `json:"met"`
	Confirmation bool    `json:"confirmation,omitempty"`
	Seconds      float64 `json:"seconds"`
}

// ReadCapacity decodes a capacity result, bounded as Read bounds a run.
func ReadCapacity(r io.Reader) (*Capacity, error) {
	b, err := readFile(r)
	if err != nil {
		return nil, err
	}
	return decodeCapacity(b)
}

func decodeCapacity(b []byte) (*Capacity, error) {
	var c Capacity
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("decoding a capacity result: %w", err)
	}
	if c.Kind != KindCapacity {
		return nil, fmt.Errorf("%w: kind %q is not a capacity result", ErrNotResult, c.Kind)
	}
	return &c, nil
}

// ReadAny decodes a result file of any kind a report renders: a capacity
// search (*Capacity), a book of suites (*Book), gobench choose's answer
// (*Choice), or a run or a suite (as a *Suite, see ReadSuite).
func ReadAny(r io.Reader) (any, error) {
	b, err := readFile(r)
	if err != nil {
		return nil, err
	}
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &head); err == nil && head.Kind == KindCapacity {
		return decodeCapacity(b)
	}
	switch head.Kind {
	case BookKind:
		return decodeBook(b)
	case ChoiceKind:
		return decodeChoice(b)
	}
	return ReadSuite(bytes.NewReader(b))
}

// Write encodes the capacity result as indented JSON.
func (c *Capacity) Write(w io.Writer) error { return writeIndented(w, c) }
