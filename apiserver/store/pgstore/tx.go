package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// tx is a transaction bound to one account: every statement names the
// account, so another account's rows are not found.
type tx struct {
	s        *Store
	ctx      context.Context
	q        querier
	id       int64
	writable bool
	account  store.Account
	// feedSeq is the account's feed position when the transaction began:
	// in a read-only one, the version of every proposal it can see.
	feedSeq int64
	// err is the first failure of a method that cannot return one
	// (NextID, NextNumber); the transaction fails with it.
	err error
	// stored is, in a write, the version of each of this account's
	// proposals the transaction read or wrote: its account row lock
	// keeps every other write of them out until it ends, so PutProposal
	// needs neither to claim the ID nor to read the version again (two
	// of a create-area's seven round trips under that lock).
	stored map[int64]int64
	// indexServed says the transaction answered from the list index at
	// feedSeq: from then on its snapshot must be at that position.
	indexServed bool
}

// querier is the connection a transaction's statements go through.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	// begin begins the transaction if it has not begun.
	begin(ctx context.Context) error
}

func (t *tx) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *tx) AccountID() int64       { return t.id }
func (t *tx) Account() store.Account { return t.account }

// getJSON decodes the one JSON column of a one-row query into v; found is
// false for no row.
func (t *tx) getJSON(v any, sql string, args ...any) (found bool, err error) {
	var raw []byte
	if err := t.q.QueryRow(t.ctx, sql, args...).Scan(&raw); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		}
		return false, err
	}
	return true, json.Unmarshal(raw, v)
}

// claim checks that id is not another account's record (notFound names
// it with what) and claims it for this account.
func (t *tx) claim(id int64, what string) error {
	var owner int64
	if !t.writable {
		err := t.q.QueryRow(t.ctx, "SELECT account_id FROM owners WHERE id = $1", id).Scan(&owner)
		if err == nil && owner != t.id {
			return notFound("%s %d not found", what, id)
		}
		return fmt.Errorf("pgstore: write of %s %d in a read-only transaction", what, id)
	}
	err := t.q.QueryRow(t.ctx, `INSERT INTO owners (id, account_id) VALUES ($1, $2)
		ON CONFLICT (id) DO UPDATE SET account_id = owners.account_id RETURNING account_id`, id, t.id).Scan(&owner)
	if err != nil {
		return fmt.Errorf("claim %s %d: %w", what, id, err)
	}
	if owner != t.id {
		return notFound("%s %d not found", what, id)
	}
	return nil
}

// ---- proposals

func (t *tx) Proposal(id int64) (*app.Proposal, error) {
	var p app.Proposal
	found, err := t.getJSON(&p, "SELECT doc FROM proposals WHERE id = $1 AND account_id = $2", id, t.id)
	if err != nil {
		return nil, fmt.Errorf("proposal %d: %w", id, err)
	}
	if !found {
		return nil, notFound("proposal %d not found", id)
	}
	t.remember(id, p.Version)
	return &p, nil
}

// ProposalVersion reads the version column, not the document; in a
// read-only transaction, from the list index.
func (t *tx) ProposalVersion(id int64) (int64, error) {
	if !t.writable {
		// From the list index at the transaction's feed position: no
		// round trip when it is current.
		ls, err := t.listState()
		if err != nil {
			return 0, err
		}
		return ls.version(id)
	}
	var version int64
	err := t.q.QueryRow(t.ctx, "SELECT version FROM proposals WHERE id = $1 AND account_id = $2", id, t.id).Scan(&version)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, notFound("proposal %d not found", id)
	}
	if err != nil {
		return 0, fmt.Errorf("proposal %d: %w", id, err)
	}
	return version, nil
}

// ProposalUncached is Proposal: this store keeps no cache.
func (t *tx) ProposalUncached(id int64) (*app.Proposal, error) { return t.Proposal(id) }

