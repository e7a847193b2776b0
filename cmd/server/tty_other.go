//go:build !linux

package main

// stdinIsTerminal: not known here, so commands never ask; their flags
// say what a question would have.
func stdinIsTerminal() bool { return false }
