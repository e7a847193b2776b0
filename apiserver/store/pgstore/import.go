package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// ErrNotEmpty is returned by Import when the database already has data.
var ErrNotEmpty = errors.New("the database already holds data; migrate-data copies only into an empty one")

// Import runs fill with a sink that writes into this database in one
// transaction: all of it is kept or, on any error, none. The database
// must be empty (migrated, no accounts, apps or users).
func (s *Store) Import(ctx context.Context, fill func(store.Sink) error) error {
	return dbErr(pgx.BeginFunc(ctx, s.pool, func(ptx pgx.Tx) error {
		var n int
		if err := ptx.QueryRow(ctx, "SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM apps) + (SELECT count(*) FROM users)").Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrNotEmpty
		}
		return fill(&sink{ctx: ctx, q: ptx})
	}))
}

// sink writes records as they come, each one statement.
type sink struct {
	ctx context.Context
	q   pgx.Tx
}

func (k *sink) exec(what string, sql string, args ...any) error {
	if _, err := k.q.Exec(k.ctx, sql, args...); err != nil {
		return fmt.Errorf("import %s: %w", what, err)
	}
	return nil
}

func (k *sink) SetStoreID(id string) error {
	return k.exec("store ID", "UPDATE meta SET value = $1 WHERE key = 'storeId'", id)
}

func (k *sink) SetLastID(id int64) error {
	if id < 1 {
		return nil // nothing handed out yet
	}
	return k.exec("IDs", "SELECT setval('ids', $1)", id)
}

func (k *sink) PutApp(a store.App) error {
	return k.exec("app "+a.ID, "INSERT INTO apps (id, record) VALUES ($1, $2)", a.ID, jsonOf(a))
}

func (k *sink) PutAccount(a store.Account, numbers, feedSeq int64) error {
	return k.exec(fmt.Sprint("account ", a.ID), "INSERT INTO accounts (id, record, next_number, feed_seq) VALUES ($1, $2, $3, $4)",
		a.ID, jsonOf(a), numbers, feedSeq)
}

func (k *sink) PutUser(u store.UserRecord) error {
	return k.exec(fmt.Sprint("user ", u.ID), "INSERT INTO users (id, account_id, email_key, record) VALUES ($1, $2, $3, $4)",
		u.ID, u.AccountID, emailKey(u.Email), jsonOf(u))
}

func (k *sink) PutKey(key store.APIKey) error {
	return k.exec("api key", "INSERT INTO api_keys (hash, user_id, record) VALUES ($1, $2, $3)", key.Hash[:], key.UserID, jsonOf(key))
}

func (k *sink) own(id, accountID int64) error {
	return k.exec(fmt.Sprint("owner of ", id), "INSERT INTO owners (id, account_id) VALUES ($1, $2)", id, accountID)
}

func (k *sink) PutContact(accountID int64, c app.Contact, feedSeq int64) error {
	if err := k.own(c.ID, accountID); err != nil {
		return err
	}
	what := fmt.Sprint("contact ", c.ID)
	if err := k.exec(what, "INSERT INTO contacts (id, account_id, record, seq) VALUES ($1, $2, $3, $4)", c.ID, accountID, jsonOf(c), feedSeq); err != nil {
		return err
	}
	return k.exec(what, "UPDATE accounts SET people_seq = GREATEST(people_seq, $2) WHERE id = $1", accountID, feedSeq)
}

func (k *sink) PutLocation(accountID int64, l app.ContactLocation) error {
	if err := k.own(l.ID, accountID); err != nil {
		return err
	}
	return k.exec(fmt.Sprint("location ", l.ID), "INSERT INTO locations (id, account_id, contact_id, record) VALUES ($1, $2, $3, $4)",
		l.ID, accountID, l.ContactID, jsonOf(l))
}

func (k *sink) PutProposal(accountID int64, p *app.Proposal, feedSeq int64) error {
	if err := k.own(p.ID, accountID); err != nil {
		return err
	}
	err := k.exec(fmt.Sprint("proposal ", p.ID), upsertProposal,
		append([]any{p.ID, accountID, p.Version, p.Archived, jsonOf(p), jsonOf(app.ListItemView(p))}, listValues(p)...)...)
	if err != nil || feedSeq == 0 {
		return err
	}
	return k.exec(fmt.Sprint("change of proposal ", p.ID), "INSERT INTO changes (account_id, proposal_id, seq) VALUES ($1, $2, $3)", accountID, p.ID, feedSeq)
}

func (k *sink) PutIdempotency(accountID int64, r store.IdempotencyRecord) error {
	return k.exec("idempotency record", "INSERT INTO idempotency (account_id, user_id, key, created_at, record) VALUES ($1, $2, $3, $4, $5)",
		accountID, r.UserID, r.Key, r.CreatedAt, jsonOf(r))
}

func (k *sink) PutClientSnapshot(accountID, proposalID int64, hash string, doc []byte) error {
	return k.exec(fmt.Sprint("snapshot of proposal ", proposalID), "INSERT INTO client_snapshots (proposal_id, hash, account_id, doc) VALUES ($1, $2, $3, $4)",
		proposalID, hash, accountID, doc)
}

func (k *sink) PutClientEvent(accountID, proposalID int64, e app.Event) error {
	return k.exec(fmt.Sprint("event of proposal ", proposalID), "INSERT INTO client_events (proposal_id, id, account_id, doc) VALUES ($1, $2, $3, $4)",
		proposalID, e.ID, accountID, jsonOf(e))
}

func (k *sink) PutClientExpiry(accountID, proposalID int64, at time.Time) error {
	return k.exec(fmt.Sprint("expiry of proposal ", proposalID), "INSERT INTO client_expiries (proposal_id, account_id, expires_at) VALUES ($1, $2, $3)",
		proposalID, accountID, at.UTC())
}

// jsonOf encodes a record; the store's types always encode.
func jsonOf(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("bug: encode %T: %v", v, err))
	}
	return b
}
