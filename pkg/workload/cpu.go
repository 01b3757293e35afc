package workload

import "time"

// CPU is processor time a process spent: user and system.
type CPU struct {
	User, System time.Duration
}

// Sub returns the time spent between an earlier reading o and c.
func (c CPU) Sub(o CPU) CPU { return CPU{User: c.User - o.User, System: c.System - o.System} }
