package preset

import (
	"errors"
	"io"
	"os"

	"github.com/gobench/gobench/pkg/replay"
	"github.com/gobench/gobench/pkg/workload"
)

// FoldReplay returns a replay cell folded into another number of time
// slices (replay.Options.Fold; 1 is none), its replay built again from
// its trace (read from the path the plan names, as its workers read it);
// the rest of the cell as it was. A step of gobench replay --find-scale
// --by fold.
func FoldReplay(p *workload.Plan, fold int) (*workload.Plan, error) {
	r := p.Replay
	if r == nil {
		return nil, errors.New("the cell replays no trace")
	}
	o := replay.Options{Trace: r.Trace, Database: r.Database, Speed: r.Speed, Order: r.Order, Procs: r.Fold, Scale: max(r.Scale, 1), Fold: fold}
	if w := r.Window; w != nil {
		o.Window = &workload.ReplayWindow{From: w.From, To: w.To}
	}
	if s := r.Select; s != nil {
		o.Select = &workload.ReplaySelect{ReadOnly: s.ReadOnly, Include: s.Include, Exclude: s.Exclude}
	}
	open := func() (io.ReadCloser, error) { return os.Open(r.Trace) }
	folded, _, err := replay.Build(open, o)
	if err != nil {
		return nil, err
	}
	folded.AsCaptured = r.AsCaptured
	q := *p
	q.Replay = folded
	q.Procs, q.Goroutines = folded.Procs, len(folded.Workers)/folded.Procs
	ph := p.Phases[0]
	ph.Ops = 0
	for _, w := range folded.Workers {
		ph.Ops = max(ph.Ops, w.Statements)
	}
	q.Phases = []workload.Phase{ph}
	return &q, q.Validate()
}
