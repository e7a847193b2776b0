package apiserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
)

// BenchmarkWriteWebhookEvent is one edit's write with its event (a
// subscription wants it: the body is rendered and queued in the same
// transaction) beside the same write without (no subscription), in the
// same run, each on a fresh file: as served (fsync) and without fsync,
// where the difference is not drowned by the disk.
func BenchmarkWriteWebhookEvent(b *testing.B) {
	for _, sync := range []bool{true, false} {
		for _, with := range []bool{false, true} {
			name := map[bool]string{true: "fsync", false: "nosync"}[sync] + "/" + map[bool]string{true: "with", false: "without"}[with]
			b.Run(name, func(b *testing.B) {
				var opts []boltstore.Option
				if !sync {
					opts = append(opts, boltstore.WithNoSync())
				}
				st, err := boltstore.Open(filepath.Join(b.TempDir(), "data.db"), opts...)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { st.Close() })
				e := newEnvOn(b, st)
				if with {
					if _, err := st.CreateSubscription(bg, store.WebhookSubscription{AccountID: e.main.acct.ID,
						URL: "https://93.184.216.34/", Events: []app.WebhookEventType{app.EventProposalUpdated}, Enabled: true, Secret: "whsec_AAAA"}); err != nil {
						b.Fatal(err)
					}
				}
				a := e.main
				m := &app.SetDescription{ID: a.draft}
				for i := 0; b.Loop(); i++ {
					m.Description = "text " + string(rune('a'+i%26))
					if err := e.st.Update(bg, a.acct.ID, func(tx store.Tx) error {
						_, err := ApplyEdit(tx, a.admin.rec.User, time.Now(), m, nil)
						return err
					}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// hookBench is a bbolt file (fsync on, as served) with a subscription to
// a fast receiver on loopback that reports when each version arrives.
type hookBench struct {
	e      *tenv
	worker *webhook.Worker
	mu     sync.Mutex
	got    map[int64]time.Time // version -> arrival
	count  int
}

func newHookBench(b *testing.B) *hookBench {
	dir := b.TempDir()
	st, err := boltstore.Open(filepath.Join(dir, "data.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	h := &hookBench{got: map[int64]time.Time{}}
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct{ Data struct{ Version int64 } }
		json.Unmarshal(body, &ev)
		h.mu.Lock()
		h.got[ev.Data.Version] = time.Now()
		h.count++
		h.mu.Unlock()
	}))
	b.Cleanup(rcv.Close)
	h.e = newEnvOn(b, st)
	if _, err := st.CreateSubscription(bg, store.WebhookSubscription{AccountID: h.e.main.acct.ID,
		URL: rcv.URL, Events: []app.WebhookEventType{app.EventProposalUpdated}, Enabled: true, Secret: "whsec_AAAA"}); err != nil {
		b.Fatal(err)
	}
	h.worker = webhook.NewWorker(webhook.Config{Queue: st, StoreID: st.StoreID(), Guard: &webhook.Guard{AllowPrivate: true}})
	return h
}

func (h *hookBench) write(b *testing.B, i int) (version int64) {
	a := h.e.main
	m := &app.SetDescription{ID: a.draft, Description: "text " + string(rune('a'+i%26))}
	if err := h.e.st.Update(bg, a.acct.ID, func(tx store.Tx) error {
		p, err := ApplyEdit(tx, a.admin.rec.User, time.Now(), m, nil)
		if p != nil {
			version = p.Version
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return version
}

// run starts the worker; stop stops it and waits for it.
func (h *hookBench) run() (stop func()) {
	ctx, cancel := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { h.worker.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

func (h *hookBench) delivered() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count
}

// BenchmarkWebhookLatency: 100 committed changes a second for five
// seconds; the time from each commit to its arrival at the receiver.
func BenchmarkWebhookLatency(b *testing.B) {
	for b.Loop() {
		h := newHookBench(b)
		stop := h.run()
		committed := map[int64]time.Time{}
		tick := time.NewTicker(10 * time.Millisecond)
		const n = 500
		for i := range n {
			<-tick.C
			v := h.write(b, i)
			committed[v] = time.Now()
			h.worker.Wake() // as the server does after every write
		}
		tick.Stop()
		waitUntil(b, func() bool { return h.delivered() >= n })
		stop()
		var lat []time.Duration
		h.mu.Lock()
		for v, at := range committed {
			lat = append(lat, h.got[v].Sub(at))
		}
		h.mu.Unlock()
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	}
}

// BenchmarkWebhookThroughput: 2,000 queued deliveries sent to a fast
// receiver on loopback, as fast as the worker goes.
func BenchmarkWebhookThroughput(b *testing.B) {
	for b.Loop() {
		h := newHookBench(b)
		const n = 2000
		var wg sync.WaitGroup
		for w := range 8 { // queued by concurrent writers (group commits)
			wg.Go(func() {
				for i := w; i < n; i += 8 {
					h.write(b, i)
				}
			})
		}
		wg.Wait()
		start := time.Now()
		stop := h.run()
		waitUntil(b, func() bool { return h.delivered() >= n })
		d := time.Since(start)
		stop()
		b.ReportMetric(n/d.Seconds(), "deliveries/s")
	}
}

func waitUntil(b *testing.B, cond func() bool) {
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			b.Fatal("timed out")
		}
		time.Sleep(time.Millisecond) // polling for a condition
	}
}
