package coord

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// copyFrom copies a sql workload's existing database (SQL.From), with its
// -wal or -journal file, to the run's database path dst, before the store
// is set up: the run benchmarks the copy and only ever reads the
// original. It returns the bytes copied and how long it took.
func copyFrom(p *workload.Plan, dst string) (int64, time.Duration, error) {
	t0 := time.Now()
	var total int64
	for i, suffix := range []string{"", "-wal", "-journal"} {
		n, err := copyFile(p.SQL.From+suffix, dst+suffix)
		if errors.Is(err, fs.ErrNotExist) && i > 0 {
			continue // no -wal or -journal: nothing to carry over
		}
		if err != nil {
			return total, 0, fmt.Errorf("copying --from %s: %w", p.SQL.From, err)
		}
		total += n
	}
	return total, time.Since(t0), nil
}

// copyFile copies src, opened read-only, to a new file dst, synced.
func copyFile(src, dst string) (n int64, err error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil {
		return 0, err
	} else if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := out.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if n, err = io.Copy(out, in); err != nil {
		return n, err
	}
	return n, out.Sync()
}
