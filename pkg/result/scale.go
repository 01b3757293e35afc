package result

import "io"

// KindScale is the kind of a scale search's result file.
const KindScale = "scale"

// Scale is the result of a scale search (gobench replay --find-scale):
// for every cell, the largest number of copies of a captured
// application's connections whose replay met the objectives, and every
// step tried on the way.
type Scale struct {
	Kind          string   `json:"kind"` // always KindScale
	SchemaVersion int      `json:"schema_version"`
	Command       string   `json:"command"`
	Args          []string `json:"args,omitempty"`
	Tool          Tool     `json:"tool"`
	// Objectives are the conditions every step is judged by, as written;
	// MaxScale the highest scale tried.
	Objectives []string `json:"objectives"`
	MaxScale   int      `json:"max_scale"`
	// By is what the steps grow: ScaleByCopies or ScaleByFold.
	By    string       `json:"by,omitempty"`
	Cells []ScaleCurve `json:"cells"`
}

// What a scale search grows (Scale.By, ScaleCurve.By).
const (
	// ScaleByCopies runs N copies of each captured connection
	// (gobench replay --scale N); "" in a file of an older gobench.
	ScaleByCopies = ""
	// ScaleByFold runs N time slices of the capture at once
	// (gobench replay --fold N).
	ScaleByFold = "fold"
)

// ScaleCurve is one cell's scale search.
type ScaleCurve struct {
	Settings Settings `json:"settings"`
	// Found says a scale met every objective; Scale is the largest that
	// did (every scale tried below it did too, or the search stopped
	// doubling before it).
	Found bool `json:"found"`
	Scale int  `json:"scale"`
	// By is the search's (Scale.By).
	By string `json:"by,omitempty"`
	// Steps are every run, in the order they ran.
	Steps []ScaleStep `json:"steps"`
	// Complete is false when the search was interrupted or a step failed
	// to run; the steps so far are kept.
	Complete bool     `json:"complete"`
	Problems []string `json:"problems,omitempty"`
}

// ScaleStep is one replay of a scale search: the trace at one scale.
type ScaleStep struct {
	Scale int `json:"scale"`
	// Statements counts those run, Errors those that failed (NewErrors
	// of them where the capture's had not), OpsPerSec the statements
	// completed per second of the run.
	Statements int64   `json:"statements"`
	Errors     int64   `json:"errors"`
	NewErrors  int64   `json:"new_errors"`
	OpsPerSec  float64 `json:"ops_per_sec"`
	// The total's latency (from each statement's due time at a speed), in
	// microseconds.
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	MaxMicros float64 `json:"max_us"`
	Seconds   float64 `json:"seconds"`
	// Verdicts are the objectives' gates on this step; Met says all
	// passed.
	Verdicts []Gate `json:"verdicts"`
	Met      bool   `json:"met"`
}

// Write writes the result as indented JSON.
func (s *Scale) Write(w io.Writer) error { return writeIndented(w, s) }
