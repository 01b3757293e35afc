package store

// What an engine promises, at a run's settings, of the writes it
// acknowledged when the power is cut (Promise.Level), from its own
// documentation; a --crash run's states say whether the run agrees.
const (
	// PromiseKeeps: every acknowledged write survives, and the store
	// opens intact.
	PromiseKeeps = "keeps"
	// PromiseMayLose: the store opens intact, but recent acknowledged
	// writes may be gone.
	PromiseMayLose = "may lose"
	// PromiseNone: any write may be lost, and the store may be corrupt.
	PromiseNone = "none"
)

// Promise is what an engine promises at a power cut, at its settings.
type Promise struct {
	// Level is PromiseKeeps, PromiseMayLose or PromiseNone.
	Level string `json:"level"`
	// Says is the promise in words, after the engine's documentation:
	// "may lose the last transaction (MDB_NOMETASYNC)".
	Says string `json:"says"`
}

// Kept reports whether power cuts of which lossy states lost
// acknowledged writes and corrupt states were corrupt agree with the
// promise.
func (p Promise) Kept(lossy, corrupt int) bool {
	switch p.Level {
	case PromiseKeeps:
		return lossy == 0 && corrupt == 0
	case PromiseMayLose:
		return corrupt == 0
	default:
		return true
	}
}

// Promiser is implemented by a Driver that says what its stores promise
// at a power cut, given the facts a store described itself with
// (Describer): its sync level and whatever else decides it. ok is false
// where the facts do not say.
type Promiser interface {
	Promise(facts []Fact) (p Promise, ok bool)
}

// PromiseBySync returns the promise of an engine whose sync level alone
// decides it (the "sync" fact): off, normal and full in turn.
func PromiseBySync(facts []Fact, off, normal, full Promise) (Promise, bool) {
	switch FactValue(facts, "sync") {
	case SyncOff:
		return off, true
	case SyncNormal:
		return normal, true
	case SyncFull:
		return full, true
	}
	return Promise{}, false
}
