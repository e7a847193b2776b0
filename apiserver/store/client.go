package store

import (
	"context"
	"time"

	"proposaldesk/app"
)

// ClientTx is what sending a proposal and the client's page keep beside
// the proposal: the frozen client snapshots, the evidence events and the
// expiry index. Like the rest of a Tx it is scoped to one account.
type ClientTx interface {
	// PutClientSnapshot stores a frozen client snapshot of a proposal
	// under its hex SHA-256; storing the same hash again keeps the first.
	PutClientSnapshot(proposalID int64, hash string, doc []byte) error
	// ClientSnapshot is a stored snapshot's bytes; ErrNotFound when the
	// proposal has none with that hash.
	ClientSnapshot(proposalID int64, hash string) ([]byte, error)
	// AppendClientEvent chains e after the proposal's last event
	// (app.ChainEvent fills in its ID and hashes) and stores it; events
	// are never changed or removed. It returns e as stored.
	AppendClientEvent(proposalID int64, e app.Event) (app.Event, error)
	// ClientEvents is the proposal's events, oldest first.
	ClientEvents(proposalID int64) ([]app.Event, error)
	// SetClientExpiry records when the proposal's link expires, for the
	// expiry scheduler (DueClientExpiries); the zero time removes it.
	SetClientExpiry(proposalID int64, at time.Time) error
}

// ExpiryRef is a link due to expire: which proposal and when.
type ExpiryRef struct {
	AccountID, ProposalID int64
	At                    time.Time
}

// ClientExpiries finds, across accounts, the links whose expiry is at or
// before now (at most limit, earliest first). The scheduler settles each
// in its account's Update, where app.ExpiryDue decides again, so a link
// found by two replicas at once still expires once.
type ClientExpiries interface {
	DueClientExpiries(ctx context.Context, now time.Time, limit int) ([]ExpiryRef, error)
}
