// Package procstat reads the process's memory figures from Linux's
// /proc/self/status, for the benchmarks and the desktop's startup log.
// Elsewhere every figure is 0.
package procstat

import (
	"os"
	"strconv"
	"strings"
)

// KB is a kB field of /proc/self/status ("VmRSS", "VmHWM", "RssAnon",
// "RssFile"…); 0 when unknown.
func KB(field string) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// MB is KB in whole MiB.
func MB(field string) int { return KB(field) / 1024 }
