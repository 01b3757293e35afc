package coord

import (
	"os"
	"runtime"
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

// A worker process whose ops run on one goroutine runs on one Go
// processor while it serves, and gets the default back after; one with
// more goroutines, or told its GOMAXPROCS, keeps the runtime's setting.
func TestOneProcessor(t *testing.T) {
	if os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs the runtime's default GOMAXPROCS, of 2 or more")
	}
	def := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		name       string
		goroutines int
		env        string
		want       int
	}{
		{"one goroutine", 1, "", 1},
		{"two goroutines", 2, "", def},
		{"GOMAXPROCS set", 1, "3", def},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMAXPROCS", tc.env)
			restore := oneProcessor(tc.goroutines)
			got := runtime.GOMAXPROCS(0)
			restore()
			if got != tc.want {
				t.Errorf("GOMAXPROCS while serving %d, want %d", got, tc.want)
			}
			if after := runtime.GOMAXPROCS(0); after != def {
				t.Errorf("GOMAXPROCS after serving %d, want the default %d back", after, def)
			}
		})
	}
}