func (t *tx) PutProposal(p *app.Proposal) error {
	if p == nil || p.ID <= 0 {
		return fmt.Errorf("pgstore: PutProposal needs a proposal with an ID")
	}
	// Every stored change gets a new version (the ETag; the server's
	// rendered-detail cache is keyed by it).
	old, known := t.stored[p.ID]
	if !known {
		if err := t.claim(p.ID, "proposal"); err != nil {
			return err
		}
		err := t.q.QueryRow(t.ctx, "SELECT version FROM proposals WHERE id = $1", p.ID).Scan(&old)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("proposal %d: %w", p.ID, err)
		}
		known = err == nil
	}
	if known && p.Version <= old {
		p.Version = old + 1
	}
	doc, err1 := p.AppendJSON(nil)
	row, err2 := json.Marshal(app.ListItemView(p))
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("encode proposal %d: %w", p.ID, err)
	}
	// The row, and its change at the account's next feed position, in one
	// round trip. The account row is locked by this transaction (Update),
	// so positions are handed out in commit order.
	b := &pgx.Batch{}
	b.Queue(upsertProposal, append([]any{p.ID, t.id, p.Version, p.Archived, doc, row}, listValues(p)...)...)
	b.Queue(`WITH s AS (UPDATE accounts SET feed_seq = feed_seq + 1 WHERE id = $1 RETURNING feed_seq)
		INSERT INTO changes (account_id, proposal_id, seq) SELECT $1, $2, feed_seq FROM s
		ON CONFLICT (account_id, proposal_id) DO UPDATE SET seq = excluded.seq`, t.id, p.ID)
	if err := t.q.SendBatch(t.ctx, b).Close(); err != nil {
		return fmt.Errorf("put proposal %d: %w", p.ID, err)
	}
	t.remember(p.ID, p.Version)
	return nil
}

// remember notes, in a write, the version of a proposal of this account
// as stored now (see tx.stored).
func (t *tx) remember(id, version int64) {
	if !t.writable {
		return
	}
	if t.stored == nil {
		t.stored = map[int64]int64{}
	}
	t.stored[id] = version
}

// upsertProposal writes a proposal row: $1..$6 as named, then the list
// columns ($7 on).
var upsertProposal = func() string {
	cols := strings.Split(listColumns, ", ")
	var ph, set []string
	for i, c := range cols {
		ph = append(ph, fmt.Sprintf("$%d", i+7))
		set = append(set, fmt.Sprintf("%s = $%d", c, i+7))
	}
	return fmt.Sprintf(`INSERT INTO proposals (id, account_id, version, archived, doc, list_row, %s)
		VALUES ($1, $2, $3, $4, $5, $6, %s)
		ON CONFLICT (id) DO UPDATE SET version = $3, archived = $4, doc = $5, list_row = $6, %s`,
		listColumns, strings.Join(ph, ", "), strings.Join(set, ", "))
}()

func (t *tx) ProposalIDs() ([]int64, error) {
	rows, _ := t.q.Query(t.ctx, "SELECT id FROM proposals WHERE account_id = $1 ORDER BY id", t.id)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("proposal IDs: %w", err)
	}
	if ids == nil {
		ids = []int64{}
	}
	return ids, nil
}

// ---- IDs

func (t *tx) NextID() int64 {
	var id int64
	if err := t.q.QueryRow(t.ctx, "SELECT nextval('ids')").Scan(&id); err != nil {
		t.fail(fmt.Errorf("pgstore: NextID: %w", err))
		return 0
	}
	return id
}

// FirstNumber is the first proposal number of an account.
const FirstNumber = 1001

func (t *tx) NextNumber() int64 {
	var n int64
	err := t.q.QueryRow(t.ctx, "UPDATE accounts SET next_number = next_number + 1 WHERE id = $1 RETURNING next_number", t.id).Scan(&n)
	if err != nil {
		t.fail(fmt.Errorf("pgstore: NextNumber: %w", err))
		return 0
	}
	return n + FirstNumber - 1
}

// ---- directory

func (t *tx) User(id int64) (app.User, bool, error) {
	var u store.UserRecord
	found, err := t.getJSON(&u, "SELECT record FROM users WHERE id = $1 AND account_id = $2", id, t.id)
	if err != nil {
		return app.User{}, false, fmt.Errorf("user %d: %w", id, err)
	}
	return u.User, found, nil
}

