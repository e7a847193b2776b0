//go:build unix

package main

import "syscall"

// raiseNoFile raises the soft limit on open files to the hard limit and
// returns the limit in force. Go's runtime does the same at start since
// Go 1.19; doing it here too makes the value the connection caps are
// derived from explicit, and logged.
func raiseNoFile() (uint64, error) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, err
	}
	if r.Cur < r.Max {
		r.Cur = r.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
			return 0, err
		}
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
			return 0, err
		}
	}
	return uint64(r.Cur), nil
}
