//go:build !linux && !darwin

package sysinfo

// ReadLoad returns nothing known where gobench cannot read the load.
func ReadLoad() Load { return Load{} }
