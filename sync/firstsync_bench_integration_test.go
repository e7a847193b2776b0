package syncer

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// BenchmarkFirstSync10k is issue 15's first sync: an empty laptop
// downloads the demo account grown to 10,000 proposals (about 9,000
// contacts with their locations) from a server in another process, so
// that the figures are the desktop side's alone:
//
//	go test -run '^$' -bench FirstSync10k -benchtime 1x -count 3 ./sync/
//
// s/sync is the wall time of SyncOnce (proposals, contacts, users,
// catalog) into a real fsynced bbolt file; peak-RSS-MB is the process's
// peak resident memory during it (VmHWM, reset before each sync through
// /proc/self/clear_refs); cpu-s/sync is the CPU time the desktop side
// used (the rest of the wall time is the server's and waiting). Targets:
// < 10 s and < 150 MB.
func BenchmarkFirstSync10k(b *testing.B) {
	const n = 10000
	if os.Getenv(demoChildEnv) != "" {
		b.Skip("not in the child")
	}
	d := startDemoChild(b, n)
	if d == nil {
		b.FailNow()
	}
	c, actor := d.signedIn(b, app.RoleSales)
	page, err := c.ListProposals(bg, ProposalQuery{PageSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	people, err := c.ListPeople(bg, PeopleQuery{PageSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	var wall, cpu time.Duration
	var peak int64
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		st, err := localstore.Open(filepath.Join(b.TempDir(), fmt.Sprint("desk", i, ".db")))
		if err != nil {
			b.Fatal(err)
		}
		eng := NewEngine(st, c, actor)
		resetPeakRSS(b)
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		err = eng.SyncOnce(bg)
		wall, cpu = wall+time.Since(t0), cpu+cpuTime()-c0
		b.StopTimer()
		peak = max(peak, int64(procStatusKB("VmHWM:"))<<10)
		if err != nil {
			b.Fatal(err)
		}
		_, got, _ := st.Search(app.DefaultListQuery())
		_, contacts, _ := st.Contacts(app.ContactQuery{})
		if got != page.Count || contacts != people.Count {
			b.Fatalf("the laptop lists %d proposals and %d contacts, the server %d and %d", got, contacts, page.Count, people.Count)
		}
		st.Close()
	}
	b.Logf("%d proposals, %d contacts", page.Count, people.Count)
	b.ReportMetric(wall.Seconds()/float64(b.N), "s/sync")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/sync")
}

// resetPeakRSS starts the process's peak resident memory (VmHWM) over
// from its resident memory now (Linux).
func resetPeakRSS(tb testing.TB) {
	tb.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		tb.Fatalf("reset the peak resident memory: %v", err)
	}
}
