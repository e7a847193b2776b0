package pgstore

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
)

// queueEvent commits a proposal with one event for subscription sub.
func queueEvent(t testing.TB, s store.Store, account, sub int64, n int) {
	t.Helper()
	err := s.Update(ctx, account, func(tx store.Tx) error {
		p := storetest.NewProposal(tx, fmt.Sprint("hooked ", n), nil)
		if err := tx.PutProposal(p); err != nil {
			return err
		}
		return tx.(store.WebhookTx).AddWebhookEvent(store.WebhookEvent{ProposalID: p.ID, Type: app.EventProposalCreated,
			At: time.Now(), Body: fmt.Appendf(nil, `{"n":%d}`, n)}, []int64{sub})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// replicasTB is replicas for a benchmark too.
func replicasTB(t testing.TB) (*storetest.Fixture, [2]store.Store) {
	f := storetest.NewFixture(t, backend)
	second, err := Open(ctx, f.S.(*Store).url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	return f, [2]store.Store{f.S, second}
}

// BenchmarkWebhookReplicaLatency: two replicas, each running a worker
// (polling every 100 ms; a write wakes only its own replica's), take 100
// committed events a second, written on both; the time from each commit
// to its arrival at a receiver on loopback.
func BenchmarkWebhookReplicaLatency(b *testing.B) {
	for b.Loop() {
		f, rs := replicasTB(b)
		var mu sync.Mutex
		arrived := map[int]time.Time{}
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body struct{ N int }
			json.NewDecoder(r.Body).Decode(&body)
			mu.Lock()
			arrived[body.N] = time.Now()
			mu.Unlock()
		}))
		sub, err := rs[0].(store.Webhooks).CreateSubscription(ctx, store.WebhookSubscription{AccountID: f.A, URL: rcv.URL,
			Events: []app.WebhookEventType{app.EventProposalCreated}, Enabled: true, Secret: "whsec_AAAA"})
		if err != nil {
			b.Fatal(err)
		}
		runCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		var workers [2]*webhook.Worker
		for i, r := range rs {
			workers[i] = webhook.NewWorker(webhook.Config{Queue: r.(store.Webhooks), StoreID: r.StoreID(), Owner: fmt.Sprint("replica", i),
				Guard: &webhook.Guard{AllowPrivate: true}, Poll: 100 * time.Millisecond})
			wg.Go(func() { workers[i].Run(runCtx) })
		}
		const n = 500
		committed := make([]time.Time, n)
		tick := time.NewTicker(10 * time.Millisecond)
		for i := range n {
			<-tick.C
			queueEvent(b, rs[i%2], f.A, sub.ID, i)
			committed[i] = time.Now()
			workers[i%2].Wake()
		}
		tick.Stop()
		deadline := time.Now().Add(time.Minute)
		for {
			mu.Lock()
			done := len(arrived)
			mu.Unlock()
			if done == n {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d delivered", done, n)
			}
			time.Sleep(time.Millisecond) // polling for a condition
		}
		stop()
		wg.Wait()
		rcv.Close()
		lat := make([]time.Duration, n)
		for i := range n {
			lat[i] = arrived[i].Sub(committed[i])
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[n/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[n*99/100].Microseconds())/1000, "p99-ms")
	}
}

// TestWebhookReplicasDeliverOnce: two replicas' workers share one queue
// while writers on both add to it; every event reaches the receiver, and
// none twice (the receiver always answers, so there is no retry).
func TestWebhookReplicasDeliverOnce(t *testing.T) {
	f, rs := replicas(t)
	var mu sync.Mutex
	seen := map[string]int{}
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		mu.Unlock()
	}))
	defer rcv.Close()
	secret, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	sub, err := rs[0].(store.Webhooks).CreateSubscription(ctx, store.WebhookSubscription{AccountID: f.A, URL: rcv.URL,
		Events: []app.WebhookEventType{app.EventProposalCreated}, Enabled: true, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var byReplica [2]atomic.Int32
	for i, r := range rs {
		w := webhook.NewWorker(webhook.Config{Queue: r.(store.Webhooks), StoreID: r.StoreID(), Owner: fmt.Sprint("replica", i),
			Guard: &webhook.Guard{AllowPrivate: true}, Poll: 10 * time.Millisecond, Concurrency: 4, Batch: 8,
			Delivered: func(store.WebhookJob, time.Time) { byReplica[i].Add(1) }})
		wg.Go(func() { w.Run(runCtx) })
	}
	const events = 200
	var writers sync.WaitGroup
	for wr := range 4 {
		writers.Go(func() {
			for n := wr; n < events; n += 4 {
				queueEvent(t, rs[wr%2], f.A, sub.ID, n)
			}
		})
	}
	writers.Wait()
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := len(seen)
		mu.Unlock()
		if n == events && byReplica[0].Load()+byReplica[1].Load() == events {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events delivered", n, events)
		}
		time.Sleep(10 * time.Millisecond) // polling for a condition
	}
	stop()
	wg.Wait()
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s delivered %d times", id, n)
		}
	}
	a, b := byReplica[0].Load(), byReplica[1].Load()
	if int(a+b) != events {
		t.Errorf("replicas report %d + %d deliveries, want %d", a, b, events)
	}
	t.Logf("replica 0 delivered %d, replica 1 %d", a, b)
}

