package bench

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/sysinfo"
)

// The calibration's size: a CPU loop on every CPU for CalibrationCPUTime,
// and CalibrationFsyncs durable 4 KiB writes. Both ends of a run take
// about a fifth of a second on a disk that syncs in a few milliseconds.
const (
	CalibrationCPUTime = 100 * time.Millisecond
	CalibrationFsyncs  = 16
	calibrationWrite   = 4096
	// minRunnableReadings is how many times a probe reads the runnable
	// threads at the least, however fast its fsyncs return.
	minRunnableReadings = 5
)

// MachineMeter measures the machine around a run (result.Machine): a
// probe before the workers start and one after the last op.
type MachineMeter struct {
	dir    string
	first  sysinfo.Load
	before result.Probe
}

// StartMachine probes the machine before a run whose database lives in
// dir ("" when the store keeps no file: no fsync probe).
func StartMachine(ctx context.Context, dir string) *MachineMeter {
	m := &MachineMeter{dir: dir, first: sysinfo.ReadLoad()}
	m.before = probe(ctx, dir, m.first)
	return m
}

// Stop probes the machine after the run and returns both probes, with
// the steal time over the whole run. After an interrupt (ctx done) it
// probes nothing more: the result keeps the probe before alone.
func (m *MachineMeter) Stop(ctx context.Context) *result.Machine {
	mach := &result.Machine{Before: m.before}
	if ctx.Err() != nil {
		return mach
	}
	mach.After = probe(ctx, m.dir, sysinfo.ReadLoad())
	if last := sysinfo.ReadLoad(); m.first.HasCPU && last.HasCPU {
		if p, ok := sysinfo.StealPercent(m.first.CPU, last.CPU); ok {
			mach.StealPercent = &p
		}
	}
	return mach
}

// probe measures the machine now, starting from the load already read:
// the fsync probe (reading the runnable threads while it waits), then
// the CPU loop.
func probe(ctx context.Context, dir string, start sysinfo.Load) result.Probe {
	var p result.Probe
	if start.HasAvg1 {
		p.Load1 = &start.Avg1
	}
	others := watchRunnable(func() {
		if dir == "" {
			return
		}
		if f, err := disk.MeasureFsync(ctx, dir, CalibrationFsyncs, calibrationWrite); err == nil {
			p.FsyncMicros, p.FsyncOps = f.P50Micros, f.Ops
		}
	})
	if others >= 0 {
		p.OtherRunnable = &others
	}
	p.CPUMicros, p.CPUSeconds = cpuLoop(CalibrationCPUTime)
	if end := sysinfo.ReadLoad(); start.HasCPU && end.HasCPU {
		if s, ok := sysinfo.StealPercent(start.CPU, end.CPU); ok {
			p.StealPercent = &s
		}
	}
	return p
}

// watchRunnable runs wait (which should block, not compute) while it
// reads the number of runnable threads every two milliseconds, and
// returns their mean less the reading thread itself: the threads of
// other processes ready to run. -1 where the OS does not tell.
func watchRunnable(wait func()) float64 {
	done := make(chan struct{})
	go func() {
		defer close(done)
		wait()
	}()
	sum, n := 0, 0
	for finished := false; !finished || n < minRunnableReadings; {
		l := sysinfo.ReadLoad()
		if !l.HasRunnable {
			<-done
			return -1
		}
		sum, n = sum+max(l.Runnable-1, 0), n+1
		select {
		case <-done:
			finished = true
		case <-time.After(2 * time.Millisecond):
		}
	}
	return float64(sum) / float64(n)
}

// cpuLoop runs a fixed unit of integer work on as many threads as there
// are CPUs for about d, and returns the time one unit took on one CPU:
// the threads' time over the units they completed (a thread that waits
// for its CPU counts that wait), and the seconds it ran.
func cpuLoop(d time.Duration) (unitMicros, seconds float64) {
	threads := runtime.NumCPU()
	var mu struct {
		sync.Mutex
		units   int64
		elapsed time.Duration
	}
	var wg sync.WaitGroup
	start := time.Now()
	for range threads {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := time.Now()
			var n int64
			x := uint64(0x9e3779b97f4a7c15)
			for time.Since(t0) < d {
				x = calibrationUnit(x)
				n++
			}
			el := time.Since(t0)
			if x == 0 {
				// Never: the unit maps no non-zero state to zero. Reading x
				// keeps the compiler from dropping the loop.
				n = 0
			}
			mu.Lock()
			mu.units, mu.elapsed = mu.units+n, mu.elapsed+el
			mu.Unlock()
		})
	}
	wg.Wait()
	if mu.units == 0 {
		return 0, time.Since(start).Seconds()
	}
	return float64(mu.elapsed.Microseconds()) / float64(mu.units), time.Since(start).Seconds()
}

// calibrationUnit is the fixed unit of CPU work: 2048 rounds of a
// xorshift with a multiply by an odd constant, a few microseconds on a
// current server core. It touches no memory, so it measures the CPU and
// not its caches; both steps are bijections that keep zero at zero, so a
// non-zero state never becomes zero.
func calibrationUnit(x uint64) uint64 {
	for range 2048 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		x *= 0x2545f4914f6cdd1d
	}
	return x
}