func (t *tx) Users() ([]app.User, error) {
	recs, err := collectJSON[store.UserRecord](t, "SELECT record FROM users WHERE account_id = $1 ORDER BY id", t.id)
	if err != nil {
		return nil, fmt.Errorf("users: %w", err)
	}
	users := make([]app.User, len(recs))
	for i, r := range recs {
		users[i] = r.User
	}
	return users, nil
}

// collectJSON decodes the one JSON column of every row.
func collectJSON[T any](t *tx, sql string, args ...any) ([]T, error) {
	rows, _ := t.q.Query(t.ctx, sql, args...)
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) {
		var raw []byte
		var v T
		if err := r.Scan(&raw); err != nil {
			return v, err
		}
		return v, json.Unmarshal(raw, &v)
	})
}

func (t *tx) Contact(id int64) (app.Contact, bool, error) {
	var c app.Contact
	found, err := t.getJSON(&c, "SELECT record FROM contacts WHERE id = $1 AND account_id = $2", id, t.id)
	if err != nil {
		return app.Contact{}, false, fmt.Errorf("contact %d: %w", id, err)
	}
	return c, found, nil
}

func (t *tx) Location(id int64) (app.ContactLocation, bool, error) {
	var l app.ContactLocation
	found, err := t.getJSON(&l, "SELECT record FROM locations WHERE id = $1 AND account_id = $2", id, t.id)
	if err != nil {
		return app.ContactLocation{}, false, fmt.Errorf("location %d: %w", id, err)
	}
	return l, found, nil
}

// ContactLocations is Locations with none for a contact the account
// does not have.
func (t *tx) ContactLocations(contactID int64) ([]app.ContactLocation, error) {
	return store.ContactLocations(t, contactID)
}

func (t *tx) Contacts(q app.ContactQuery) ([]app.Contact, int, error) {
	all, err := collectJSON[app.Contact](t, "SELECT record FROM contacts WHERE account_id = $1 ORDER BY id", t.id)
	if err != nil {
		return nil, 0, fmt.Errorf("contacts: %w", err)
	}
	page, count := q.Select(all)
	return page, count, nil
}

// PutContact stores a contact with store.PutContact's rules.
func (t *tx) PutContact(c app.Contact) error { return store.PutContact(directoryStorage{t}, c) }

func (s directoryStorage) StoreContact(c app.Contact) error {
	t := s.tx
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode contact %d: %w", c.ID, err)
	}
	// The row at the account's next people-feed position (peoplefeed.go).
	_, err = t.q.Exec(t.ctx, `WITH s AS (UPDATE accounts SET people_seq = people_seq + 1 WHERE id = $2 RETURNING people_seq)
		INSERT INTO contacts (id, account_id, record, seq) SELECT $1, $2, $3, people_seq FROM s
		ON CONFLICT (id) DO UPDATE SET record = excluded.record, seq = excluded.seq`, c.ID, t.id, data)
	if err != nil {
		return fmt.Errorf("put contact %d: %w", c.ID, err)
	}
	return nil
}

