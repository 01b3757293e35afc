package runner

import (
	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// readLatest runs a latest read (workload.OpLatest) into dst: it finds the
// newest appended key the store holds, its highest in the append range
// (appends take increasing keys, and the store is what every worker of
// every process shares), then reads the newest key at or below the one
// rec steps back from it over the keys appended before it in its phase
// (the newest itself, read by the first seek, when the step is 0). No
// appended key yet is ErrNotFound, as a read of a missing key is.
func readLatest(c store.Latester, rec *deal.Recency, dst []byte) ([]byte, error) {
	newest, dst, err := c.Last(workload.AppendKeys, workload.LastAppendKey, dst)
	if err != nil {
		return dst, err
	}
	back := rec.Back(workload.AppendPosition(newest) + 1)
	if back == 0 {
		return dst, nil
	}
	_, dst, err = c.Last(workload.AppendKeys, newest-back, dst)
	return dst, err
}
