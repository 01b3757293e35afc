package workload

// Blob returns the phases of the blob benchmark, run on a store preloaded
// with large values (see Plan.ValueVariance and Plan.RandomValues): a read
// pass, and with update an update pass that overwrites values in place at
// their own size with new random content. Each pass visits keys in random
// order, every key of a worker's share or, with limit > 0, a random sample
// of limit distinct keys per worker (a new sample each pass); with
// replace, limit keys per worker drawn uniformly from all keys with
// replacement (SQLite's kvtest --random), so a key may come twice. batch
// is the ops per transaction: 1 makes each blob its own transaction.
func Blob(limit int64, update bool, batch int, replace bool) []Phase {
	pass := func(name string, op Op) Phase {
		if replace {
			return Phase{Name: name, Mix: Mix{{op, 100}}, Access: AccessLottery, Ops: limit, Batch: batch}
		}
		return Phase{Name: name, Mix: Mix{{op, 100}}, Access: AccessEach, Order: OrderRandom, Ops: limit, Batch: batch}
	}
	phases := []Phase{pass("read", OpRead)}
	if update {
		phases = append(phases, pass("update", OpUpdate))
	}
	return phases
}