func (t *tx) hasContact(id int64) (bool, error) {
	var one int
	err := t.q.QueryRow(t.ctx, "SELECT 1 FROM contacts WHERE id = $1 AND account_id = $2", id, t.id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Locations lists a contact's locations in ID order; ErrNotFound when the
// contact is not the account's.
func (t *tx) Locations(contactID int64) ([]app.ContactLocation, error) {
	ok, err := t.hasContact(contactID)
	if err != nil {
		return nil, fmt.Errorf("contact %d: %w", contactID, err)
	}
	if !ok {
		return nil, notFound("contact %d not found", contactID)
	}
	locs, err := collectJSON[app.ContactLocation](t,
		"SELECT record FROM locations WHERE account_id = $1 AND contact_id = $2 ORDER BY id", t.id, contactID)
	if err != nil {
		return nil, fmt.Errorf("locations of contact %d: %w", contactID, err)
	}
	if locs == nil {
		locs = []app.ContactLocation{}
	}
	return locs, nil
}

func (t *tx) putLocation(l app.ContactLocation) error {
	data, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("encode location %d: %w", l.ID, err)
	}
	_, err = t.q.Exec(t.ctx, `INSERT INTO locations (id, account_id, contact_id, record) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET contact_id = $3, record = $4`, l.ID, t.id, l.ContactID, data)
	if err != nil {
		return fmt.Errorf("put location %d: %w", l.ID, err)
	}
	return nil
}

// PutLocation stores a contact's location with store.PutLocation's rules.
func (t *tx) PutLocation(l app.ContactLocation) error {
	return store.PutLocation(directoryStorage{t}, l)
}

// directoryStorage is the transaction's storage of contacts and
// locations, as store.PutContact and store.PutLocation write them.
type directoryStorage struct{ *tx }

var _ store.DirectoryStorage = directoryStorage{}

func (s directoryStorage) HasContact(id int64) (bool, error) { return s.hasContact(id) }

func (s directoryStorage) Claim(id int64, what string) error { return s.claim(id, what) }

func (s directoryStorage) StoreLocation(l app.ContactLocation) error {
	if err := s.touchContactsOf(l); err != nil {
		return err
	}
	return s.putLocation(l)
}

func (s directoryStorage) RewriteLocation(l app.ContactLocation) error { return s.putLocation(l) }

// ---- idempotency

func (t *tx) Idempotency(userID int64, key string, since time.Time) (store.IdempotencyRecord, bool, error) {
	var r store.IdempotencyRecord
	found, err := t.getJSON(&r, "SELECT record FROM idempotency WHERE user_id = $1 AND key = $2 AND account_id = $3", userID, key, t.id)
	if err != nil {
		return r, false, fmt.Errorf("idempotency record: %w", err)
	}
	if !found || r.CreatedAt.Before(since) {
		return store.IdempotencyRecord{}, false, nil
	}
	return r, true, nil
}

func (t *tx) PutIdempotency(r store.IdempotencyRecord) error {
	if r.Key == "" || r.UserID <= 0 {
		return fmt.Errorf("pgstore: PutIdempotency needs a user and a key")
	}
	if _, ok, err := t.User(r.UserID); err != nil {
		return err
	} else if !ok {
		return notFound("user %d not found", r.UserID)
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = t.s.cfg.now()
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode idempotency record: %w", err)
	}
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO idempotency (account_id, user_id, key, created_at, record) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (user_id, key) DO UPDATE SET created_at = $4, record = $5`, t.id, r.UserID, r.Key, r.CreatedAt, data)
	// Prune a few records older than the TTL, oldest first.
	b.Queue(`DELETE FROM idempotency WHERE ctid IN (SELECT ctid FROM idempotency
		WHERE account_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3)`,
		t.id, r.CreatedAt.Add(-t.s.cfg.idemTTL), t.s.cfg.pruneMax)
	if err := t.q.SendBatch(t.ctx, b).Close(); err != nil {
		return fmt.Errorf("put idempotency record: %w", err)
	}
	return nil
}

// ---- changes feed

// Changes reads the feed after cursor. Positions come from the account
// row's counter, bumped by writers that hold the row's lock, so they
// commit in position order: no later position is visible before an
// earlier one, and a cursor never skips a commit.
func (t *tx) Changes(cursor string) ([]int64, string, error) {
	var after int64
	if cursor != "" {
		v, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || v < 0 {
			return nil, "", app.Invalid("since", "%q is not a cursor this server gave", cursor)
		}
		after = v
	}
	rows, _ := t.q.Query(t.ctx, "SELECT proposal_id, seq FROM changes WHERE account_id = $1 AND seq > $2 ORDER BY seq", t.id, after)
	ids := []int64{}
	next := cursor
	var id, seq int64
	_, err := pgx.ForEachRow(rows, []any{&id, &seq}, func() error {
		ids = append(ids, id)
		next = strconv.FormatInt(seq, 10)
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("changes: %w", err)
	}
	return ids, next, nil
}
