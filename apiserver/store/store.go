// Package store is the server's storage interface: what the API needs of
// its database, and nothing more. The embedded bbolt implementation lives
// in store/boltstore; a networked backend implements the same interfaces
// without the handlers changing.
//
// All proposal data is reached through a Tx bound to one account, so a
// handler cannot read or write another account's rows: an ID from another
// account is simply not found.
package store

import (
	"context"
	"errors"
	"io"
	"iter"
	"time"

	"proposaldesk/app"
)

// ErrNotFound is returned (wrapped) for a missing record; callers map it
// to app.KindNotFound. It is an *app.Error so errors.Is and app.KindOf
// both work on it.
var ErrNotFound = app.ErrNotFound

// ErrConflict is returned when a unique value is taken (an email, an app
// ID).
var ErrConflict = errors.New("store: already exists")

// Store is the whole database.
type Store interface {
	// StoreID names this data set; it changes only when the data is
	// replaced by a restore, telling clients to download everything again.
	StoreID() string

	// View runs fn in a read-only transaction scoped to one account.
	// fn may run more than once (PostgreSQL begins the transaction when
	// fn first needs more than the replica's list index, and starts over
	// if the account's proposals moved in between), so it must not act on
	// what it read before it returns.
	View(ctx context.Context, accountID int64, fn func(Tx) error) error
	// Update runs fn in a read-write transaction scoped to one account.
	// If fn returns an error nothing it wrote is kept. fn may run more
	// than once (a backend may retry it, or share its transaction with
	// concurrent writes and run them again), so it must set its results,
	// never accumulate them. Update returns once the write is durable.
	Update(ctx context.Context, accountID int64, fn func(Tx) error) error

	// ClientExpiries finds the client links due to expire (client.go).
	ClientExpiries

	// Auth is the part of the store that is not account-scoped: it finds
	// apps, users and keys before the account is known.
	Auth() AuthStore

	// Backup writes a consistent snapshot of the whole database to w
	// while the store keeps serving.
	Backup(ctx context.Context, w io.Writer) (int64, error)

	Close() error
}

// AuthStore holds accounts, apps, user credentials and API keys.
type AuthStore interface {
	CreateAccount(ctx context.Context, a Account) (Account, error)
	Account(ctx context.Context, id int64) (Account, error)
	Accounts(ctx context.Context) ([]Account, error)
	UpdateAccount(ctx context.Context, a Account) error

	CreateApp(ctx context.Context, a App) error
	App(ctx context.Context, appID string) (App, error)

	// CreateUser adds a user; the email is unique across the server,
	// compared case-insensitively. ErrConflict when taken.
	CreateUser(ctx context.Context, u UserRecord) (UserRecord, error)
	UserByEmail(ctx context.Context, email string) (UserRecord, error)
	User(ctx context.Context, id int64) (UserRecord, error)
	UsersOfAccount(ctx context.Context, accountID int64) ([]UserRecord, error)

	// PutKey stores a new API key (only its hash).
	PutKey(ctx context.Context, k APIKey) error
	// KeyByHash finds a key by the SHA-256 of its value.
	KeyByHash(ctx context.Context, hash [32]byte) (APIKey, error)
	// RevokeKeys revokes every key of the user and returns how many.
	RevokeKeys(ctx context.Context, userID int64, at time.Time) (int, error)

	// Credentials reads what authenticating one signed request needs in
	// one read (one transaction, one query): the app and, when keyHash is
	// not nil, the key, its user and the user's account. A missing record
	// is a false Found flag, not an error (the caller decides what each
	// absence means, in its own order of checks); errors are the
	// database's.
	Credentials(ctx context.Context, appID string, keyHash *[32]byte) (Credentials, error)
}

// Credentials is what Credentials found. Each Found flag says whether
// the record beside it was found; a record is looked for only when the
// one it hangs from was (key, then its user, then the user's account).
type Credentials struct {
	App          App
	AppFound     bool
	Key          APIKey
	KeyFound     bool
	User         UserRecord
	UserFound    bool
	Account      Account
	AccountFound bool
	// Read is what the backend read of the account with them, which the
	// request's first View may start from (nil: nothing). The server
	// passes it on in the request's context (WithAccountRead).
	Read AccountRead
}

// AccountRead is what a backend read of an account while it checked a
// request's credentials. Only the backend that made it knows what it
// holds; it is used at most once, by the request's first transaction
// over that account.
type AccountRead interface{ ReadAccountID() int64 }

