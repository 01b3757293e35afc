package sqltrace

import (
	"fmt"
	"sort"
)

// Order is a database's order of commits as a trace records it: every
// state the database went through gets a number, 0 for the state the
// capture began from, n for the state after the n-th commit. A
// transaction that saw state k (Exec.Snap) ran between commits k and k+1;
// a commit that made state k came after every transaction that saw k-1.
//
// The counters a trace records restart (a WAL index rebuilt, a database
// leaving WAL mode: Segment records), so states are numbered per segment
// and segments follow one another by time: a segment's marker is written
// while its connection holds every lock, so no transaction straddles it.
type Order struct {
	Path     string
	segments []*orderSegment // sorted by start
	// Commits counts the commits recorded; Missing those the counters
	// say happened but no record holds (a process that was not captured
	// wrote to the database, or a part was lost).
	Commits, Missing int64
	// Kinds are the kinds of counter the trace used for this database.
	Kinds []StateKind
	// Streams lists the streams whose StateSeq states order this
	// database: those of one process order only its own commits.
	seqStreams map[uint64]bool
	// numbered counts the states after the first, once finished.
	numbered int64
}

// orderSegment is a stretch of time over which a database's counter ran
// without restarting.
type orderSegment struct {
	start         int64 // when its marker was written (the first: none)
	reason        uint8
	kind          StateKind
	first, last   uint64 // the values of its first and last commits
	commits       int64
	base          int64 // the states of the segments before it
	minSnap       uint64
	hasCommits    bool
	hasSnaps      bool
	inconsistency string
}

// newOrder starts the order of the database at path.
func newOrder(path string) *Order {
	return &Order{Path: path, segments: []*orderSegment{{start: -1 << 63}}, seqStreams: map[uint64]bool{}}
}

// addSegment notes a segment marker (first pass).
func (o *Order) addSegment(s Segment) {
	o.segments = append(o.segments, &orderSegment{start: s.Time, reason: s.Reason})
}

// sortSegments orders the segments by time (before the second pass).
func (o *Order) sortSegments() {
	sort.SliceStable(o.segments, func(i, j int) bool { return o.segments[i].start < o.segments[j].start })
}

// segmentAt returns the segment of an event at time t.
func (o *Order) segmentAt(t int64) *orderSegment {
	i := sort.Search(len(o.segments), func(i int) bool { return o.segments[i].start >= t })
	if i == 0 {
		return o.segments[0]
	}
	return o.segments[i-1]
}

// addState notes a state an Exec saw or made (second pass).
func (o *Order) addState(stream uint64, s State, commit bool) {
	if s.Kind == StateNone {
		return
	}
	if s.Kind == StateSeq {
		o.seqStreams[stream] = true
	}
	o.noteKind(s.Kind)
	seg := o.segmentAt(s.At)
	if seg.kind == StateNone {
		seg.kind = s.Kind
	} else if seg.kind != s.Kind && seg.inconsistency == "" {
		seg.inconsistency = fmt.Sprintf("counters of two kinds (%d, %d) between two restarts", seg.kind, s.Kind)
	}
	if !commit {
		if !seg.hasSnaps || s.Value < seg.minSnap {
			seg.minSnap = s.Value
		}
		seg.hasSnaps = true
		return
	}
	o.Commits++
	seg.commits++
	if !seg.hasCommits || s.Value < seg.first {
		seg.first = s.Value
	}
	if !seg.hasCommits || s.Value > seg.last {
		seg.last = s.Value
	}
	seg.hasCommits = true
}

func (o *Order) noteKind(k StateKind) {
	for _, x := range o.Kinds {
		if x == k {
			return
		}
	}
	o.Kinds = append(o.Kinds, k)
}

// finish numbers the segments' states once every commit is known: as
// many in a segment as its counter moved. Two records of one commit (a
// statement that ran while its connection or another committed, and
// recorded that commit too: a cursor kept open across it, a BEGIN
// IMMEDIATE whose stale snapshot made it let the write lock go) number
// one state, which its commit makes; counting each numbered a state no
// commit makes, and every state after it waited for it.
func (o *Order) finish() {
	var base int64
	for _, seg := range o.segments {
		seg.base = base
		if seg.hasCommits {
			span := int64(seg.last-seg.first) + 1
			if span > seg.commits {
				o.Missing += span - seg.commits
			}
			base += span
		}
	}
	o.numbered = base
}

// States returns how many states the database went through: one per
// commit the counters numbered (the missing ones too), plus the first.
func (o *Order) States() int64 { return o.numbered + 1 }

// Position returns the number of the state s names: the state a
// transaction saw, or the state a commit made. ok is false for a state of
// no kind, or one the order cannot place.
func (o *Order) Position(s State) (pos int64, ok bool) { return o.Table().Position(s) }

// Table returns the order as plain data, which places states as the order
// does (a replay's plan carries it to its worker processes).
func (o *Order) Table() OrderTable {
	t := make(OrderTable, len(o.segments))
	for i, seg := range o.segments {
		t[i] = OrderSegment{Start: seg.start, Kind: seg.kind, First: seg.first, Commits: seg.hasCommits, Base: seg.base}
	}
	return t
}

// OrderTable is a database's order of commits as plain data: its
// segments, in order of time.
type OrderTable []OrderSegment

// OrderSegment is a stretch of time over which a database's counter ran
// without restarting: from Start (monotonic ns) to the next segment's,
// counted by Kind, its first commit made value First (if it has Commits),
// the states of the segments before it numbering Base.
type OrderSegment struct {
	Start   int64     `json:"start"`
	Kind    StateKind `json:"kind"`
	First   uint64    `json:"first,omitempty"`
	Commits bool      `json:"commits,omitempty"`
	Base    int64     `json:"base"`
}

// Position returns the number of the state s names (see Order.Position).
func (t OrderTable) Position(s State) (pos int64, ok bool) {
	if s.Kind == StateNone || len(t) == 0 {
		return 0, false
	}
	i := sort.Search(len(t), func(i int) bool { return t[i].Start >= s.At })
	if i > 0 {
		i--
	}
	seg := t[i]
	if seg.Kind != s.Kind {
		return 0, false
	}
	if !seg.Commits || s.Value+1 < seg.First {
		return seg.Base, true // before the segment's first commit
	}
	return seg.Base + int64(s.Value+1-seg.First), true
}

// Exact reports whether the order places every transaction exactly, and
// if not why not: commits missing, counters of one process only, a
// segment of mixed counters.
func (o *Order) Exact() (bool, string) {
	if o.Missing > 0 {
		return false, fmt.Sprintf("%d commits are missing from the trace (a process that was not captured wrote to the database?)", o.Missing)
	}
	if len(o.seqStreams) > 1 {
		return false, fmt.Sprintf("%d processes recorded their own order of commits (the Go wrapper) and nothing orders them across processes", len(o.seqStreams))
	}
	for _, seg := range o.segments {
		if seg.inconsistency != "" {
			return false, seg.inconsistency
		}
	}
	return true, ""
}

// Method names how the order was recorded.
func (o *Order) Method() string {
	if len(o.Kinds) == 0 {
		return "none recorded"
	}
	s := ""
	for i, k := range o.Kinds {
		if i > 0 {
			s += " and "
		}
		switch k {
		case StateFile:
			s += "the database file's change counter"
		case StateWAL:
			s += "the WAL index's counter"
		case StateSeq:
			s += "the order commits returned in (Go wrapper)"
		}
	}
	return s
}
