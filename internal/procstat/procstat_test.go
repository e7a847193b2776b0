package procstat

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// On Linux the resident set is known, at least the anonymous part of
// it, and a megabyte held keeps it above one megabyte.
func TestKB(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/status is Linux's")
	}
	held := make([]byte, 8<<20)
	for i := range held {
		held[i] = 1
	}
	rss, anon := KB("VmRSS"), KB("RssAnon")
	if rss < 8<<10 || anon < 8<<10 || anon > rss {
		t.Fatalf("VmRSS %d kB, RssAnon %d kB with 8 MB held", rss, anon)
	}
	if KB("NoSuchField") != 0 {
		t.Fatal("an unknown field is not 0")
	}
	runtime.KeepAlive(held)
}

// CPU time grows with work done, on the systems that report it.
func TestCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("read on Linux")
	}
	before := CPU()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	if after := CPU(); after <= before || before <= 0 {
		t.Fatalf("CPU time %d, then %d after a busy loop (%d)", before, after, x)
	}
}

func TestThreadCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("read on Linux")
	}
	name, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Fatal(err)
	}
	self := strings.TrimSpace(string(name))
	before := ThreadCPU(self)
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	if after := ThreadCPU(self); after <= before || before <= 0 {
		t.Fatalf("threads named %q: CPU time %d, then %d after a busy loop (%d)", self, before, after, x)
	}
	if n := ThreadCPU("no-such-thread-name"); n != 0 {
		t.Fatalf("no thread has that name, yet %d ns", n)
	}
}
