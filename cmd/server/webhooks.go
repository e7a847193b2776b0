package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
)

// startWebhooks runs the webhook worker over st until the returned stop
// is called, and wires cfg so that writes wake it. Every replica of a
// PostgreSQL server runs one: the queue's leases give each attempt to
// one of them.
func startWebhooks(st store.Store, cfg *apiserver.Config, timeout time.Duration, log *slog.Logger) (stop func()) {
	q, ok := st.(store.Webhooks)
	if !ok {
		return func() {}
	}
	w := webhook.NewWorker(webhook.Config{
		Queue: q, StoreID: st.StoreID(), Timeout: timeout, Logger: log,
		Guard: &webhook.Guard{AllowPrivate: cfg.WebhookAllowPrivate},
	})
	cfg.WebhookWake = w.Wake
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { w.Run(ctx) })
	return func() {
		cancel()
		wg.Wait()
	}
}
