package syncer

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/app"
	"proposaldesk/internal/procstat"
	"proposaldesk/localstore"
)

// BenchmarkFirstSync10k is the first sync: an empty laptop
// downloads the demo account grown to 10,000 proposals (about 9,000
// contacts with their locations) from a server in another process, so
// that the figures are the desktop side's alone:
//
//	go test -run '^$' -bench FirstSync10k -benchtime 1x -count 3 ./sync/
//
// s/sync is the wall time of SyncOnce (proposals, contacts, users,
// catalog) into a real fsynced bbolt file; peak-RSS-MB is the process's
// peak resident memory during it (VmHWM, reset before each sync through
// /proc/self/clear_refs); restart-s/sync and restart-requests are the
// next start's sync, with nothing changed; cpu-s/sync is the CPU time the
// desktop side used, server-cpu-s/sync the server's (the machine has 2
// cores, shared). Targets: < 10 s and < 150 MB.
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
	var wall, cpu, server, restart time.Duration
	var requests int64
	var peak int64
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), fmt.Sprint("desk", i, ".db"))
		st, err := localstore.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		eng := NewEngine(st, c, actor)
		resetPeakRSS(b)
		b.StartTimer()
		t0, c0, s0 := time.Now(), cpuTime(), childCPU(b, d.Pid)
		err = eng.SyncOnce(bg)
		wall, cpu, server = wall+time.Since(t0), cpu+cpuTime()-c0, server+childCPU(b, d.Pid)-s0
		b.StopTimer()
		peak = max(peak, int64(procstat.KB("VmHWM"))<<10)
		if err != nil {
			b.Fatal(err)
		}
		_, got, _ := st.Search(app.DefaultListQuery())
		_, contacts, _ := st.Contacts(app.ContactQuery{})
		if got != page.Count || contacts != people.Count {
			b.Fatalf("the laptop lists %d proposals and %d contacts, the server %d and %d", got, contacts, page.Count, people.Count)
		}
		st.Close()
		took, n := restartSync(b, d, path, actor)
		restart, requests = restart+took, max(requests, n)
	}
	b.Logf("%d proposals, %d contacts", page.Count, people.Count)
	b.ReportMetric(wall.Seconds()/float64(b.N), "s/sync")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/sync")
	b.ReportMetric(server.Seconds()/float64(b.N), "server-cpu-s/sync")
	b.ReportMetric(restart.Seconds()/float64(b.N), "restart-s/sync")
	b.ReportMetric(float64(requests), "restart-requests")
}

// restartSync opens the synced local store at path again, as the app
// does at its next start, and syncs with nothing changed on the server:
// its time and its number of HTTP requests.
func restartSync(b *testing.B, d *demoServer, path string, actor app.User) (time.Duration, int64) {
	b.Helper()
	counter := &countingTransport{}
	c, err := NewClient(Connection{BaseURL: d.URL, AppID: d.Creds.AppID, AppSecret: d.Creds.AppSecret},
		WithHTTPClient(&http.Client{Transport: counter}))
	if err != nil {
		b.Fatal(err)
	}
	u, _ := d.Creds.User(demo.MainAccountName, app.RoleSales, true)
	if _, err := c.Exchange(bg, u.Email, u.Password); err != nil {
		b.Fatal(err)
	}
	st, err := localstore.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	counter.n.Store(0)
	t0 := time.Now()
	if err := NewEngine(st, c, actor).SyncOnce(bg); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0), counter.n.Load()
}

// childCPU is the user and system CPU time of process pid (Linux
// /proc/pid/stat, in clock ticks of 1/100 s).
func childCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	// The fields after the command name (in parentheses): utime and
	// stime are the 12th and 13th.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		tb.Fatalf("/proc/%d/stat: %v %v", pid, err1, err2)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// resetPeakRSS starts the process's peak resident memory (VmHWM) over
// from its resident memory now (Linux).
func resetPeakRSS(tb testing.TB) {
	tb.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		tb.Fatalf("reset the peak resident memory: %v", err)
	}
}
