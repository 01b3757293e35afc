package workload

import (
	"errors"
	"strconv"
	"time"
)

// MinVerifyValueSize is the smallest value that holds a verify tag.
const MinVerifyValueSize = 32

// Tag identifies the write that produced a value: worker, phase and the
// worker's write sequence number in that phase (counting every write op
// dealt, acknowledged or not), or the preload.
type Tag struct {
	Worker, Phase int
	Seq           uint64
	Preload       bool
}

const (
	tagPrefix  = "gbv1:"
	preloadTag = "gbv1:preload:"
	tagLen     = 30 // "gbv1:" + 8 hex + ":" + 2 hex + ":" + 12 hex + ":"
)

// PutTag writes the tag of worker's write seq in run phase phase at the
// start of v, which holds at least MinVerifyValueSize bytes (see ParseTag).
func PutTag(v []byte, worker, phase int, seq uint64) {
	b := append(v[:0], tagPrefix...)
	b = appendHex(b, uint64(worker), 8)
	b = append(b, ':')
	b = appendHex(b, uint64(phase), 2)
	b = append(b, ':')
	b = appendHex(b, seq, 12)
	_ = append(b, ':')
}

func appendHex(b []byte, v uint64, width int) []byte {
	const digits = "0123456789abcdef"
	for i := width - 1; i >= 0; i-- {
		b = append(b, digits[(v>>(4*uint(i)))&15])
	}
	return b
}

// ParseTag reads the tag at the start of a value.
func ParseTag(v []byte) (Tag, bool) {
	if len(v) >= len(preloadTag) && string(v[:len(preloadTag)]) == preloadTag {
		return Tag{Preload: true}, true
	}
	if len(v) < tagLen || string(v[:len(tagPrefix)]) != tagPrefix || v[13] != ':' || v[16] != ':' || v[29] != ':' {
		return Tag{}, false
	}
	w, err1 := strconv.ParseUint(string(v[5:13]), 16, 32)
	p, err2 := strconv.ParseUint(string(v[14:16]), 16, 8)
	s, err3 := strconv.ParseUint(string(v[17:29]), 16, 48)
	if err1 != nil || err2 != nil || err3 != nil {
		return Tag{}, false
	}
	return Tag{Worker: int(w), Phase: int(p), Seq: s}, true
}

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
