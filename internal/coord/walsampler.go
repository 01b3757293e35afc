package coord

import (
	"context"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
)

// logInterval is how often the coordinator samples a write-ahead log.
const logInterval = 200 * time.Millisecond

// walSampler samples a store's write-ahead log (size and reset counter)
// while phases run, into the builder, from the coordinator: no worker
// pays for it.
type walSampler struct {
	obs  store.WALObserver
	hold store.Conn // keeps the log from vanishing when the workers close
	b    *result.Builder
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	phase   int
	start   int64 // the phase's START, a runner.Now reading
	running bool
}

// startWALSampler starts sampling st's log if it keeps one; it returns
// nil otherwise. It holds a connection of its own for the run (idle: it
// blocks no checkpoint), because SQLite deletes the log when its last
// connection closes, and the workers' close before the last sample.
func startWALSampler(ctx context.Context, st store.Store, b *result.Builder) *walSampler {
	obs, ok := st.(store.WALObserver)
	if !ok {
		return nil
	}
	if _, _, ok := obs.WALState(); !ok {
		return nil
	}
	s := &walSampler{obs: obs, b: b, stop: make(chan struct{}), done: make(chan struct{})}
	if c, err := st.Conn(ctx); err == nil {
		s.hold = c
	}
	go s.loop()
	return s
}

// started tells the sampler that phase began at START instant at.
func (s *walSampler) started(phase int, at int64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.phase, s.start, s.running = phase, at, true
	s.mu.Unlock()
	s.sample() // the log as the phase begins
}

func (s *walSampler) loop() {
	defer close(s.done)
	t := time.NewTicker(logInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.sample()
		}
	}
}

func (s *walSampler) sample() {
	s.mu.Lock()
	phase, start, running := s.phase, s.start, s.running
	s.mu.Unlock()
	if !running {
		return
	}
	bytes, seq, _ := s.obs.WALState()
	sec := max(runner.Now()-start, 0) / int64(time.Second)
	s.b.RecordWAL(phase, sec, bytes, seq)
}

// close takes a last sample, as the last phase left the log, and stops
// the sampler.
func (s *walSampler) close() {
	if s == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.sample()
	if s.hold != nil {
		_ = s.hold.Close()
	}
}
