//go:build !unix

package workload

func processCPU() (CPU, bool) { return CPU{}, false }
