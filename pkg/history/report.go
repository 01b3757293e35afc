package history

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Report is what history show and history gate print: the history, what
// was asked, every series found, and the gate's verdicts (nil for show).
type Report struct {
	History string   `json:"history"`
	Figures []string `json:"figures"`
	Branch  string   `json:"branch,omitempty"`
	Where   string   `json:"where,omitempty"`
	// Since is the earliest start of a run shown; zero: all.
	Since  time.Time `json:"since,omitzero"`
	Series []*Series `json:"series"`
	// Gate holds the gate's verdict of each series, for history gate;
	// MaxRegression its threshold.
	Gate          []GateVerdict `json:"gate,omitempty"`
	MaxRegression float64       `json:"max_regression,omitempty"`
}

// Failed says whether the gate failed on any series.
func (r *Report) Failed() bool {
	for _, v := range r.Gate {
		if v.Fail {
			return true
		}
	}
	return false
}

// maxSince is the longest span --since takes: a hundred years.
const maxSince = 100 * 365 * 24 * time.Hour

// ParseSince reads --since: a span back from now ("30d", "12h", "2w",
// any Go duration) or a date ("2026-11-01", or RFC 3339).
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, unit := range []struct {
		suffix string
		d      time.Duration
	}{{"d", 24 * time.Hour}, {"w", 7 * 24 * time.Hour}} {
		if n, ok := strings.CutSuffix(s, unit.suffix); ok {
			if v, err := strconv.ParseFloat(n, 64); err == nil && v >= 0 && v*float64(unit.d) < float64(maxSince) {
				return now.Add(-time.Duration(v * float64(unit.d))), nil
			}
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a span back from now (30d, 2w, 12h) or a date (2026-11-01)", s)
}
