package deal

import "github.com/gobench/gobench/pkg/workload"

// Deal is one op as a Dealer dealt it: what the worker runs next. The
// slices it holds are the dealer's, valid until its next Deal.
type Deal struct {
	// Op is the op's kind.
	Op workload.Op
	// Key is a key-value op's key, or a record op's keynum.
	Key uint64
	// Value is what a key-value write writes.
	Value []byte
	// ScanLen is how many keys (or records) a scan reads.
	ScanLen int
	// Record, set for a record op, is its record's key; ReadField and
	// WriteField the field it reads and the one it writes (-1: every
	// field); Values what it writes.
	Record     []byte
	ReadField  int
	WriteField int
	Values     [][]byte
	// Seq numbers the op among the worker's writes in the phase (a
	// key-value write's, whose value's Tag carries it), or among its
	// scripts: a --crash run's acknowledgements name it.
	Seq uint64
	// Args, for a script, are the values each of its statements binds,
	// in the order of its statements; Err, when set, is why the op cannot
	// run: it fails with Err when it comes to run.
	Args [][]any
	Err  error
	// Claimed says the op's keynum was claimed from the run's shared
	// Counter: the dealer must be told (Dealer.Release) once the op is
	// over, committed, failed or never run.
	Claimed bool
	// Recency, set for a latest read (workload.OpLatest), draws how far
	// back from the newest appended key it reads.
	Recency *Recency
	// Action, when set, is an op the source runs itself (a replayed
	// trace's statement): the worker runs it in place of Op's own code.
	Action Action
}

// Dealer deals one worker's ops in one phase. It is used by one goroutine.
// A Dealer that holds something to release (a trace's file) is also an
// io.Closer: the worker closes it when its phase ends.
type Dealer interface {
	// Deal deals the next op into d. ErrDealt ends the worker's phase;
	// another error stops the worker.
	Deal(d *Deal) error
	// Len returns how many ops the dealer deals in all, or 0 when the
	// phase's op count or duration bounds them.
	Len() int64
	// Release tells the dealer that the op it dealt with keynum, which
	// it claimed (Deal.Claimed), is over.
	Release(keynum uint64) error
}

// Shared is what the workers of one host share of a plan's sources: the
// key chooser's tables, a record workload's generators and its insert
// counter, and the source that deals where its dealing lives in a package
// of its own (Use). Build it once per host with NewShared.
type Shared struct {
	keys keyChooser
	src  workload.Source
}

// Use makes src the source of the dealers and pacers of the workers that
// share s, in place of the one the plan's data names: a source whose
// dealing reads what plan data cannot hold (a trace: package replay's).
func (s *Shared) Use(src workload.Source) { s.src = src }

// source returns the source of phase ph of p for the workers that share
// s: the one s uses, or the plan's.
func (s *Shared) source(p *workload.Plan, ph *workload.Phase) workload.Source {
	if s != nil && s.src != nil {
		return s.src
	}
	return p.Source(ph)
}