type accountReadKey struct{}

// WithAccountRead is ctx carrying r (ctx itself when r is nil).
func WithAccountRead(ctx context.Context, r AccountRead) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, accountReadKey{}, r)
}

// AccountReadFrom is the AccountRead ctx carries, or nil.
func AccountReadFrom(ctx context.Context) AccountRead {
	r, _ := ctx.Value(accountReadKey{}).(AccountRead)
	return r
}

// VersionMemo is what a store may offer beside Store: a proposal's version
// as a read-only transaction last read it, when the store knows without
// a transaction that nothing was written since (boltstore: it is the
// file's only writer). A detail GET whose rendering is cached then reads
// nothing at all.
type VersionMemo interface {
	MemoVersion(accountID, proposalID int64) (version int64, ok bool)
}

// Tx is one transaction over one account's data.
type Tx interface {
	// Directory is the account's users, contacts and locations, as the
	// rule engine reads them.
	app.Directory

	AccountID() int64
	Account() Account

	// Proposal loads a proposal of the account; ErrNotFound otherwise.
	Proposal(id int64) (*app.Proposal, error)
	// ProposalVersion is a proposal's version without the rest of it:
	// enough to answer a read from a cache keyed by version (the server's
	// rendered details, which keep their own Last-Modified). ErrNotFound
	// as Proposal.
	ProposalVersion(id int64) (version int64, err error)
	// ProposalUncached is Proposal for bulk reads (exports): it decodes
	// the record without keeping it in any cache, so reading every
	// proposal once neither grows memory with the data nor evicts what
	// ordinary requests keep warm.
	ProposalUncached(id int64) (*app.Proposal, error)
	// ProposalsJSON calls fn with the stored JSON of each of ids the
	// account has (an encoding of app.Proposal that json.Unmarshal reads
	// back to what Proposal returns), in the order of ids; an ID the
	// account does not have is skipped. doc is valid only during fn and
	// must not be changed. It serves a laptop's pull without decoding
	// and encoding each proposal (GET /public/sync/proposals).
	ProposalsJSON(ids []int64, fn func(id int64, doc []byte) error) error
	// PutProposal stores a proposal, updates its list entry and records
	// the change in the changes feed.
	PutProposal(p *app.Proposal) error
	// List answers a list query from the index, with app.ListQuery's
	// semantics exactly; count is the number of all matches.
	List(q app.ListQuery) (page []app.ListItem, count int, err error)
	// ListJSON is List with each row of the page as json.Marshal encodes
	// its app.ListItem, ready to be written out without decoding and
	// encoding every row again.
	ListJSON(q app.ListQuery) (page [][]byte, count int, err error)
	// ProposalIDs lists every proposal ID of the account, for exports.
	ProposalIDs() ([]int64, error)

	// NextID allocates an ID for a proposal, area, option, contact or
	// location; IDs are unique across the server.
	NextID() int64
	// NextNumber allocates the account's next proposal number.
	NextNumber() int64

	Users() ([]app.User, error)
	Contacts(q app.ContactQuery) (page []app.Contact, count int, err error)
	PutContact(c app.Contact) error
	Locations(contactID int64) ([]app.ContactLocation, error)
	PutLocation(l app.ContactLocation) error

	// Idempotency finds a recorded response of this user's write with the
	// given key, made at or after since.
	Idempotency(userID int64, key string, since time.Time) (IdempotencyRecord, bool, error)
	// PutIdempotency records a write's response, in the same transaction
	// as the write itself.
	PutIdempotency(r IdempotencyRecord) error

	// Changes returns the proposals changed after cursor ("" is the
	// beginning) and the cursor to ask from next time.
	Changes(cursor string) (ids []int64, next string, err error)
	// PeopleChanges returns at most limit contacts changed after cursor
	// ("" is the beginning), oldest change first, each once with all its
	// locations: a write of a contact or of one of its locations moves
	// the contact to the feed's end. StoreID is left to the caller.
	PeopleChanges(cursor string, limit int) (app.PeopleChanges, error)

	CatalogTx
	ClientTx
}

