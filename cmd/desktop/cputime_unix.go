//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, all its threads (the
// renderer's included): on a machine shared with other work it varies
// much less than the wall time.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
