package generator

import (
	"errors"
	"sync"
	"testing"
)

func TestCounterAcknowledgements(t *testing.T) {
	c := NewCounter(100)
	if c.Limit() != 99 {
		t.Fatalf("a fresh counter's limit is %d, want 99", c.Limit())
	}
	a, b, d := c.Next(), c.Next(), c.Next()
	if a != 100 || b != 101 || d != 102 {
		t.Fatalf("handed out %d %d %d", a, b, d)
	}
	mustAck := func(v uint64) {
		t.Helper()
		if err := c.Ack(v); err != nil {
			t.Fatal(err)
		}
	}
	mustAck(b)
	mustAck(d)
	if c.Limit() != 99 {
		t.Errorf("limit %d with keynum 100 not acknowledged, want 99", c.Limit())
	}
	mustAck(a)
	if c.Limit() != 102 {
		t.Errorf("limit %d once 100 to 102 are acknowledged, want 102", c.Limit())
	}
	if err := c.Ack(a); err == nil {
		t.Error("a keynum acknowledged twice went unnoticed")
	}
	if err := c.Ack(103 + counterWindow); !errors.Is(err, ErrCounterWindow) {
		t.Errorf("an acknowledgement beyond the window: %v, want ErrCounterWindow", err)
	}
}

// Acknowledgements from many goroutines at once, in any order, move the
// limit to the last keynum handed out, with no keynum lost or doubled.
func TestCounterConcurrent(t *testing.T) {
	c := NewCounter(1)
	const workers, each = 8, 20_000
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var held []uint64
			for i := range each {
				held = append(held, c.Next())
				if i%7 == 6 { // acknowledge out of order, a few at a time
					for j := len(held) - 1; j >= 0; j-- {
						if err := c.Ack(held[j]); err != nil {
							t.Error(err)
							return
						}
					}
					held = held[:0]
				}
			}
			for _, v := range held {
				if err := c.Ack(v); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got, want := c.Limit(), uint64(workers*each); got != want {
		t.Errorf("limit %d after %d acknowledged keynums from 1, want %d", got, workers*each, want)
	}
}
