package result

import (
	"crypto/sha256"
	"encoding/hex"
)

// PlanHash returns the hash of a run's workload: the SHA-256 of its
// command and of everything in its plan that is not a matrix setting, a
// path or a shard (what SameWorkload compares), in hex. Two runs of the
// same workload share it whatever their cells' settings (journal, procs,
// driver) and wherever their databases lay; runs of unlike workloads
// (another seed, mix, op count, schema) never do. A results history
// keys its series by it and by the cell's settings.
func PlanHash(r *Result) string {
	h := sha256.New()
	h.Write([]byte(r.Command))
	h.Write([]byte{0})
	h.Write(workloadOf(r))
	return hex.EncodeToString(h.Sum(nil))
}
