package workload

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
)

// A source whose plan data is a field of Plan but whose dealing lives in a
// package of its own (a replayed trace's: package replay's) registers
// itself here, when its package is linked: Plan.Source finds it by asking
// each registered source whether a plan's data is its own (Owned.Owns).
// The registry is written once, by the registering packages' init, and
// only read after: nothing of this package names such a source or reads
// its data.

// Owned is a Source of another package that registers itself
// (RegisterSource) and is its plans' source when they hold its data.
type Owned interface {
	Source
	// Owns reports whether p's data names this source (the field it reads
	// is set).
	Owns(p *Plan) bool
	// Check checks p's data for this source, and the phases its plan may
	// have: Plan.Validate calls it, and the phases need no mix of their
	// own (the source deals its kinds). A plan with no owned source deals
	// none of the op kinds an owned one deals (IsStatement).
	Check(p *Plan) error
	// OpNames names the op kinds it deals in names, for results.
	OpNames(p *Plan, names *[MaxOp]string)
	// Recorded reports whether its ops are a recording's: compared with
	// what they did when recorded, counted as the recording's (a run
	// cannot be given more), each phase counting its commits as they
	// happened (the ops are not the transactions).
	Recorded() bool
	// Unplace clears from p's data what names the run's place rather
	// than its workload (a file beside the database), so that two runs'
	// workloads compare (Plan.Unplace).
	Unplace(p *Plan)
}

// Around is the work an owned source does around a run, outside its
// dealers: the coordinator and each host call it for any plan whose
// source is one (Plan.Around), knowing none.
type Around interface {
	// Install writes the database the run starts from at p.Store.Path,
	// which does not exist yet, in the one process that runs the cell
	// before its setup, and says so with note.
	Install(p *Plan, note func(format string, args ...any)) error
	// SetupCheck returns the check of p's store before its run, nil for
	// none.
	SetupCheck(p *Plan) func(context.Context, store.Store) error
	// Share makes, beside the database, what the run's worker processes
	// share, mapping files with m; it returns the plan they get (naming
	// it) and a function that removes it.
	Share(p *Plan, m MapFile) (workers *Plan, remove func(), err error)
	// Host returns the source the workers of one host deal from, of
	// hostWorkers of them, mapping what Share made with m when p names
	// it; release releases it.
	Host(p *Plan, hostWorkers int, m MapFile) (src Source, release func(), err error)
	// Progress returns the progress of what the workers of p (a worker
	// process's plan, naming what Share made) wait on each other for (a
	// replay's order of commits), mapped with m, for a stall watchdog: a
	// worker that waits while it moves is not stalled. It is nil when
	// they never wait so; unmap releases it.
	Progress(p *Plan, m MapFile) (progress func() int64, unmap func(), err error)
	// After checks the database at p.Store.Path once the run ended,
	// reading its tables with digest; nil when nothing is to be checked.
	After(p *Plan, digest DigestFile) *ReplayCheck
}

// Progressor is a source whose workers may wait on each other (a
// replay's order of commits, in one process): Progress counts the waits
// ended anywhere, and waits is false when its workers never wait so; a
// stall watchdog takes a waiting worker for alive while it moves.
type Progressor interface {
	Progress() (n int64, waits bool)
}

// DigestFile reads the tables of the SQLite database file at path, each
// as its digest (package dbdigest's File): a source that compares a
// database is handed it, and links no SQLite of its own.
type DigestFile func(path string) ([]sqltrace.TableDigest, error)

// MapFile maps the first size bytes of the file at path, shared with the
// other processes that map it; unmap releases the mapping.
type MapFile func(path string, size int) (mem []byte, unmap func(), err error)

// registered are the owned sources that registered, in the order they
// did.
var registered []Owned

// RegisterSource registers s, an owned source: a plan whose data s owns
// has s as its source. It is called from its package's init; it panics
// when a source of the same name registered already (a programmer's
// error).
func RegisterSource(s Owned) {
	for _, o := range registered {
		if o.Name() == s.Name() {
			panic(fmt.Sprintf("workload: source %q registered twice", s.Name()))
		}
	}
	registered = append(registered, s)
}

// owned returns the registered source that owns p's data, nil when none
// does or p has a source of its own (Custom).
func (p *Plan) owned() Owned {
	if p.Custom != nil {
		return nil
	}
	for _, o := range registered {
		if o.Owns(p) {
			return o
		}
	}
	return nil
}

// Around returns the work p's source does around a run, nil when it does
// none.
func (p *Plan) Around() Around {
	if p.Custom != nil {
		a, _ := p.Custom.(Around)
		return a
	}
	a, _ := p.owned().(Around)
	return a
}

// Recorded reports whether p's ops are a recording's (see Owned.Recorded).
func (p *Plan) Recorded() bool {
	o := p.owned()
	return o != nil && o.Recorded()
}

// Unplace clears from p's source data what names the run's place rather
// than its workload (see Owned.Unplace): two runs are of one workload when
// their plans agree once unplaced.
func (p *Plan) Unplace() {
	if o := p.owned(); o != nil {
		o.Unplace(p)
	}
}
