package sysinfo

import (
	"math"
	"runtime"
	"testing"
)

func TestParseLoadavg(t *testing.T) {
	for _, tt := range []struct {
		text     string
		avg      float64
		runnable int
		err      bool
	}{
		{"0.52 0.58 0.59 3/175 3487\n", 0.52, 3, false},
		{"12.00 7.31 6.69 14/229 13722", 12, 14, false},
		{"0.52 0.58 0.59", 0, 0, true},
		{"x 0.58 0.59 3/175 1", 0, 0, true},
		{"0.5 0.58 0.59 3 1", 0, 0, true},
		{"", 0, 0, true},
	} {
		avg, run, err := parseLoadavg(tt.text)
		if (err != nil) != tt.err || avg != tt.avg || run != tt.runnable {
			t.Errorf("parseLoadavg(%q) = %v, %v, %v", tt.text, avg, run, err)
		}
	}
}

func TestParseProcStat(t *testing.T) {
	const stat = "cpu  446056 0 189584 353893 99718 0 20150 43543 7 0\ncpu0 226751 0 79051 217044 27982 0 3354 22129 0 0\nintr 1 2\n"
	got, err := parseProcStat(stat)
	want := CPUTimes{Total: 446056 + 189584 + 353893 + 99718 + 20150 + 43543, Steal: 43543}
	if err != nil || got != want {
		t.Errorf("parseProcStat = %+v, %v; want %+v (guest time is in user already)", got, err, want)
	}
	// An old kernel's line without steal still counts its total.
	if got, err := parseProcStat("cpu 10 0 5 85\n"); err != nil || got != (CPUTimes{Total: 100}) {
		t.Errorf("four fields: %+v, %v", got, err)
	}
	for _, bad := range []string{"", "cpu0 1 2 3\n", "cpu 1 x 3\n"} {
		if _, err := parseProcStat(bad); err == nil {
			t.Errorf("parseProcStat(%q): no error", bad)
		}
	}
}

func TestStealPercent(t *testing.T) {
	if p, ok := StealPercent(CPUTimes{1000, 10}, CPUTimes{1200, 30}); !ok || math.Abs(p-10) > 1e-9 {
		t.Errorf("StealPercent = %v, %v; want 10", p, ok)
	}
	if _, ok := StealPercent(CPUTimes{1000, 10}, CPUTimes{1000, 10}); ok {
		t.Error("no time passed, yet a share")
	}
}

// Linux tells all three; macOS the load average.
func TestReadLoad(t *testing.T) {
	l := ReadLoad()
	switch runtime.GOOS {
	case "linux":
		if !l.HasAvg1 || !l.HasRunnable || l.Runnable < 1 || !l.HasCPU || l.CPU.Total == 0 {
			t.Errorf("%+v", l)
		}
	case "darwin":
		if !l.HasAvg1 {
			t.Errorf("%+v", l)
		}
	}
}
