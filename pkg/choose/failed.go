package choose

import "fmt"

// EveryFailed returns, when p has a power-cut run for every candidate and
// each of them failed (failed holds why, by Candidate.Name), one error
// saying so once, wrapping the first candidate's: the workload's own fault, such as a script's syntax
// error, that a table of unranked rows would repeat on every row. Where
// only some failed, it returns nil, and each row says why.
func EveryFailed(p *Plan, failed map[string]error) error {
	if len(p.Candidates) == 0 || len(p.Crash) != len(p.Candidates) {
		return nil
	}
	var first string
	var firstWhy error
	same := true
	for i, c := range p.Candidates {
		why, ok := failed[c.Name()]
		if p.Crash[i] == nil || !ok {
			return nil
		}
		if i == 0 {
			first, firstWhy = c.Name(), why
		}
		same = same && why.Error() == firstWhy.Error()
	}
	if same && len(p.Candidates) > 1 {
		return fmt.Errorf("every candidate's power-cut run failed, so nothing was measured: %w", firstWhy)
	}
	return fmt.Errorf("every candidate's power-cut run failed, so nothing was measured (the first, %s: %w)", first, firstWhy)
}
