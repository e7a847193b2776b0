package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"

	"proposaldesk/apiserver/store"
)

// Config configures a Worker.
type Config struct {
	Queue store.Webhooks
	// StoreID makes message IDs (MessageID).
	StoreID string
	Guard   *Guard
	// Timeout bounds one attempt (default DefaultTimeout).
	Timeout time.Duration
	Clock   Clock
	// Owner names this sender in the queue's leases (default random:
	// one per process).
	Owner string
	// Lease is how long a claim holds a delivery (default: twice the
	// timeout and a minute): a sender killed mid-delivery leaves it to
	// another once its lease runs out.
	Lease time.Duration
	// Batch is the most deliveries claimed at once, Concurrency the
	// most sent at once (defaults 64 and 16).
	Batch, Concurrency int
	// Poll is how often the queue is looked at without a Wake
	// (default 1 s).
	Poll time.Duration
	// Jitter draws a number in [0,1) (default math/rand).
	Jitter func() float64
	Logger *slog.Logger
	// Delivered, when set, hears of every successful attempt (figures).
	Delivered func(j store.WebhookJob, at time.Time)
}

// DefaultTimeout bounds one attempt.
const DefaultTimeout = 15 * time.Second

// maxResponse is the most of a receiver's answer read (and dropped).
const maxResponse = 64 << 10

// Worker sends the queue's due deliveries.
type Worker struct {
	cfg    Config
	client *http.Client
	wake   chan struct{}
}

// NewWorker makes a worker; Run starts it.
func NewWorker(cfg Config) *Worker {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.Owner == "" {
		var b [8]byte
		rand.Read(b[:])
		cfg.Owner = hex.EncodeToString(b[:])
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 2*cfg.Timeout + time.Minute
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 64
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 16
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.Jitter == nil {
		cfg.Jitter = mrand.Float64
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Guard == nil {
		cfg.Guard = &Guard{}
	}
	return &Worker{cfg: cfg, client: cfg.Guard.Client(cfg.Timeout), wake: make(chan struct{}, 1)}
}

// Wake tells the worker that something may have been queued: it looks
// at once instead of at its next poll.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run sends deliveries until ctx ends. Up to Concurrency attempts run
// at once, each on its own: a receiver that holds its request open
// takes one slot until the timeout, never the others' turns. Finished
// attempts are recorded together, in one store transaction.
func (w *Worker) Run(ctx context.Context) {
	results := make(chan store.WebhookOutcome, w.cfg.Concurrency)
	inflight := 0
	var done []store.WebhookOutcome
	for {
	drain:
		for {
			select {
			case o := <-results:
				done = append(done, o)
			default:
				break drain
			}
		}
		if len(done) > 0 {
			if err := w.finish(ctx, done); err != nil {
				w.cfg.Logger.Error("webhook deliveries", "err", err)
			}
			inflight -= len(done)
			done = done[:0]
		}
		claimed, want := 0, min(w.cfg.Concurrency-inflight, w.cfg.Batch)
		if want > 0 {
			jobs, err := w.cfg.Queue.ClaimDeliveries(ctx, w.cfg.Owner, w.cfg.Clock.Now(), w.cfg.Lease, want)
			if err != nil && ctx.Err() == nil {
				w.cfg.Logger.Error("webhook deliveries", "err", fmt.Errorf("claim: %w", err))
			}
			for _, j := range jobs {
				inflight++
				go func() { results <- w.attempt(ctx, j) }()
			}
			claimed = len(jobs)
		}
		if claimed > 0 && claimed == want {
			continue // more may be due
		}
		select {
		case <-ctx.Done():
			// What finished is recorded; attempts cut short are not:
			// their claims lapse and they are made again, with the
			// same webhook-id.
			for ; inflight > 0; inflight-- {
				done = append(done, <-results)
			}
			if err := w.finish(ctx, done); err != nil {
				w.cfg.Logger.Error("webhook deliveries", "err", err)
			}
			return
		case o := <-results:
			done = append(done, o)
		case <-w.wake:
		case <-w.cfg.Clock.After(w.cfg.Poll):
		}
	}
}

// RunOnce claims the deliveries due now, makes one attempt of each and
// records the outcomes; n is how many it claimed. Tests step the queue
// with it.
func (w *Worker) RunOnce(ctx context.Context) (n int, err error) {
	jobs, err := w.cfg.Queue.ClaimDeliveries(ctx, w.cfg.Owner, w.cfg.Clock.Now(), w.cfg.Lease, w.cfg.Batch)
	if err != nil {
		return 0, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	if len(jobs) == 0 {
		return 0, nil
	}
	outcomes := make([]store.WebhookOutcome, len(jobs))
	sem := make(chan struct{}, w.cfg.Concurrency)
	var wg sync.WaitGroup
	for i, j := range jobs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			outcomes[i] = w.attempt(ctx, j)
		})
	}
	wg.Wait()
	return len(jobs), w.finish(ctx, outcomes)
}

