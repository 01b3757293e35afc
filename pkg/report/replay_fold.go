package report

import (
	"fmt"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// foldLine says what a folded replay (workload.ReplayFold) ran: its
// slices, and the rate it offered and achieved against the capture's;
// nil for a replay not folded.
func foldLine(r *result.Result, ph result.Phase) []string {
	rp := r.Plan.Replay
	f := rp.TimeFold
	if f == nil {
		return nil
	}
	// the capture's rate at the replay's speed: what a replay not folded offers
	base, at := f.CapturedRate, ""
	if rp.Speed > 0 && rp.Speed != 1 {
		base, at = base*rp.Speed, " at "+workload.SpeedName(rp.Speed)
	}
	copies := float64(max(rp.Scale, 1))
	offered := "no pace (--speed max: each connection back to back)"
	if f.OfferedRate > 0 && rp.Speed > 0 {
		offered = fmt.Sprintf("%s statements/s (×%.2f the captured%s)", units.Rate(f.OfferedRate*copies), f.OfferedRate*copies/base, at)
	}
	line := fmt.Sprintf("%s · captured %s statements/s · offered %s", f, units.Rate(f.CapturedRate), offered)
	if ph.WallSeconds > 0 {
		achieved := float64(ph.Total.Count) / ph.WallSeconds
		line += fmt.Sprintf(" · achieved %s statements/s (×%.2f the captured%s)", units.Rate(achieved), achieved/base, at)
	}
	return []string{line}
}