// CatalogTx is the account's product catalog: four methods a
// backend implements; the semantics are app's (app.CatalogQuery, the CSV
// rows of app.CatalogCSV), an import's are ImportCatalog's, and the
// boltstore implementation is the reference for another one.
type CatalogTx interface {
	// CatalogItem finds an item of the account (app.Catalog, so a Tx is
	// the rule engine's catalog); another account's ID is not found.
	CatalogItem(id int64) (it app.CatalogItem, found bool, err error)
	// SearchCatalog answers a catalog search with app.CatalogQuery's
	// semantics exactly (order, filters, paging); count is the number of
	// all matches. Items carry their cost: the caller applies the role's
	// view.
	SearchCatalog(q app.CatalogQuery) (page []app.CatalogItem, count int, err error)
	// CatalogChanges returns at most limit changes after cursor ("" is
	// the beginning), oldest first: the items as they are now and the IDs
	// removed. Each item appears once, at its latest change. StoreID is
	// left to the caller.
	CatalogChanges(cursor string, limit int) (app.CatalogChanges, error)
	// ImportCatalog applies checked rows in this transaction: a row whose
	// key (app.CatalogKeyOf) the catalog holds updates that item (its ID
	// stays), another adds one; with app.CatalogReplace the items no row
	// named are removed. Rows are read once, as they come (a file of any
	// length). The counts go to report; a failure leaves the transaction
	// to be rolled back.
	ImportCatalog(mode app.CatalogImportMode, rows iter.Seq2[app.CatalogRow, error], report *app.CatalogImportReport) error
}

// StagedCatalogImporter is a Store that applies a large import in
// several transactions of bounded size, still all or nothing (boltstore:
// one bbolt transaction keeps every page it writes in memory). A Store
// without it imports in one Tx.ImportCatalog.
// n is the number of rows (known from the check).
type StagedCatalogImporter interface {
	ImportCatalogStaged(ctx context.Context, accountID int64, mode app.CatalogImportMode, n int,
		rows iter.Seq2[app.CatalogRow, error], report *app.CatalogImportReport) error
}

// Account is a dealer's account.
type Account struct {
	ID                 int64               `json:"id"`
	Name               string              `json:"name"`
	SubscriptionExpiry time.Time           `json:"subscriptionExpiry"`
	Dealer             app.DealerProfile   `json:"dealer"`
	Currency           app.Currency        `json:"currency"`
	TaxOverrides       map[string]app.Rate `json:"taxOverrides"`
	Terms              string              `json:"terms"`
	CreatedAt          time.Time           `json:"createdAt"`
}

// SubscriptionActive reports whether the subscription is in force at now.
func (a Account) SubscriptionActive(now time.Time) bool { return now.Before(a.SubscriptionExpiry) }

// AppAccount is the rule engine's view of the account.
func (a Account) AppAccount() app.Account {
	return app.Account{
		Dealer:   a.Dealer,
		Currency: a.Currency,
		Taxes:    app.USTaxTable().WithOverrides(a.TaxOverrides),
		Terms:    a.Terms,
	}
}

// App is an API client application: its ID and the secret it signs with.
// The secret must be kept readable to verify HMAC signatures.
type App struct {
	ID        string    `json:"id"`
	Secret    string    `json:"secret"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// UserRecord is a user with their credentials.
type UserRecord struct {
	app.User
	AccountID    int64     `json:"accountId"`
	PasswordHash []byte    `json:"passwordHash"`
	CreatedAt    time.Time `json:"createdAt"`
}

// APIKey is a user API key, stored as the SHA-256 of its value. The value
// is 32 random bytes, so a fast hash is enough: there is nothing to guess.
type APIKey struct {
	Hash      [32]byte  `json:"hash"`
	UserID    int64     `json:"userId"`
	AccountID int64     `json:"accountId"`
	AppID     string    `json:"appId"`
	CreatedAt time.Time `json:"createdAt"`
	RevokedAt time.Time `json:"revokedAt"`
}

// Revoked reports whether the key has been revoked.
func (k APIKey) Revoked() bool { return !k.RevokedAt.IsZero() }

// IdempotencyRecord is the response a write gave, kept so that the same
// request sent again gets the same answer without being applied twice.
type IdempotencyRecord struct {
	UserID      int64     `json:"userId"`
	Key         string    `json:"key"`
	Fingerprint [32]byte  `json:"fingerprint"` // SHA-256 of method, path and body
	Status      int       `json:"status"`
	Body        []byte    `json:"body"`
	ETag        string    `json:"etag"`
	CreatedAt   time.Time `json:"createdAt"`
}
