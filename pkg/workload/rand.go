package workload

// SplitMix64 is the finaliser of the SplitMix64 generator: a bijective
// mix of 64 bits, which seeds every stream (WorkerSeed) and sizes values
// (ValueSizeOf).
func SplitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// WorkerSeed derives the seed of one random stream of one worker in one
// phase. It depends only on its arguments: not on the store, the journal
// mode or whether workers are processes or goroutines.
func WorkerSeed(seed uint64, worker, phase, stream int) uint64 {
	h := SplitMix64(seed)
	h = SplitMix64(h ^ uint64(worker))
	h = SplitMix64(h ^ uint64(phase)<<32)
	return SplitMix64(h ^ uint64(stream)<<48)
}
