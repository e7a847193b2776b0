//go:build unix

package procstat

import "syscall"

// CPU is the process's CPU time so far, user and system, all threads, in
// nanoseconds (0 when unknown): on a loaded machine a benchmark's CPU
// time a run moves less than its wall time.
func CPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