// finish records outcomes, but those of attempts cut short by the
// worker's own stop.
func (w *Worker) finish(ctx context.Context, outcomes []store.WebhookOutcome) error {
	outcomes = slices.DeleteFunc(outcomes, func(o store.WebhookOutcome) bool { return o.Attempt.Result == "" })
	if len(outcomes) == 0 {
		return nil
	}
	if err := w.cfg.Queue.FinishDeliveries(context.WithoutCancel(ctx), w.cfg.Owner, outcomes); err != nil {
		return fmt.Errorf("record webhook attempts: %w", err)
	}
	if w.cfg.Delivered != nil {
		for _, o := range outcomes {
			if o.Attempt.Result == ResultDelivered {
				w.cfg.Delivered(o.Job, o.Attempt.At)
			}
		}
	}
	return nil
}

// attempt sends j once and decides what follows.
func (w *Worker) attempt(ctx context.Context, j store.WebhookJob) store.WebhookOutcome {
	at := w.cfg.Clock.Now()
	start := time.Now()
	status, retryAfter, sendErr := w.send(ctx, j, at)
	if sendErr != nil && ctx.Err() != nil {
		return store.WebhookOutcome{Job: j} // cut short by the stop: not an attempt
	}
	a := store.WebhookAttempt{
		SubscriptionID: j.SubscriptionID, DeliveryID: j.DeliveryID, EventID: j.EventID, Type: j.Type,
		At: at, StatusCode: status, LatencyMs: time.Since(start).Milliseconds(),
	}
	if sendErr != nil {
		a.Error = sendErr.Error()
	} else if status < 200 || status > 299 {
		a.Error = fmt.Sprintf("the receiver answered %d", status)
	}
	d := Decide(Try{Attempt: j.Attempts + 1, Status: status, RetryAfter: retryAfter, At: at,
		FailingSince: j.FailingSince, Jitter: w.cfg.Jitter()})
	a.Result, a.NextAttempt = d.Result, d.NextAt
	if d.Disable {
		a.Error = d.Reason
	}
	return store.WebhookOutcome{Job: j, Attempt: a, Done: d.Done, NextAt: d.NextAt, Disable: d.Disable, DisableReason: d.Reason}
}

func (w *Worker) send(ctx context.Context, j store.WebhookJob, at time.Time) (status int, retryAfter time.Duration, err error) {
	h, err := Headers(j.Secret, MessageID(w.cfg.StoreID, j.EventID), at, j.Body)
	if err != nil {
		return 0, 0, err
	}
	if err := w.cfg.Guard.CheckURL(ctx, j.URL); err != nil {
		return 0, 0, fmt.Errorf("refused: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.URL, bytes.NewReader(j.Body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "ProposalDesk-Webhooks/1")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponse))
	resp.Body.Close()
	return resp.StatusCode, ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), nil
}
