package workload

import (
	"errors"
	"time"
)

// MinVerifyValueSize is the smallest value that holds a verify tag.
const MinVerifyValueSize = 32

// WriteRecord is one write op as the coordinator saw it: whose, which in
// the worker's sequence, when (offsets from the phase's START, on the
// clock every process shares), and whether it was acknowledged. Start is
// when the op began; End when it was acknowledged: when the op returned,
// or for an op in a batch when the batch's COMMIT returned.
type WriteRecord struct {
	Worker, Phase int
	Seq           uint64
	Start, End    time.Duration
	Acked         bool
}

// VerifyReport is what Verify found.
type VerifyReport struct {
	// Integrity is "ok", the engine's complaint, or "not available" for
	// engines without a check.
	Integrity   string   `json:"integrity"`
	KeysChecked uint64   `json:"keys_checked"`
	AckedWrites int64    `json:"acked_writes"`
	Violations  int64    `json:"violations"`
	Examples    []string `json:"examples,omitempty"`
	// Invariants is how many invariants a sql workload's check tested
	// (see CheckSQL), in place of keys; AckedWrites then counts its
	// acknowledged transactions.
	Invariants int `json:"invariants,omitempty"`
	// InDoubt counts, after a run in which workers died (VerifyDied),
	// the keys holding a value one of them wrote after the last write it
	// reported: committed, but never acknowledged to the coordinator, so
	// neither a lost write nor a violation.
	InDoubt int64 `json:"in_doubt,omitempty"`
}

// ErrVerify marks a verification that found lost or impossible writes.
var ErrVerify = errors.New("verification failed")
