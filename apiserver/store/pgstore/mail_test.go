package pgstore

import (
	"context"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
)

// A claim passes over a job another replica's claim holds locked at
// that moment (SKIP LOCKED) and takes the next, rather than waiting for
// it and then taking the same job again.
func TestClaimMailSkipsALockedJob(t *testing.T) {
	s, _ := openTest(t)
	t0 := time.Now().Add(-time.Minute)
	var ids []int64
	for i := range 2 {
		id, err := s.EnqueueMail(ctx, store.MailJob{AccountID: 1, ProposalID: int64(i), To: []string{"a@example.com"}, EnqueuedAt: t0, NextAttempt: t0.Add(time.Duration(i) * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	other, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback(ctx)
	if _, err := other.Exec(ctx, "SELECT id FROM mail_jobs WHERE id = $1 FOR UPDATE", ids[0]); err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	j, ok, err := s.ClaimMail(c, time.Now(), time.Minute)
	if err != nil || !ok || j.ID != ids[1] {
		t.Fatalf("claim beside a locked job: %+v %v, %v; want job %d", j, ok, err, ids[1])
	}
}
