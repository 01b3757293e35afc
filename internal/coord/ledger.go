package coord

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// writeLedger spills every write record of a --verify run to a temporary
// file, 32 bytes each, so the coordinator's memory does not grow with the
// number of writes. The file is unlinked as soon as it is open: however
// the coordinator ends (SIGKILL too), nothing of it is left. It is safe
// for concurrent use.
type writeLedger struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	err error
}

const writeRecordLen = 32

// newWriteLedger creates the ledger's file in dir ("" for the OS's
// temporary directory) and unlinks it.
func newWriteLedger(dir string) (*writeLedger, error) {
	f, err := os.CreateTemp(dir, "gobench-writes-*")
	if err != nil {
		return nil, fmt.Errorf("creating the write ledger: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("unlinking the write ledger: %w", err)
	}
	return &writeLedger{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Add appends one record.
func (l *writeLedger) Add(r workload.WriteRecord) {
	var b [writeRecordLen]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(r.Worker))
	binary.LittleEndian.PutUint16(b[4:], uint16(r.Phase))
	if r.Acked {
		b[6] = 1
	}
	binary.LittleEndian.PutUint64(b[8:], r.Seq)
	binary.LittleEndian.PutUint64(b[16:], uint64(r.Start))
	binary.LittleEndian.PutUint64(b[24:], uint64(r.End))
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		_, l.err = l.w.Write(b[:])
	}
}

// records flushes the ledger and returns an iterator over it, and the error
// that ended the iteration (if any) through errp.
func (l *writeLedger) records(errp *error) func(yield func(workload.WriteRecord) bool) {
	return func(yield func(workload.WriteRecord) bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.err == nil {
			l.err = l.w.Flush()
		}
		if l.err != nil {
			*errp = fmt.Errorf("write ledger: %w", l.err)
			return
		}
		if _, err := l.f.Seek(0, io.SeekStart); err != nil {
			*errp = err
			return
		}
		r := bufio.NewReaderSize(l.f, 64<<10)
		var b [writeRecordLen]byte
		for {
			if _, err := io.ReadFull(r, b[:]); err != nil {
				if err != io.EOF {
					*errp = fmt.Errorf("reading the write ledger: %w", err)
				}
				return
			}
			rec := workload.WriteRecord{
				Worker: int(binary.LittleEndian.Uint32(b[0:])),
				Phase:  int(binary.LittleEndian.Uint16(b[4:])),
				Acked:  b[6] == 1,
				Seq:    binary.LittleEndian.Uint64(b[8:]),
				Start:  time.Duration(binary.LittleEndian.Uint64(b[16:])),
				End:    time.Duration(binary.LittleEndian.Uint64(b[24:])),
			}
			if !yield(rec) {
				return
			}
		}
	}
}

// close closes the ledger file, which goes with it (it has no name).
func (l *writeLedger) close() {
	l.f.Close()
}
