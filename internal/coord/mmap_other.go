//go:build !unix

package coord

import "errors"

// mapShared cannot share memory between processes here.
func mapShared(string, int) ([]byte, func(), error) {
	return nil, nil, errors.New("worker processes share a record workload's insert counter through a mapped file, which this system cannot map here: run the workers as goroutines (--mode goroutine)")
}
