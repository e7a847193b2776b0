package mail_test

import (
	"path/filepath"
	"testing"
	"time"

	"proposaldesk/apiserver/mail"
	"proposaldesk/apiserver/mail/smtptest"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/pgstore"
	"proposaldesk/apiserver/store/pgstore/pgtest"
)

// BenchmarkEnqueueToAccepted measures the time from Enqueue to the
// SMTP server's acceptance (the queue's own Latencies) of 100 mails
// per iteration, sent to a loopback server offering STARTTLS: one at a
// time (each enqueued once the one before was accepted: the latency a
// salesperson's single send sees) and all at once (a burst).
//
//	go test ./apiserver/mail/ -run '^$' -bench EnqueueToAccepted -benchtime 1x
func BenchmarkEnqueueToAccepted(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) store.MailQueue
	}{
		{"bbolt", func(b *testing.B) store.MailQueue {
			s, err := openBoltB(filepath.Join(b.TempDir(), "pd.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		}},
		{"postgres", func(b *testing.B) store.MailQueue {
			s, err := pgstore.Open(ctx, pgtest.NewDatabase(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		}},
	}
	const n = 100
	for _, be := range backends {
		for _, burst := range []bool{false, true} {
			name := be.name + "/one-at-a-time"
			if burst {
				name = be.name + "/burst"
			}
			b.Run(name, func(b *testing.B) {
				srv := smtptest.Start(b, smtptest.Options{Mode: smtptest.StartTLS})
				q := mail.NewQueue(be.open(b), senderB(b, srv), mail.Hooks{}, fast)
				runB(b, q)
				sent := 0
				for b.Loop() {
					for range n {
						if err := q.Enqueue(ctx, 1, 1001, linkMail("ann@client.example")); err != nil {
							b.Fatal(err)
						}
						sent++
						if !burst {
							waitAccepted(b, q, sent)
						}
					}
					waitAccepted(b, q, sent)
				}
				med, count := q.Latencies().Quantile(0.5)
				p99, _ := q.Latencies().Quantile(0.99)
				if count < n {
					b.Fatalf("%d latencies recorded", count)
				}
				b.ReportMetric(float64(med)/float64(time.Millisecond), "median-ms")
				b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
			})
		}
	}
}

// waitAccepted waits until q has seen n mails accepted.
func waitAccepted(b *testing.B, q *mail.Queue, n int) {
	deadline := time.Now().Add(wait)
	for {
		if _, count := q.Latencies().Quantile(0.5); count >= n {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d mails not accepted after %s", n, wait)
		}
		time.Sleep(100 * time.Microsecond) // polling a counter: nothing to wait on
	}
}
