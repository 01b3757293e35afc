package workload

import (
	"errors"
	"fmt"
	"path/filepath"
)

// replaySource is a replayed trace's source as plan data: its kinds,
// writes and descriptions. Its dealers and pacers read the trace: they
// are package replay's (replay.Source), which a host hands its workers
// through Shared.Use.
type replaySource struct{}

func (replaySource) Name() string { return "trace" }

func (replaySource) Kinds(p *Plan, _ *Phase) []Op {
	ops := make([]Op, len(p.Replay.Kinds))
	for i, k := range p.Replay.Kinds {
		ops[i] = k.Op
	}
	return ops
}

func (replaySource) Writes(p *Plan, _ *Phase) float64 {
	if p.Replay.Statements == 0 {
		return 0
	}
	return float64(p.Replay.Commits) / float64(p.Replay.Statements)
}

func (s replaySource) Describe(p *Plan, _ bool) string {
	r := p.Replay
	conns := 0
	for _, w := range r.Workers {
		if w.Stream != 0 {
			conns++
		}
	}
	return fmt.Sprintf("trace %s · database %s · %d statements on %d connections · %s", filepath.Base(r.Trace), r.Database, r.Statements, conns, s.Brief(p))
}

func (replaySource) Brief(p *Plan) string {
	return fmt.Sprintf("speed %s · order %s", SpeedName(p.Replay.Speed), p.Replay.Order)
}

// SpeedName names a replay's speed as --speed reads it: max, 1x, 2x, 0.5x.
func SpeedName(speed float64) string {
	if speed == 0 {
		return "max"
	}
	return fmt.Sprintf("%gx", speed)
}

func (replaySource) Dealer(*Plan, int, int, *Shared) (Dealer, error) {
	return nil, errors.New("a replayed trace's statements are dealt by package replay's source (replay.NewSource, then Shared.Use)")
}

// Timed reports whether the replay's statements are due when captured (a
// speed) rather than back to back.
func (replaySource) Timed(p *Plan) bool { return p.Replay.Speed > 0 }

var _ Timed = replaySource{}
