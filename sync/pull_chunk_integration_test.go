package syncer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
	"proposaldesk/internal/procstat"
	"proposaldesk/localstore"
)

// A pull downloads and commits a chunk of proposals at a time; the
// cursor moves only with the last chunk.

// serverIDs are the proposal IDs the client's user sees, sorted, and the
// changes feed's cursor.
func serverIDs(t testing.TB, c *Client) ([]int64, string, string) {
	t.Helper()
	ch, err := c.Changes(bg, "")
	if err != nil {
		t.Fatal(err)
	}
	ids := slices.Clone(ch.ProposalIDs)
	slices.Sort(ids)
	return ids, ch.StoreID, ch.Cursor
}

// A first sync that stops after its second chunk (the app killed) keeps
// those chunks and the old cursor; the next sync, after a restart, pulls
// from the old cursor and ends with every proposal exactly once and the
// server's cursor.
func TestPullChunksSurviveAStopMidway(t *testing.T) {
	const chunk = 5
	d := startDemo(t, 0) // the demo data as seeded
	c, actor := d.signedIn(t, app.RoleSales)
	want, storeID, cursor := serverIDs(t, c)
	if len(want) <= 3*chunk {
		t.Fatalf("the demo shows the sales user only %d proposals; the test needs more than %d", len(want), 3*chunk)
	}

	path := filepath.Join(t.TempDir(), "desk.db")
	st := openLocal(t, path)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	eng := NewEngine(st, c, actor, WithPullChunk(chunk))
	var mu sync.Mutex
	var seen []State
	eng.Subscribe(func(s State) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
		if s.Phase == PhasePull && s.Done > 2*chunk {
			cancel() // the third chunk is being downloaded: kill
		}
	})
	err := eng.SyncOnce(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped sync: %v", err)
	}
	if n := len(localIDs(t, st)); n != 2*chunk {
		t.Errorf("after the stop the store lists %d proposals, want the first two chunks (%d)", n, 2*chunk)
	}
	if id, cur, _ := st.Cursor(); id != "" || cur != "" {
		t.Errorf("the cursor moved before the last chunk: %q %q", id, cur)
	}
	if cnt, _ := st.Counts(); !cnt.LastSync.IsZero() {
		t.Errorf("last sync %v recorded by a sync that stopped", cnt.LastSync)
	}
	if us, _ := st.Users(); len(us) == 0 {
		t.Error("the directory did not commit with the first chunk")
	}
	mu.Lock()
	for _, s := range seen {
		if s.Phase == PhasePull && s.Total != len(want) {
			t.Errorf("pull progress %d of %d, want a total of %d", s.Done, s.Total, len(want))
			break
		}
	}
	seen = nil
	mu.Unlock()

	// Restart: the file opens again, a new engine syncs to the end.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openLocal(t, path)
	eng = NewEngine(st, c, actor, WithPullChunk(chunk))
	var dones, totals []int
	eng.Subscribe(func(s State) {
		if s.Syncing && s.Phase == PhasePull {
			dones, totals = append(dones, s.Done), append(totals, s.Total)
		}
	})
	if err := eng.SyncOnce(bg); err != nil {
		t.Fatal(err)
	}
	// Progress counts on across the chunks: 0, 1, …, all of all.
	if len(dones) != len(want)+1 || !slices.IsSorted(dones) || dones[0] != 0 || dones[len(dones)-1] != len(want) {
		t.Errorf("pull progress %v", dones)
	}
	for _, total := range totals {
		if total != len(want) {
			t.Errorf("pull progress of %d, want of %d", total, len(want))
			break
		}
	}
	if got := localIDs(t, st); !slices.Equal(got, want) {
		t.Errorf("the store lists %d proposals, the server %d; missing (-) or extra: %v",
			len(got), len(want), symmetricDiff(got, want))
	}
	if id, cur, _ := st.Cursor(); id != storeID || cur != cursor {
		t.Errorf("cursor %q %q, want the server's %q %q", id, cur, storeID, cursor)
	}
	if cnt, _ := st.Counts(); cnt.LastSync.IsZero() || cnt.Pending+cnt.Failed+cnt.Conflicts != 0 {
		t.Errorf("counts after the sync %+v", cnt)
	}
	// Each record holds the server's version.
	for _, id := range want[:3] {
		rec, err := st.Record(id)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := c.GetProposal(bg, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Server == nil || rec.Server.Version != sp.Proposal.Version || rec.Local.Name != sp.Proposal.Name {
			t.Errorf("proposal %d: held %+v, the server has version %d", id, rec.Server, sp.Proposal.Version)
		}
	}
	// Nothing left to pull.
	dones, totals = nil, nil
	if err := eng.SyncOnce(bg); err != nil {
		t.Fatal(err)
	}
	if slices.Max(totals) != 0 {
		t.Errorf("a sync after the complete one pulled again: %v of %v", dones, totals)
	}
}

