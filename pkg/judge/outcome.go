package judge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// ErrInconclusive marks verdicts the data could not decide: a gate whose
// interval straddles its threshold, a percentile from too few samples, a
// comparison whose noise is wider than the change it looks for, or one
// between machines that changed. Commands exit with a code of its own for
// it, unless an inconclusive verdict is to count as passed.
var ErrInconclusive = errors.New("inconclusive")

// InconclusiveError lists the verdicts that could not decide, one line
// each.
type InconclusiveError struct {
	Verdicts []string
}

// Error returns the verdicts, one per line.
func (e *InconclusiveError) Error() string { return strings.Join(e.Verdicts, "\n") }

// Is makes errors.Is(err, ErrInconclusive) true.
func (e *InconclusiveError) Is(target error) bool { return target == ErrInconclusive }

// Inconclusive is what an inconclusive verdict counts as: a failure of
// its own kind (InconclusiveFails, the default) or a pass.
type Inconclusive string

// The two policies for an inconclusive verdict.
const (
	InconclusiveFails  Inconclusive = "fail"
	InconclusivePasses Inconclusive = "pass"
)

// ParseInconclusive reads --inconclusive: "fail" or "pass".
func ParseInconclusive(s string) (Inconclusive, error) {
	switch p := Inconclusive(s); p {
	case InconclusiveFails, InconclusivePasses:
		return p, nil
	}
	return "", fmt.Errorf("--inconclusive %q: want fail (an inconclusive verdict fails with its own exit code) or pass", s)
}

// GateError returns the error the gates' verdicts amount to: a
// ThresholdError naming every gate that failed; else, when an
// inconclusive verdict fails, an InconclusiveError naming every
// inconclusive gate; else nil.
func GateError(gates []result.Gate, p Inconclusive) error {
	var fails, unsure []string
	for _, g := range gates {
		switch g.OutcomeOf() {
		case result.OutcomeFail:
			fails = append(fails, g.Verdict)
		case result.OutcomeInconclusive:
			unsure = append(unsure, g.Verdict)
		}
	}
	switch {
	case fails != nil:
		return &ThresholdError{Failures: fails}
	case unsure != nil && p != InconclusivePasses:
		return &InconclusiveError{Verdicts: unsure}
	}
	return nil
}

// GatesSummary is the one line that counts the verdicts, what failed
// first: "3 gates: 1 failed, 1 inconclusive, 1 passed".
func GatesSummary(gates []result.Gate) string {
	failed, unsure := result.GatesFailed(gates), result.GatesInconclusive(gates)
	var parts []string
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", failed))
	}
	if unsure > 0 {
		parts = append(parts, fmt.Sprintf("%d inconclusive", unsure))
	}
	if passed := len(gates) - failed - unsure; passed > 0 || parts == nil {
		parts = append(parts, fmt.Sprintf("%d passed", passed))
	}
	noun := "gates"
	if len(gates) == 1 {
		noun = "gate"
	}
	return fmt.Sprintf("%d %s: %s", len(gates), noun, strings.Join(parts, ", "))
}
