package syncer

import (
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/internal/procstat"
)

// demoCatalogEnv grows the demo child's catalog (startDemoChild).
const demoCatalogEnv = "SYNCER_DEMO_CATALOG"

// BenchmarkFirstCatalogDownload100k is a first sync of a laptop against
// a demo server (another process) whose catalog has 100,000 items: the
// demo proposals, then the catalog in pages of CatalogPage, each its own
// local transaction. It reports the sync's time, the peak Go heap above
// the start (sampled every 20 ms after a GC) and the resident memory
// (VmHWM) growth of this process.
//
//	go test -run '^$' -bench FirstCatalogDownload100k -benchtime 1x ./sync/
func BenchmarkFirstCatalogDownload100k(b *testing.B) {
	b.Setenv(demoCatalogEnv, "100000")
	d := startDemoChild(b, 0)
	if d == nil {
		b.Fatal("no demo server")
	}
	c, actor := d.signedIn(b, app.RoleSales)
	for b.Loop() {
		b.StopTimer()
		st := openLocal(b, "")
		eng := NewEngine(st, c, actor)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base, hwm0 := ms.HeapInuse, procstat.KB("VmHWM")
		stop, peakc := make(chan struct{}), make(chan uint64)
		var once sync.Once
		go func() {
			var peak uint64
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				runtime.GC()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
				select {
				case <-stop:
					peakc <- peak
					return
				case <-tick.C:
				}
			}
		}()
		cpu0 := cpuTime()
		b.StartTimer()
		err := eng.SyncOnce(bg)
		b.StopTimer()
		b.ReportMetric((cpuTime() - cpu0).Seconds(), "laptop-cpu-s")
		once.Do(func() { close(stop) })
		peak := <-peakc
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := st.CatalogSize(); n < 100_000 {
			b.Fatalf("the laptop has %d catalog items", n)
		}
		b.ReportMetric(float64(peak-min(base, peak))/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(procstat.KB("VmHWM")-hwm0)/1024, "rss-growth-MB")
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sync")
}

// cpuTime is this process's user and system CPU time: on a shared,
// loaded machine it says what the laptop's side cost when wall time
// cannot.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
