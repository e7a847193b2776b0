package apiserver

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
	"proposaldesk/app/report"
	"proposaldesk/internal/procstat"
)

// Export benchmarks over a demo store grown to 2,000 and then 10,000
// proposals, through the real handler on loopback. Each reports the
// proposals per second and the peak HeapInuse sampled while it ran: an
// export streams, so the peak must not grow with the number of
// proposals.
//
//	go test ./apiserver -run '^$' -bench 'Export|PDF' -benchtime 3x

var (
	benchMu  sync.Mutex
	benchEnv = map[int]*tenv{}
	benchKey = map[int]*tuser{}
)

// benchStore returns a server whose main demo account has n proposals
// (0: the demo's own), one store per size, kept for the whole run.
func benchStore(b *testing.B, n int) (*tenv, *tuser) {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if benchEnv[n] == nil {
		st, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), boltstore.WithNoSync())
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		creds, err := demo.Seed(bg, st, demo.Options{BaseURL: "http://127.0.0.1", GrowTo: n})
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("seeded a demo store with %d proposals in %v", n, time.Since(start).Round(time.Millisecond))
		a, _ := st.Auth().App(bg, creds.AppID)
		uc, _ := creds.User(demo.MainAccountName, app.RoleAdmin, true)
		rec, _ := st.Auth().User(bg, uc.UserID)
		e := &tenv{t: b, st: st, app: a, logs: &syncBuffer{}}
		e.s = New(Config{Logger: slog.New(slog.DiscardHandler)}, st)
		e.srv = httptest.NewServer(e.s)
		benchKey[n] = &tuser{rec: rec, key: e.newKey(rec, a.ID)}
		benchEnv[n] = e
	}
	e := *benchEnv[n]
	e.t = b
	return &e, benchKey[n]
}

// peakHeap samples HeapInuse until stop is closed.
func peakHeap(stop <-chan struct{}) *atomic.Uint64 {
	var peak atomic.Uint64
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return &peak
}

func benchExport(b *testing.B, queries []string) {
	for _, n := range []int{2000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			e, u := benchStore(b, n)
			var total int
			if err := e.st.View(bg, u.rec.AccountID, func(tx store.Tx) error {
				_, c, err := tx.List(app.ListQuery{PageNumber: 1, PageSize: 1})
				total = c
				return err
			}); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			stop := make(chan struct{})
			peak := peakHeap(stop)
			var bytesOut int64
			b.ResetTimer()
			for range b.N {
				for _, q := range queries {
					resp, err := e.srv.Client().Do(e.httpRequest(treq{method: "GET", path: "/public/export/proposals?" + q, as: u}))
					if err != nil {
						b.Fatal(err)
					}
					nb, err := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != http.StatusOK || resp.Trailer.Get(TrailerExportErr) != "" {
						b.Fatalf("%s: status %d, err %v, trailer %q", q, resp.StatusCode, err, resp.Trailer.Get(TrailerExportErr))
					}
					bytesOut += nb
				}
			}
			b.StopTimer()
			close(stop)
			perOp := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(total), "proposals")
			b.ReportMetric(float64(total)/perOp, "proposals/s")
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(bytesOut)/float64(b.N)/(1<<20), "MiB/op")
			if rss := float64(procstat.KB("VmRSS")) / 1024; rss > 0 {
				b.ReportMetric(rss, "rss-MiB")
			}
		})
	}
}

// BenchmarkExportCSV10k: a whole CSV export (proposals and line items,
// two requests) of every proposal.
func BenchmarkExportCSV10k(b *testing.B) {
	benchExport(b, []string{"Format=csv&Part=proposals", "Format=csv&Part=items"})
}

// BenchmarkExportJSONL10k: the JSON Lines export of every proposal.
func BenchmarkExportJSONL10k(b *testing.B) {
	benchExport(b, []string{"Format=jsonl"})
}

// BenchmarkClientPDF renders the demo proposal with the most items:
// directly (report.Client) and through the document endpoint.
func BenchmarkClientPDF(b *testing.B) {
	e, u := benchStore(b, 0)
	var biggest *app.Proposal
	most := -1
	e.st.View(bg, u.rec.AccountID, func(tx store.Tx) error {
		ids, _ := tx.ProposalIDs()
		for _, id := range ids {
			p, _ := tx.Proposal(id)
			n := 0
			for _, a := range p.Areas {
				for _, o := range a.Options {
					n += len(o.Items)
				}
			}
			if n > most {
				biggest, most = p, n
			}
		}
		return nil
	})
	d := app.DetailView(biggest, app.ViewOptions{ViewCosts: true})
	doc := report.FromProposal(&d)
	b.Run("render", func(b *testing.B) {
		var size int
		for range b.N {
			var buf bytes.Buffer
			if err := report.Client(&buf, &doc, report.Options{}); err != nil {
				b.Fatal(err)
			}
			size = buf.Len()
		}
		b.ReportMetric(float64(most), "items")
		b.ReportMetric(float64(size)/1024, "KiB")
	})
	b.Run("endpoint", func(b *testing.B) {
		for range b.N {
			r := e.get(u, pathf("/public/proposals/%d/document?Kind=client", biggest.ID))
			if r.status != http.StatusOK {
				b.Fatalf("status %d", r.status)
			}
		}
	})
}
