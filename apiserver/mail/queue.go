package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"strings"
	"sync"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Message is one mail to send about a proposal.
type Message struct {
	To      []string
	Subject string
	Text    string
	HTML    string // optional alternative to Text
}

// Hooks are what the server does when a message's fate is known.
type Hooks struct {
	// Refused is called when the mail server refused the message for
	// good (or the schedule gave up on it), with why in words. An error
	// keeps the message queued, so the hook runs again later.
	Refused func(ctx context.Context, j store.MailJob, reason string) error
	// Accepted is called once the SMTP server accepted the message;
	// took is the time from the enqueue.
	Accepted func(ctx context.Context, j store.MailJob, took time.Duration)
}

// QueueOptions tune a Queue; zero values take the defaults.
type QueueOptions struct {
	Schedule Schedule      // DefaultSchedule
	Lease    time.Duration // how long a claim holds a job: 5m
	// Poll is how often an idle worker looks for mail queued by other
	// replicas or due for a retry (default 5s); mail queued here wakes
	// it at once.
	Poll    time.Duration
	Workers int              // sends at once (default 2)
	Now     func() time.Time // time.Now
	Log     *slog.Logger     // slog.Default()
}

// Queue is the durable outgoing mail queue: Enqueue stores a message in
// the server's store, and Run sends what is due, one replica per attempt.
type Queue struct {
	q     store.MailQueue
	send  func(context.Context, store.MailJob) error
	hooks Hooks
	opt   QueueOptions
	wake  chan struct{}
	stats *Latencies
}

// NewQueue makes the queue over q, sending with sender.
func NewQueue(q store.MailQueue, sender *Sender, hooks Hooks, opt QueueOptions) *Queue {
	if opt.Schedule == (Schedule{}) {
		opt.Schedule = DefaultSchedule
	}
	if opt.Lease <= 0 {
		opt.Lease = 5 * time.Minute
	}
	// A claim must outlast the attempt it covers, or another replica
	// sends the same message while the first still talks to the server.
	// The timeout bounds each step of the dialogue (connect, each
	// command, the message), so an attempt may take several of it.
	opt.Lease = max(opt.Lease, 10*sender.timeout)
	if opt.Poll <= 0 {
		opt.Poll = 5 * time.Second
	}
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return &Queue{q: q, send: sender.Send, hooks: hooks, opt: opt, wake: make(chan struct{}, 1), stats: newLatencies(1024)}
}

// ErrNotConfigured is Enqueue's error on a nil Queue: the server has no
// SMTP server, so no mail goes out.
var ErrNotConfigured = errors.New("mail: no SMTP server configured")

// Enqueue stores m for sending about proposalID of account; once it
// returns, the message survives a restart. A nil Queue (no SMTP server
// configured) returns ErrNotConfigured.
func (q *Queue) Enqueue(ctx context.Context, account, proposalID int64, m Message) error {
	if q == nil {
		return ErrNotConfigured
	}
	if len(m.To) == 0 {
		return app.Invalid("To", "names no recipient")
	}
	for _, to := range m.To {
		if _, err := netmail.ParseAddress(to); err != nil || strings.ContainsAny(to, "<>") {
			return app.Invalid("To", "%q is not an email address", to)
		}
	}
	now := q.opt.Now()
	_, err := q.q.EnqueueMail(ctx, store.MailJob{AccountID: account, ProposalID: proposalID, To: m.To,
		Subject: m.Subject, Text: m.Text, HTML: m.HTML, EnqueuedAt: now, NextAttempt: now})
	if err != nil {
		return err
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// Latencies are the times from enqueue to accepted by the SMTP server of
// the mail this replica sent.
func (q *Queue) Latencies() *Latencies { return q.stats }

// Run sends due mail until ctx ends.
func (q *Queue) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range q.opt.Workers {
		wg.Go(func() { q.work(ctx) })
	}
	wg.Wait()
}

// work claims and sends due jobs; with none due it waits for an
// enqueue here, the next job's time or the poll, whichever comes first.
func (q *Queue) work(ctx context.Context) {
	for ctx.Err() == nil {
		sent, err := q.Step(ctx)
		if err != nil && ctx.Err() == nil {
			q.opt.Log.Error("mail queue", "err", err)
		}
		if sent && err == nil {
			continue
		}
		wait := q.opt.Poll
		if err == nil {
			if due, ok, derr := q.q.NextMailDue(ctx); derr == nil && ok {
				wait = min(wait, max(due.Sub(q.opt.Now()), 0)+time.Millisecond)
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-q.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// Step makes one attempt at the job due first, if any: sent is whether
// there was one.
func (q *Queue) Step(ctx context.Context) (sent bool, err error) {
	j, ok, err := q.q.ClaimMail(ctx, q.opt.Now(), q.opt.Lease)
	if err != nil || !ok {
		return false, err
	}
	return true, q.attempt(ctx, j)
}

func (q *Queue) attempt(ctx context.Context, j store.MailJob) error {
	// What the attempt found is written down even when the server is
	// shutting down meanwhile: a job left claimed waits for its lease.
	done := context.WithoutCancel(ctx)
	log := q.opt.Log.With("mailJob", j.ID, "account", j.AccountID, "proposal", j.ProposalID, "attempt", j.Attempts)
	sendErr := q.send(ctx, j)
	if sendErr == nil {
		took := q.opt.Now().Sub(j.EnqueuedAt)
		q.stats.add(took)
		log.Info("mail accepted by the SMTP server", "took", took)
		if q.hooks.Accepted != nil {
			q.hooks.Accepted(done, j, took)
		}
		return q.q.FinishMail(done, j.ID, j.Attempts)
	}
	if ctx.Err() != nil {
		// Shutting down mid-send: hand the job back at once rather
		// than at the end of the lease (a replica killed here leaves
		// that to the lease).
		return q.q.RetryMail(done, j.ID, j.Attempts, q.opt.Now(), "interrupted by a shutdown")
	}
	reason := Reason(sendErr)
	now := q.opt.Now()
	if Classify(sendErr) == Transient {
		next, giveUp := q.opt.Schedule.Next(j.Attempts, j.EnqueuedAt, now)
		if !giveUp {
			log.Warn("mail deferred", "err", sendErr, "next", next)
			return q.q.RetryMail(done, j.ID, j.Attempts, next, reason)
		}
		reason = fmt.Sprintf("gave up after %d attempts over %s; last, %s", j.Attempts, now.Sub(j.EnqueuedAt).Round(time.Minute), reason)
	}
	log.Warn("mail refused for good", "err", sendErr, "reason", reason)
	if q.hooks.Refused != nil {
		if err := q.hooks.Refused(done, j, reason); err != nil {
			// Try the hook again after the first step of the schedule.
			next, _ := q.opt.Schedule.Next(1, now, now)
			if rerr := q.q.RetryMail(done, j.ID, j.Attempts, next, reason); rerr != nil {
				return errors.Join(err, rerr)
			}
			return fmt.Errorf("mail job %d refused, recording it: %w", j.ID, err)
		}
	}
	return q.q.FinishMail(done, j.ID, j.Attempts)
}
