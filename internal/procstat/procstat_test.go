package procstat

import (
	"runtime"
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
