package runner

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/workload"
)

// gatedRecords is a record engine (the map's) that holds the run's first
// insert until other workers have read `after` records, and counts the
// reads that find no record: with the latest distribution, a read of a
// record whose insert is not over.
type gatedRecords struct {
	store.Driver
	after    int64
	reads    atomic.Int64
	missing  atomic.Int64
	newer    atomic.Int64 // reads of records inserted during the run
	inserted sync.Map     // the keys inserted during the run
	records  uint64
	armed    atomic.Bool // set once the preload is done
	first    atomic.Bool
	released chan struct{}
	held     chan struct{} // closed once the first insert is held
	once     sync.Once
	onHold   func(key []byte) // runs while the first insert, of key, is held
}

func (g *gatedRecords) Tables() store.TableSupport { return store.TableSupport{} }

func (g *gatedRecords) Open(ctx context.Context, cfg store.Config) (store.Store, error) {
	st, err := g.Driver.Open(ctx, cfg)
	return gatedStore{st, g}, err
}

type gatedStore struct {
	store.Store
	g *gatedRecords
}

func (s gatedStore) Conn(ctx context.Context) (store.Conn, error) {
	c, err := s.Store.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return gatedConn{c, c.(store.Recorder), s.g}, nil
}

type gatedConn struct {
	store.Conn
	r store.Recorder
	g *gatedRecords
}

func (c gatedConn) InsertRecord(key []byte, values [][]byte) error {
	if c.g.armed.Load() && c.g.first.CompareAndSwap(false, true) {
		close(c.g.held)
		if c.g.onHold != nil {
			c.g.onHold(key)
		}
		select {
		case <-c.g.released:
		case <-time.After(time.Minute):
			return errors.New("the other workers never read enough records")
		}
	}
	err := c.r.InsertRecord(key, values)
	if err == nil && c.g.armed.Load() {
		c.g.inserted.Store(string(key), true)
	}
	return err
}

func (c gatedConn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	dst, err := c.r.ReadRecord(key, field, dst)
	if errors.Is(err, store.ErrNotFound) {
		c.g.missing.Add(1)
	}
	if _, ok := c.g.inserted.Load(string(key)); ok {
		c.g.newer.Add(1)
	}
	if c.g.first.Load() && c.g.reads.Add(1) == c.g.after {
		c.g.once.Do(func() { close(c.g.released) })
	}
	return dst, err
}

func (c gatedConn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.r.UpdateRecord(key, field, values)
}

func (c gatedConn) ReadModifyWrite(key []byte, rf, wf int, values [][]byte) error {
	return c.r.ReadModifyWrite(key, rf, wf, values)
}

// runGated runs workload D's mix on a gated engine, the counter given to
// the host, and returns the engine.
func runGated(t *testing.T, onHold func(c *generator.Counter, r *workload.Records, key []byte)) (*gatedRecords, error) {
	const records = 1000
	p := recordPlan("read=95,insert=5", workload.Latest, records, 2, 8000)
	p.Driver = "gated"
	g := &gatedRecords{Driver: gatedDriverName{mapstore.Driver{}}, after: 500, records: records, released: make(chan struct{}), held: make(chan struct{})}
	counter := generator.NewCounter(records)
	if onHold != nil {
		g.onHold = func(key []byte) { onHold(counter, p.Records, key) }
	}
	st, err := OpenStore(context.Background(), p, g, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g.armed.Store(true)
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	err = (&Host{Plan: p, Store: st, Workers: p.WorkerIDs(), Collector: c, Counter: counter}).Run(context.Background())
	select {
	case <-g.held:
	default:
		t.Fatal("no insert ran: the check is vacuous")
	}
	if counter.Issued() <= records+1 && onHold == nil {
		t.Fatalf("only %d inserts ran", counter.Issued()-records)
	}
	return g, err
}

// gatedDriverName names the gated engine.
type gatedDriverName struct{ mapstore.Driver }

func (gatedDriverName) Name() string { return "gated" }

// Latest never reads a record whose insert is not over: while the run's
// first insert is held, 500 reads by the other worker, 13% of them
// aimed by the latest distribution at the newest record, find every
// record they look for. The same run with the held insert acknowledged
// before it commits (the defect the counter guards against) finds
// records missing: the check can fail.
func TestLatestReadsOnlyAcknowledged(t *testing.T) {
	g, err := runGated(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held insert: %d reads meanwhile, %d found no record, %d read records inserted during the run", g.reads.Load(), g.missing.Load(), g.newer.Load())
	if g.newer.Load() == 0 {
		t.Error("no read found a record inserted during the run: latest did not draw the newest records")
	}
	if n := g.missing.Load(); n != 0 {
		t.Errorf("%d reads found no record: they read inserts that were not over", n)
	}
	if g.reads.Load() < g.after {
		t.Errorf("only %d reads while the insert was held", g.reads.Load())
	}

	early, _ := runGated(t, func(c *generator.Counter, r *workload.Records, key []byte) {
		for v := r.RecordCount; v < c.Issued(); v++ {
			if bytes.Equal(r.AppendKey(nil, v), key) {
				if err := c.Ack(v); err != nil { // the held insert's keynum, acknowledged before it ran
					t.Error(err)
				}
				return
			}
		}
		t.Error("the held insert's keynum was not handed out")
	})
	t.Logf("insert acknowledged before it committed: %d reads found no record", early.missing.Load())
	if early.missing.Load() == 0 {
		t.Error("with an insert acknowledged before it committed, no read missed its record: the check cannot fail")
	}
}
