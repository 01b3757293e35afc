package workload

// Timed is a Source whose own pace gives its ops due times (a replay at a
// speed): their latency counts from when each was due, as in an open
// loop.
type Timed interface {
	// Timed reports whether p's ops have due times.
	Timed(p *Plan) bool
}

// Timed reports whether p's ops have due times, so that a result records
// each one's lag and service time beside its latency: an open loop at a
// rate, or a Timed source's.
func (p *Plan) Timed() bool {
	if p.Rate > 0 || p.RolesPaced() {
		return true
	}
	if len(p.Phases) == 0 {
		return false
	}
	t, ok := p.Source(&p.Phases[0]).(Timed)
	return ok && t.Timed(p)
}
