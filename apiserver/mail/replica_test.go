package mail_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/mail"
	"proposaldesk/apiserver/mail/smtptest"
	"proposaldesk/apiserver/store/pgstore"
	"proposaldesk/apiserver/store/pgstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// openReplicas opens n stores on one database, as n server replicas do.
func openReplicas(t *testing.T, n int) []*pgstore.Store {
	t.Helper()
	url := pgtest.NewDatabase(t)
	var out []*pgstore.Store
	for range n {
		s, err := pgstore.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		out = append(out, s)
	}
	return out
}

// Two replicas, each with two workers, sending from one queue: every
// message goes out once, whichever replica queued it.
func TestTwoReplicasSendEachMailOnce(t *testing.T) {
	const n = 60
	var mu sync.Mutex
	offers := map[string]int{}
	srv := smtptest.Start(t, smtptest.Options{Reply: func(_ int, m smtptest.Message) error {
		mu.Lock()
		defer mu.Unlock()
		offers[subjectOf(m)]++
		return nil
	}})
	stores := openReplicas(t, 2)
	var queues []*mail.Queue
	for _, s := range stores {
		queues = append(queues, mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast))
	}
	for i := range n {
		m := linkMail("ann@client.example")
		m.Subject = fmt.Sprintf("Proposal %d", 1000+i)
		if err := queues[i%2].Enqueue(ctx, 1, int64(1000+i), m); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range queues {
		run(t, q)
	}
	srv.WaitCount(t, n, wait)
	waitEmpty(t, stores[0])
	mu.Lock()
	defer mu.Unlock()
	for i := range n {
		if c := offers[fmt.Sprintf("Proposal %d", 1000+i)]; c != 1 {
			t.Errorf("Proposal %d offered %d times; want once", 1000+i, c)
		}
	}
	_, a := queues[0].Latencies().Quantile(0.5)
	_, b := queues[1].Latencies().Quantile(0.5)
	if a+b != n {
		t.Errorf("the replicas sent %d + %d; want %d in all", a, b, n)
	}
}

// A replica killed after claiming a message (before or during the send)
// leaves it to another replica once its lease lapses.
func TestKilledReplicasClaimPassesOnAfterTheLease(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	stores := openReplicas(t, 2)
	dead := mail.NewQueue(stores[0], sender(t, srv), mail.Hooks{}, fast)
	if err := dead.Enqueue(ctx, 1, 1001, linkMail("ann@client.example")); err != nil {
		t.Fatal(err)
	}
	// The claim the killed replica made, with a short lease.
	const lease = 300 * time.Millisecond
	claimed := time.Now()
	if _, ok, err := stores[0].ClaimMail(ctx, claimed, lease); !ok || err != nil {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	live := mail.NewQueue(stores[1], sender(t, srv), mail.Hooks{}, fast)
	run(t, live)
	srv.WaitCount(t, 1, wait)
	if took := time.Since(claimed); took < lease {
		t.Errorf("sent %s after the claim, within its lease of %s", took, lease)
	}
	waitEmpty(t, stores[1])
	if n := srv.Offered(); n != 1 {
		t.Errorf("offered %d times; want once", n)
	}
}
