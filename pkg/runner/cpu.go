package runner

import "github.com/gobench/gobench/pkg/workload"

// ProcessCPU returns the processor time this process has used so far, all
// its threads together (getrusage RUSAGE_SELF), and false where the system
// cannot say.
func ProcessCPU() (workload.CPU, bool) { return processCPU() }
