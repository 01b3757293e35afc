package report

import (
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

func TestMachineStateText(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	full := &result.Machine{
		Before:       result.Probe{Load1: f(6.06), OtherRunnable: f(7), StealPercent: f(3.57), CPUMicros: 13.9, FsyncMicros: 250, FsyncOps: 16},
		After:        result.Probe{Load1: f(6.2), CPUMicros: 15.6},
		StealPercent: f(2.2),
	}
	for _, tt := range []struct {
		m    *result.Machine
		want string
	}{
		{nil, ""},
		{&result.Machine{}, ""},
		{full, "machine: before load 6.06, 7.0 other runnable, steal 3.57%, calibration 13.9µs CPU, 250µs fsync · after load 6.20, calibration 15.6µs CPU · steal over the run 2.20%"},
		{&result.Machine{Before: result.Probe{CPUMicros: 2}}, "machine: before calibration 2.00µs CPU"},
	} {
		if got := machineStateText(tt.m); got != tt.want {
			t.Errorf("machineStateText = %q\nwant               %q", got, tt.want)
		}
	}
	s := &result.Suite{Cells: []result.Cell{{Runs: []*result.Result{
		{Environment: result.Environment{Machine: full}},
		{Environment: result.Environment{}},
	}}}}
	if got, want := suiteMachineText(s), "machine: calibration 13.9µs–15.6µs CPU over 2 probes, load 6.06–6.20"; got != want {
		t.Errorf("suiteMachineText = %q, want %q", got, want)
	}
}