// TestWebhookLeaseHandsOver: a replica that claimed deliveries and died
// holds them only until its lease runs out; then another takes them, and
// the dead one's late finish moves nothing.
func TestWebhookLeaseHandsOver(t *testing.T) {
	f, rs := replicas(t)
	a, b := rs[0].(store.Webhooks), rs[1].(store.Webhooks)
	sub, err := a.CreateSubscription(ctx, store.WebhookSubscription{AccountID: f.A, URL: "https://93.184.216.34/",
		Events: []app.WebhookEventType{app.EventProposalCreated}, Enabled: true, Secret: "whsec_AAAA"})
	if err != nil {
		t.Fatal(err)
	}
	queueEvent(t, rs[0], f.A, sub.ID, 1)
	now := time.Now().Add(time.Second)
	got, err := a.ClaimDeliveries(ctx, "dead", now, time.Minute, 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("first claim: %v, %v", got, err)
	}
	if again, err := b.ClaimDeliveries(ctx, "alive", now.Add(59*time.Second), time.Minute, 10); err != nil || len(again) != 0 {
		t.Fatalf("claimed under a live lease: %v, %v", again, err)
	}
	taken, err := b.ClaimDeliveries(ctx, "alive", now.Add(time.Minute), time.Minute, 10)
	if err != nil || len(taken) != 1 || taken[0].DeliveryID != got[0].DeliveryID {
		t.Fatalf("after the lease: %v, %v", taken, err)
	}
	// The dead replica's late finish is logged but moves nothing.
	late := store.WebhookOutcome{Job: got[0], Done: true, Attempt: store.WebhookAttempt{Result: webhook.ResultDelivered, At: now}}
	if err := a.FinishDeliveries(ctx, "dead", []store.WebhookOutcome{late}); err != nil {
		t.Fatal(err)
	}
	retry := store.WebhookOutcome{Job: taken[0], NextAt: now.Add(2 * time.Hour), Attempt: store.WebhookAttempt{Result: webhook.ResultRetrying, At: now}}
	if err := b.FinishDeliveries(ctx, "alive", []store.WebhookOutcome{retry}); err != nil {
		t.Fatal(err)
	}
	if due, _ := b.ClaimDeliveries(ctx, "alive", now.Add(time.Hour), time.Minute, 10); len(due) != 0 {
		t.Errorf("due before its retry time: %v", due)
	}
	if due, _ := b.ClaimDeliveries(ctx, "alive", now.Add(2*time.Hour), time.Minute, 10); len(due) != 1 || due[0].Attempts != 1 {
		t.Errorf("at its retry time: %+v", due)
	}
}
