//go:build !unix

package main

import "time"

// cpuTime is unknown here: the startup log shows 0.
func cpuTime() time.Duration { return 0 }
