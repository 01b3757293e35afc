package workload

// ReplayCaptured is what a trace says of the application's own run: the
// settings its statements set (PRAGMA journal_mode = wal, …) and how
// long its statements took when captured. A replay's first cell runs
// with those settings ("as captured"), and its report sets the
// capture's timings beside the replay's.
type ReplayCaptured struct {
	// Settings are the settings PRAGMAs the application ran on the
	// database replayed, one per pragma: the value it set most often.
	Settings []CapturedSetting `json:"settings,omitempty"`
	// Kinds are the capture's timings of each op kind of the replay (by
	// ReplayKind.ID), Total of every statement replayed.
	Kinds []CapturedTiming `json:"kinds,omitempty"`
	Total CapturedTiming   `json:"total"`
	// SQLiteVersions are the SQLite libraries the application's processes
	// ran on, as the capture noted them (sqltrace.VersionNote): none in a
	// trace of an older capture.
	SQLiteVersions []string `json:"sqlite_versions,omitempty"`
}

// CapturedSetting is a setting the application set with a PRAGMA.
type CapturedSetting struct {
	// Pragma names it (journal_mode) and Value is the value set, in lower
	// case (wal); SQL is the statement as first captured, Count how often
	// the application set it, Values how many other values it also set.
	Pragma string `json:"pragma"`
	Value  string `json:"value"`
	SQL    string `json:"sql"`
	Count  int64  `json:"count"`
	Others int    `json:"others,omitempty"`
	// Flag is the run's setting that takes the value in the cell as
	// captured (journal, sync, busy-timeout, checkpoint) and Cell the
	// value it takes; "" for a setting the statements themselves set
	// again in every cell, or one no cell can take (NotApplied says why).
	Flag       string `json:"flag,omitempty"`
	Cell       string `json:"cell,omitempty"`
	NotApplied string `json:"not_applied,omitempty"`
}

// CapturedTiming is how long statements took when captured: from each
// one's first step to its last, as the application saw it.
type CapturedTiming struct {
	Kind        string  `json:"kind,omitempty"`
	Count       int64   `json:"count"`
	Errors      int64   `json:"errors"`
	TotalMicros float64 `json:"total_us"`
	MeanMicros  float64 `json:"mean_us"`
	P50Micros   float64 `json:"p50_us"`
	P90Micros   float64 `json:"p90_us"`
	P99Micros   float64 `json:"p99_us"`
	MaxMicros   float64 `json:"max_us"`
}

// CapturedFlags are the run's settings a replay's cell as captured takes
// from the application's PRAGMAs (ReplayCaptured.CellValues): where the
// application set none of one, that cell runs it at the setting's
// default, whatever the flags gave the other cells.
var CapturedFlags = []string{"journal", "sync", "busy-timeout", "checkpoint"}

// CellValues returns the values the cell as captured gives the run's
// settings, by flag name (journal: wal): those the application set.
func (c *ReplayCaptured) CellValues() map[string]string {
	out := map[string]string{}
	if c == nil {
		return out
	}
	for _, s := range c.Settings {
		if s.Flag != "" && s.NotApplied == "" {
			out[s.Flag] = s.Cell
		}
	}
	return out
}

// Timing returns the capture's timing of an op kind by its id ("total"
// for every statement); false when the capture has none.
func (c *ReplayCaptured) Timing(kind string) (CapturedTiming, bool) {
	if c == nil {
		return CapturedTiming{}, false
	}
	if kind == "total" {
		return c.Total, c.Total.Count > 0
	}
	for _, k := range c.Kinds {
		if k.Kind == kind {
			return k, true
		}
	}
	return CapturedTiming{}, false
}