// localIDs are the proposal IDs the local list holds (archived or not),
// sorted.
func localIDs(t testing.TB, st *localstore.Store) []int64 {
	t.Helper()
	var ids []int64
	for _, archived := range []bool{false, true} {
		items, _, err := st.ListItems(app.ListQuery{Archived: archived, PageNumber: 1, PageSize: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			ids = append(ids, it.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

func symmetricDiff(a, b []int64) []int64 {
	var out []int64
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			out = append(out, -x)
		}
	}
	return out
}

// The memory of a first sync does not grow with the account: the peak
// live heap (after runtime.GC) of a first sync of 4,000 proposals is
// compared with that of 1,000 in the same run. With the whole pull in
// memory it grew by more than the data it pulled (about 4× the smaller
// sync's); chunked it is one or two chunks (whichever a sample catches)
// plus the list index and the directory, which do grow a little with the
// proposals. So the growth is held to half of the 3,000 more proposals'
// bytes in the local store file (68 MB; holding them would grow the heap
// by more than all of it): the smaller sync's peak alone swung from 11
// to 28 MB on a quiet machine, as its samples caught one chunk or two,
// so a ratio of the two peaks (1.0 to 1.8) was no measure. The
// servers run in child processes, so that the heap measured here is the
// desktop's alone.
func TestFirstSyncMemoryDoesNotGrowWithProposals(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("measures the heap of two first syncs (1,000 and 4,000 proposals); not with -short or -race")
	}
	if os.Getenv(demoChildEnv) != "" {
		t.Skip("not in the child")
	}
	sizes := []int{1000, 4000}
	servers := map[int]*demoServer{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, n := range sizes {
		wg.Add(1)
		go func() { // seed both at once
			defer wg.Done()
			d := startDemoChild(t, n)
			mu.Lock()
			servers[n] = d
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	peaks, files := map[int]uint64{}, map[int]uint64{}
	for _, n := range sizes {
		peaks[n], files[n] = firstSyncPeakHeap(t, servers[n])
	}
	small, large := peaks[sizes[0]], peaks[sizes[1]]
	pulled := files[sizes[1]] - files[sizes[0]] // what the 3,000 more proposals take on disk
	t.Logf("peak heap in use above the baseline: %d proposals %.1f MB, %d proposals %.1f MB; their store files differ by %.1f MB",
		sizes[0], mb(small), sizes[1], mb(large), mb(pulled))
	if large > small && large-small > pulled/2 {
		t.Errorf("the peak heap of a first sync grows with the proposals: %.1f MB more for %d more proposals (%.1f MB in the store file)",
			mb(large-small), sizes[1]-sizes[0], mb(pulled))
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// firstSyncPeakHeap is the peak heap in use, above the heap before it,
// of a first sync from d (a server in another process): sampled after
// runtime.GC at the end of each chunk's downloads (all its details in
// memory, before the commit), every 50 ms (commits, the directory), and
// after the sync; and the size of the local store's file after it.
func firstSyncPeakHeap(t *testing.T, d *demoServer) (peakHeap, storeBytes uint64) {
	t.Helper()
	c, actor := d.signedIn(t, app.RoleSales)
	want, _, _ := serverIDs(t, c)
	st := openLocal(t, "")
	eng := NewEngine(st, c, actor)
	var (
		mu   sync.Mutex
		peak uint64
		ms   runtime.MemStats
	)
	sample := func() {
		mu.Lock()
		defer mu.Unlock()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	sample()
	base := peak
	eng.Subscribe(func(s State) {
		if s.Phase == PhasePull && s.Done > 0 && (s.Done%DefaultPullChunk == 0 || s.Done == s.Total) {
			sample()
		}
	})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	err := eng.SyncOnce(bg)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	sample()
	if got := len(localIDs(t, st)); got != len(want) {
		t.Fatalf("the store lists %d proposals, the server %d", got, len(want))
	}
	fi, err := os.Stat(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d proposals: heap in use %.1f MB before, peak %.1f MB; store file %.1f MB; %s",
		len(want), mb(base), mb(peak), mb(uint64(fi.Size())), rssAnon())
	return peak - base, uint64(fi.Size())
}

// demoChildEnv names the demo size a child process serves.
const demoChildEnv = "SYNCER_DEMO_CHILD"

// demoReady starts the child's one line on stdout: the demo credentials
// (JSON, with the server's base URL) follow.
const demoReady = "DEMO-SERVER-READY "

// TestHelperDemoServer is the child of startDemoChild: it serves the
// demo data grown to $SYNCER_DEMO_CHILD proposals until its stdin
// closes.
func TestHelperDemoServer(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv(demoChildEnv))
	if err != nil {
		t.Skip("runs only as the child of startDemoChild")
	}
	dir := t.TempDir()
	st, err := boltstore.Open(filepath.Join(dir, "server.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	catalog, _ := strconv.Atoi(os.Getenv(demoCatalogEnv)) // catalog_bench_integration_test.go
	creds, err := demo.Seed(bg, st, demo.Options{GrowTo: n, CatalogSize: catalog})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(apiserver.New(apiserver.Config{Logger: slog.New(slog.DiscardHandler)}, st))
	defer srv.Close()
	creds.BaseURL = srv.URL
	raw, err := json.Marshal(creds)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(demoReady + string(raw))
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// startDemoChild starts a demo server of n proposals in a child process
// (this test binary again); it stops at the test's cleanup.
func startDemoChild(t testing.TB, n int) *demoServer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDemoServer$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprint(demoChildEnv, "=", n))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Error(err)
		return nil
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Error(err)
		return nil
	}
	if err := cmd.Start(); err != nil {
		t.Error(err)
		return nil
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		raw, ok := strings.CutPrefix(sc.Text(), demoReady)
		if !ok {
			continue
		}
		d := &demoServer{Count: n, Pid: cmd.Process.Pid}
		if err := json.Unmarshal([]byte(raw), &d.Creds); err != nil {
			t.Error(err)
			return nil
		}
		d.URL = d.Creds.BaseURL
		go func() { _, _ = io.Copy(io.Discard, out) }()
		return d
	}
	t.Errorf("the demo server child (%d proposals) did not start: %v", n, sc.Err())
	return nil
}

// rssAnon is the process's anonymous and file-backed resident memory
// (Linux), for the log.
func rssAnon() string {
	return fmt.Sprintf("RssAnon: %d kB, RssFile: %d kB", procstat.KB("RssAnon"), procstat.KB("RssFile"))
}
