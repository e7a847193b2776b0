package procstat

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ThreadCPU is the CPU time so far of the process's threads whose name
// starts with prefix, in nanoseconds, from Linux's
// /proc/self/task/*/schedstat (0 elsewhere). Mesa's software renderer
// runs in threads named "llvmpipe-N", so ThreadCPU("llvmpipe") beside
// CPU tells drawing pixels from building the frame.
func ThreadCPU(prefix string) int64 {
	tasks, _ := filepath.Glob("/proc/self/task/*")
	var total int64
	for _, t := range tasks {
		name, err := os.ReadFile(filepath.Join(t, "comm"))
		if err != nil || !strings.HasPrefix(string(name), prefix) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(t, "schedstat"))
		if err != nil {
			continue
		}
		// The first field is the time on a CPU, in nanoseconds.
		if f := strings.Fields(string(stat)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			total += ns
		}
	}
	return total
}
