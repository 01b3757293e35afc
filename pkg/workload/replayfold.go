package workload

import (
	"fmt"
	"time"
)

// MaxFold is the most time slices a replay folds a capture into
// (gobench replay --fold K).
const MaxFold = 256

// ReplayFold is a capture folded onto itself by time (gobench replay
// --fold K, Oracle Database Replay's time-slice folding): the span of
// the statements replayed (the capture's, or its window's) cut into
// Slices equal slices, every slice's connections started together, each
// statement due at its offset from its slice's start. A transaction
// belongs to the slice its first statement began in, and runs whole
// there. The same captured connection in two slices is two connections
// (ReplayWorker.Slice); no statement runs twice, and the replay offers
// about Slices times the captured rate with the capture's own mix.
type ReplayFold struct {
	// Slices is K, 2 or more; Slice each slice's length.
	Slices int      `json:"slices"`
	Slice  Duration `json:"slice"`
	// Statements counts each slice's statements, schema statements
	// excluded (Schema).
	Statements []int64 `json:"statements"`
	// Schema counts the statements that wrote the schema (CREATE, DROP,
	// ALTER, not of temporary objects) and succeeded when captured: they
	// run once, in their captured order, before the slices start, so that
	// every slice finds the tables and indexes; they are not run again in
	// their slice.
	Schema int64 `json:"schema"`
	// Own names the objects (not temporary) the capture drops: their
	// schema statements, and those of the indexes and triggers on them,
	// are not of Schema but run in their slices, as captured, so that
	// the statements between a CREATE and its DROP find the table.
	Own []string `json:"own,omitempty"`
	// Span is how long the folded replay's statements take to come as
	// captured: the longest of a slice's, from its start to its last
	// statement's start, its last due time at speed 1 (a transaction
	// straddling a slice's end makes it longer than Slice).
	Span Duration `json:"span"`
	// CapturedRate is the statements a second the capture ran them at
	// (over its span, or its window's), and OfferedRate those the slices
	// offer at the replay's speed (over Span, scaled by the speed): about
	// Slices times the captured; 0 at speed max (no pace). Both count one
	// copy's under --scale.
	CapturedRate float64 `json:"captured_rate"`
	OfferedRate  float64 `json:"offered_rate,omitempty"`
}

// Runs returns how many statements the slices run: a folded replay's
// statements less its schema statements, which run once before.
func (f *ReplayFold) Runs() int64 {
	var n int64
	for _, s := range f.Statements {
		n += s
	}
	return n
}

// String says what the fold is: "fold 4: 4 slices of 2.5s each, 1200
// statements (3 schema statements of them run once first)".
func (f *ReplayFold) String() string {
	noun := "statements"
	if f.Schema == 1 {
		noun = "statement"
	}
	return fmt.Sprintf("fold %d: %d slices of %v each, %d statements (%d schema %s of them run once first)",
		f.Slices, f.Slices, roundDuration(time.Duration(f.Slice)), f.Runs()+f.Schema, f.Schema, noun)
}

// roundDuration rounds d for a line: to the millisecond from one, else
// to the microsecond.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
