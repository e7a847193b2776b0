package store

import (
	"time"

	"proposaldesk/app"
)

// Sink receives a whole data set, record by record, to copy it from one
// backend to another (server migrate-data: bbolt to PostgreSQL). Every ID,
// number counter, feed position and the store ID arrive as they are, so
// clients' cursors and caches stay valid across the copy.
type Sink interface {
	SetStoreID(id string) error
	// SetLastID is the last ID NextID handed out.
	SetLastID(id int64) error
	PutApp(a App) error
	// PutAccount: numbers is how many proposal numbers NextNumber handed
	// out, feedSeq the account's last changes-feed position.
	PutAccount(a Account, numbers, feedSeq int64) error
	PutUser(u UserRecord) error
	PutKey(k APIKey) error
	// PutContact: feedSeq is the contact's position in the people feed.
	PutContact(accountID int64, c app.Contact, feedSeq int64) error
	PutLocation(accountID int64, l app.ContactLocation) error
	// PutProposal: feedSeq is the proposal's position in the feed.
	PutProposal(accountID int64, p *app.Proposal, feedSeq int64) error
	PutIdempotency(accountID int64, r IdempotencyRecord) error
	// The client evidence of a proposal (ClientTx), exactly as stored:
	// events keep their IDs and hashes.
	PutClientSnapshot(accountID, proposalID int64, hash string, doc []byte) error
	PutClientEvent(accountID, proposalID int64, e app.Event) error
	PutClientExpiry(accountID, proposalID int64, at time.Time) error
}
