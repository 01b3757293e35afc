//go:build !unix

package runner

import "github.com/gobench/gobench/pkg/workload"

func processCPU() (workload.CPU, bool) { return workload.CPU{}, false }
