package store

import (
	"context"
	"errors"
	"time"
)

// ErrMailClaimLost is returned (wrapped) by RetryMail and FinishMail when
// the job is no longer held by the claim named: its lease lapsed and
// another claim took it, or it is gone.
var ErrMailClaimLost = errors.New("store: mail claim lapsed")

// MailJob is one message in the server's outgoing mail queue.
type MailJob struct {
	ID         int64     `json:"id"`
	AccountID  int64     `json:"accountId"`
	ProposalID int64     `json:"proposalId"`
	To         []string  `json:"to"`
	Subject    string    `json:"subject"`
	Text       string    `json:"text"`
	HTML       string    `json:"html"`
	EnqueuedAt time.Time `json:"enqueuedAt"`
	// Attempts counts the attempts begun: each claim adds one, and the
	// count a claim returned names that claim.
	Attempts int `json:"attempts"`
	// NextAttempt is when the job is next due; while it is claimed, when
	// the claim lapses.
	NextAttempt time.Time `json:"nextAttempt"`
	// LastError is why the last attempt failed.
	LastError string `json:"lastError"`
}

// MailQueue is the outgoing mail queue a Store keeps beside its data
// (both backends implement it), so a mail waiting for a retry survives a
// restart and several replicas share one queue.
type MailQueue interface {
	// EnqueueMail adds j, due at j.NextAttempt, with a new ID (j.ID and
	// j.Attempts are ignored) and returns the ID.
	EnqueueMail(ctx context.Context, j MailJob) (int64, error)
	// ClaimMail takes the job due earliest at now (NextAttempt <= now),
	// adds an attempt and moves NextAttempt to now+lease: no other claim,
	// at any replica, takes it until then, and a claimer killed mid-send
	// leaves it to another once the lease lapses. ok is false when no
	// job is due.
	ClaimMail(ctx context.Context, now time.Time, lease time.Duration) (j MailJob, ok bool, err error)
	// RetryMail puts back the job claimed with attempt (the Attempts the
	// claim returned), due at next, with why the attempt failed.
	RetryMail(ctx context.Context, id int64, attempt int, next time.Time, reason string) error
	// FinishMail removes the job claimed with attempt: it was delivered,
	// or refused for good.
	FinishMail(ctx context.Context, id int64, attempt int) error
	// NextMailDue is when the earliest job is due; ok is false when the
	// queue is empty.
	NextMailDue(ctx context.Context) (due time.Time, ok bool, err error)
}
