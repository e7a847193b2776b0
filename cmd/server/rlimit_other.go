//go:build !unix

package main

// raiseNoFile: there is no RLIMIT_NOFILE here; the caps are derived from
// a conservative figure.
func raiseNoFile() (uint64, error) { return 2048, nil }
