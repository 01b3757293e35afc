package deal

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/workload"
)

// Random streams of one worker in one phase. Each has its own generator so
// that, for example, a change of key distribution leaves the op sequence
// alone.
const (
	streamOps    = 1
	streamKeys   = 2
	streamValues = 3
	// streamPreload seeds the values the coordinator preloads.
	streamPreload = 4
	// streamArrivals seeds an open-loop schedule.
	streamArrivals = 5
	// streamScripts seeds a worker's \set expressions in a sql workload.
	streamScripts = 6
	// streamAppends seeds the permutation of a worker's appended keys
	// (workload.AppendRandom).
	streamAppends = 7
	// streamLatest seeds how far back from the newest appended key a
	// worker's latest reads read (Recency).
	streamLatest = 8
)

// newRand returns a PCG generator for one stream. PCG's output for a seed
// is fixed by the math/rand/v2 specification, so sequences are stable
// across Go releases.
func newRand(seed uint64, worker, phase, stream int) *rand.Rand {
	s := workload.WorkerSeed(seed, worker, phase, stream)
	return rand.New(rand.NewPCG(s, workload.SplitMix64(s)))
}

// fillRandom fills b with uniformly random bytes: incompressible.
func fillRandom(b []byte, r *rand.Rand) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	if i < len(b) {
		x := r.Uint64()
		for ; i < len(b); i++ {
			b[i] = byte(x)
			x >>= 8
		}
	}
}

const valueAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// fillValue fills b with printable characters (a 64-character value is a
// 64-byte string), ten characters per 64-bit draw.
func fillValue(b []byte, r *rand.Rand) {
	for i := 0; i < len(b); {
		x := r.Uint64()
		for j := 0; j < 10 && i < len(b); j++ {
			b[i] = valueAlphabet[x&63]
			x >>= 6
			i++
		}
	}
}
