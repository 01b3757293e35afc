package result

// Machine is the state of the machine around a run, measured by the
// coordinator just before the workers start and just after the last one
// ends: how loaded it was, and how fast a fixed piece of work ran on it
// (the calibration). Two runs whose calibrations differ ran on what was,
// for a benchmark, two different machines. Nil in results of runs that
// were not calibrated (--calibrate=false, a library run, a capacity
// search's steps) and in results written before gobench measured it.
type Machine struct {
	Before Probe `json:"before"`
	After  Probe `json:"after"`
	// StealPercent is the share of CPU time a hypervisor stole from this
	// guest from the start of the first probe to the end of the last
	// (the whole run), where the OS tells (Linux's /proc/stat).
	StealPercent *float64 `json:"steal_percent,omitempty"`
}

// Probe is the machine measured at one moment, in about a fifth of a
// second: the load, then the calibration.
type Probe struct {
	// Load1 is the 1-minute load average, where the OS tells.
	Load1 *float64 `json:"load1,omitempty"`
	// OtherRunnable is the number of threads of other processes ready to
	// run, averaged over readings taken while the probe waited on its
	// fsyncs (Linux's nr_running, less the reading thread).
	OtherRunnable *float64 `json:"other_runnable,omitempty"`
	// StealPercent is the share of CPU time stolen during the probe.
	StealPercent *float64 `json:"steal_percent,omitempty"`
	// CPUMicros is the calibration: the time one unit of a fixed CPU loop
	// took, run on every CPU at once for CPUSeconds and counted from
	// the units completed (so a CPU shared with another process counts
	// slower, as it is for a benchmark). Lower is faster.
	CPUMicros  float64 `json:"cpu_us"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// FsyncMicros is the median time of a 4 KiB write followed by
	// fdatasync, FsyncOps of them, in the database's directory; zero when
	// the run's store keeps no file there.
	FsyncMicros float64 `json:"fsync_us,omitempty"`
	FsyncOps    int     `json:"fsync_ops,omitempty"`
}

// Calibration returns the run's calibrations, before and after, in µs per
// unit of the CPU loop; ok is false for a run that was not calibrated.
func (e Environment) Calibration() (before, after float64, ok bool) {
	if e.Machine == nil || e.Machine.Before.CPUMicros <= 0 || e.Machine.After.CPUMicros <= 0 {
		return 0, 0, false
	}
	return e.Machine.Before.CPUMicros, e.Machine.After.CPUMicros, true
}

// Probes returns the machine probes of every calibrated run of the suite,
// each run's before and after, in the order of its cells and runs.
func (s *Suite) Probes() []Probe {
	var out []Probe
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if m := r.Environment.Machine; m != nil {
				out = append(out, m.Before, m.After)
			}
		}
	}
	return out
}
