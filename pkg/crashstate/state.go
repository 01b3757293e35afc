package crashstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// replay applies the run's events to the model, building a state just
// after each point's event.
func (m *model) replay(ctx context.Context, points []int64, visit func(store.CrashState) error) error {
	next := 0
	_, err := runEvents(m.rec, func(n int64, e *iorecord.Event) error {
		if next >= len(points) {
			return errDone
		}
		if err := m.apply(e); err != nil {
			return fmt.Errorf("crash record: event %d (byte %d): %w", n, e.Offset, err)
		}
		if e.Kind == iorecord.KindSync && e.Flags&iorecord.FlagFailed != 0 {
			if m.failed == 0 {
				m.failedAt = n
			}
			m.failed++
		}
		if n != points[next] {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		dir := filepath.Join(m.o.Work, "state-"+strconv.Itoa(next))
		st, err := m.state(dir, next, n, e.Time)
		if m.o.Spec.Exhaustive {
			st.Label = m.label(e)
		}
		st.FailedSyncs, st.FailedAt = m.failed, m.failedAt
		if err == nil {
			err = visit(st)
		}
		os.RemoveAll(dir)
		next++
		return err
	})
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

var errDone = errors.New("every state built")

// state writes into dir the files a power cut just after event n would
// leave: the durable tree from the root, each file with what its syncs
// made durable (and, under a torn model, some of what they did not).
func (m *model) state(dir string, index int, n, at int64) (store.CrashState, error) {
	st := store.CrashState{Index: index, Path: filepath.Join(dir, m.o.Files.Path), Event: n, At: at}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return st, err
	}
	rng := rand.New(rand.NewPCG(m.o.Spec.Seed, uint64(index)+1))
	kept, err := m.writeDir(dir, m.root, rng)
	st.SurvivingSectors = kept
	return st, err
}

// writeDir writes the durable entries of d into path, in the order of
// their names (so that a torn state is the same from run to run).
func (m *model) writeDir(path string, d *node, rng *rand.Rand) (int64, error) {
	var kept int64
	for _, name := range slices.Sorted(maps.Keys(d.durable)) {
		n, p := d.durable[name], filepath.Join(path, name)
		if n.dir {
			if err := os.Mkdir(p, 0o700); err != nil {
				return kept, err
			}
			k, err := m.writeDir(p, n, rng)
			kept += k
			if err != nil {
				return kept, err
			}
			continue
		}
		k, err := m.writeFile(p, n, rng)
		kept += k
		if err != nil {
			return kept, err
		}
	}
	return kept, nil
}

// writeFile writes what the disk holds of n at path.
func (m *model) writeFile(path string, n *node, rng *rand.Rand) (int64, error) {
	dst, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	var kept int64
	err = m.copyDurable(dst, n)
	if unit := store.TornUnit(m.o.Spec.Model); err == nil && unit > 0 {
		kept, err = m.tear(dst, n, rng, unit)
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return kept, err
}

// copyDurable copies what the disk holds of n into dst: its durable
// image, or, before its first sync, its contents at the start.
func (m *model) copyDurable(dst *os.File, n *node) error {
	var src *os.File
	var err error
	switch {
	case n.dur != "":
		src, err = m.files.get(n.dur)
	case n.base != "":
		if src, err = os.Open(n.base); err == nil {
			defer src.Close()
		}
	default:
		return nil
	}
	if err != nil {
		return err
	}
	_, err = io.CopyBuffer(dst, io.NewSectionReader(src, 0, n.durSize), m.buf)
	return err
}

// tear applies to dst, in order, a seeded random subset of the writes
// (in parts of unit bytes, aligned in the file: sectors, or pages) and
// truncates no sync of n covered, and returns how many parts it kept.
func (m *model) tear(dst *os.File, n *node, rng *rand.Rand, unit int64) (int64, error) {
	if n.npend == 0 {
		return 0, nil
	}
	pend, err := m.files.get(n.pend)
	if err != nil {
		return 0, err
	}
	var kept int64
	var off [8]byte
	for i := range n.npend {
		if _, err := pend.ReadAt(off[:], i*8); err != nil {
			return kept, err
		}
		e, err := iorecord.ReadEventAt(m.rec, getInt64(off[:]), &m.scratch)
		if err != nil {
			return kept, err
		}
		if e.Kind == iorecord.KindTruncate {
			if rng.IntN(2) == 1 {
				if err := tornTruncate(dst, &e); err != nil {
					return kept, err
				}
			}
			continue
		}
		end := e.Arg + int64(len(e.Data))
		for s := e.Arg / unit * unit; s < end; s += unit {
			if rng.IntN(2) == 0 {
				continue
			}
			lo, hi := max(s, e.Arg), min(s+unit, end)
			if _, err := dst.WriteAt(e.Data[lo-e.Arg:hi-e.Arg], lo); err != nil {
				return kept, err
			}
			kept++
		}
	}
	return kept, nil
}

// tornTruncate applies a truncate that survived to dst: an allocation
// (FlagGrow) only grows it.
func tornTruncate(dst *os.File, e *iorecord.Event) error {
	if e.Flags&iorecord.FlagGrow != 0 {
		fi, err := dst.Stat()
		if err != nil || fi.Size() >= e.Arg {
			return err
		}
	}
	return dst.Truncate(e.Arg)
}
