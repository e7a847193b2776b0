package storetest

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
)

// mailQueue is s's mail queue; every backend keeps one.
func mailQueue(t testing.TB, s store.Store) store.MailQueue {
	t.Helper()
	q, ok := s.(store.MailQueue)
	if !ok {
		t.Fatalf("%T keeps no mail queue", s)
	}
	return q
}

// testMailQueue: jobs come out earliest due first, a claim holds a job
// for its lease and no longer, only the claim that holds a job may
// finish or put it back, and what waits survives a reopen.
func testMailQueue(t *testing.T, be Backend) {
	s := be.Open(t, Options{})
	q := mailQueue(t, s)
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	const lease = time.Minute
	if _, ok, err := q.NextMailDue(ctx); ok || err != nil {
		t.Fatalf("empty queue: due %v, %v", ok, err)
	}
	if _, ok, err := q.ClaimMail(ctx, t0, lease); ok || err != nil {
		t.Fatalf("claim from an empty queue: %v, %v", ok, err)
	}
	late := store.MailJob{AccountID: 7, ProposalID: 70, To: []string{"b@example.com"}, Subject: "Later", EnqueuedAt: t0, NextAttempt: t0.Add(time.Second)}
	early := store.MailJob{AccountID: 8, ProposalID: 80, To: []string{"a@example.com", "c@example.com"}, Subject: "Proposal 1001",
		Text: "Open https://example.com/c/x", HTML: "<p>Open</p>", EnqueuedAt: t0, NextAttempt: t0, Attempts: 5, ID: 99}
	idLate, err := q.EnqueueMail(ctx, late)
	if err != nil {
		t.Fatal(err)
	}
	idEarly, err := q.EnqueueMail(ctx, early)
	if err != nil || idEarly == idLate {
		t.Fatalf("enqueue: %d %d, %v", idLate, idEarly, err)
	}
	if due, ok, err := q.NextMailDue(ctx); !ok || err != nil || !due.Equal(t0) {
		t.Errorf("next due %v %v, %v; want %v", due, ok, err, t0)
	}

	j, ok, err := q.ClaimMail(ctx, t0, lease)
	want := early
	want.ID, want.Attempts, want.NextAttempt = idEarly, 1, t0.Add(lease)
	if !ok || err != nil || !sameJob(j, want) {
		t.Fatalf("first claim %+v %v, %v; want %+v", j, ok, err, want)
	}
	// The other job is not due yet, and the claimed one is held.
	if j2, ok, err := q.ClaimMail(ctx, t0, lease); ok || err != nil {
		t.Fatalf("claim before anything else is due: %+v, %v", j2, err)
	}
	if err := q.RetryMail(ctx, idEarly, 2, t0, "wrong claim"); !errors.Is(err, store.ErrMailClaimLost) {
		t.Errorf("retry naming another attempt: %v", err)
	}
	if err := q.RetryMail(ctx, idEarly, 1, t0.Add(10*time.Minute), "451 try later"); err != nil {
		t.Fatal(err)
	}
	// Now the later job comes first.
	j, ok, err = q.ClaimMail(ctx, t0.Add(2*time.Second), lease)
	if !ok || err != nil || j.ID != idLate || j.Attempts != 1 {
		t.Fatalf("second claim %+v %v, %v; want job %d", j, ok, err, idLate)
	}
	// Its claimer dies: once the lease lapses, another claim takes it,
	// and the first claimer can no longer finish it.
	j, ok, err = q.ClaimMail(ctx, t0.Add(2*time.Second+lease), lease)
	if !ok || err != nil || j.ID != idLate || j.Attempts != 2 {
		t.Fatalf("claim after the lease %+v %v, %v", j, ok, err)
	}
	if err := q.FinishMail(ctx, idLate, 1); !errors.Is(err, store.ErrMailClaimLost) {
		t.Errorf("finish by a lapsed claim: %v", err)
	}
	if err := q.FinishMail(ctx, idLate, 2); err != nil {
		t.Fatal(err)
	}
	if err := q.FinishMail(ctx, idLate, 2); !errors.Is(err, store.ErrMailClaimLost) {
		t.Errorf("finish twice: %v", err)
	}

	// What waits for a retry survives a reopen, with why it waits.
	s = be.Reopen(t, s)
	q = mailQueue(t, s)
	if due, ok, err := q.NextMailDue(ctx); !ok || err != nil || !due.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("after reopen: next due %v %v, %v", due, ok, err)
	}
	j, ok, err = q.ClaimMail(ctx, t0.Add(10*time.Minute), lease)
	want.Attempts, want.NextAttempt, want.LastError = 2, t0.Add(11*time.Minute), "451 try later"
	if !ok || err != nil || !sameJob(j, want) {
		t.Fatalf("claim after reopen %+v %v, %v; want %+v", j, ok, err, want)
	}
	if err := q.FinishMail(ctx, j.ID, j.Attempts); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := q.NextMailDue(ctx); ok || err != nil {
		t.Errorf("queue not empty at the end: %v, %v", ok, err)
	}
}

// testMailClaimsConcurrent: claims racing over one queue each take a
// different job, and every job is taken once.
func testMailClaimsConcurrent(t *testing.T, be Backend) {
	q := mailQueue(t, be.Open(t, Options{}))
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	const jobs, claimers = 200, 16
	for i := range jobs {
		if _, err := q.EnqueueMail(ctx, store.MailJob{AccountID: 1, ProposalID: int64(i), To: []string{"x@example.com"}, EnqueuedAt: t0, NextAttempt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var got []int64
	var wg sync.WaitGroup
	for range claimers {
		wg.Go(func() {
			for {
				j, ok, err := q.ClaimMail(ctx, t0, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					return
				}
				mu.Lock()
				got = append(got, j.ProposalID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(got)
	if len(got) != jobs || len(slices.Compact(slices.Clone(got))) != jobs {
		t.Errorf("claimed %d jobs (%d distinct); want each of %d once", len(got), len(slices.Compact(slices.Clone(got))), jobs)
	}
}

// sameJob compares jobs with times to the microsecond (PostgreSQL's
// precision).
func sameJob(a, b store.MailJob) bool {
	us := func(t time.Time) time.Time { return t.Truncate(time.Microsecond) }
	return a.ID == b.ID && a.AccountID == b.AccountID && a.ProposalID == b.ProposalID && slices.Equal(a.To, b.To) &&
		a.Subject == b.Subject && a.Text == b.Text && a.HTML == b.HTML && us(a.EnqueuedAt).Equal(us(b.EnqueuedAt)) &&
		a.Attempts == b.Attempts && us(a.NextAttempt).Equal(us(b.NextAttempt)) && a.LastError == b.LastError
}
