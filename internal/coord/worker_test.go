package coord

import (
	"testing"

	"github.com/gobench/gobench/internal/wire"
)

// A process's workers share one frame's worth of sample buffers, each at
// least 256 samples and none beyond what a frame holds.
func TestSampleBatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ goroutines, want int }{
		{0, wire.MaxBatch}, {1, wire.MaxBatch}, {2, wire.MaxBatch / 2}, {16, 256}, {1000, 256},
	} {
		if got := sampleBatch(tc.goroutines); got != tc.want {
			t.Errorf("sampleBatch(%d) = %d, want %d", tc.goroutines, got, tc.want)
		}
	}
}
