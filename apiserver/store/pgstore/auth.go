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

	"proposaldesk/apiserver/store"
)

// authStore is the part of the store that is not account-scoped.
type authStore struct{ s *Store }

// get decodes the one JSON column of a one-row query into v, or returns
// missing when there is no row.
func (a *authStore) get(ctx context.Context, v any, missing error, sql string, args ...any) error {
	var raw []byte
	if err := a.s.pool.QueryRow(ctx, sql, args...).Scan(&raw); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return missing
		}
		return dbErr(err)
	}
	return json.Unmarshal(raw, v)
}

func (a *authStore) nextID(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, "SELECT nextval('ids')").Scan(&id)
	return id, err
}

// CreateAccount adds an account. A zero ID is allocated; an ID already
// taken is ErrConflict.
func (a *authStore) CreateAccount(ctx context.Context, acct store.Account) (store.Account, error) {
	if acct.ID == 0 {
		id, err := a.nextID(ctx, a.s.pool)
		if err != nil {
			return acct, dbErr(fmt.Errorf("create account: %w", err))
		}
		acct.ID = id
	}
	if acct.ID < 0 {
		return acct, fmt.Errorf("pgstore: account ID %d", acct.ID)
	}
	if acct.CreatedAt.IsZero() {
		acct.CreatedAt = a.s.cfg.now().UTC()
	}
	data, err := json.Marshal(acct)
	if err != nil {
		return acct, fmt.Errorf("encode account %d: %w", acct.ID, err)
	}
	_, err = a.s.pool.Exec(ctx, "INSERT INTO accounts (id, record) VALUES ($1, $2)", acct.ID, data)
	if _, dup := isUnique(err); dup {
		return acct, fmt.Errorf("account %d: %w", acct.ID, store.ErrConflict)
	}
	if err != nil {
		return acct, dbErr(fmt.Errorf("create account %d: %w", acct.ID, err))
	}
	return acct, nil
}

func (a *authStore) Account(ctx context.Context, id int64) (store.Account, error) {
	var acct store.Account
	err := a.get(ctx, &acct, notFound("account %d not found", id), "SELECT record FROM accounts WHERE id = $1", id)
	return acct, err
}

// all decodes the one JSON column of every row of a query.
func all[T any](ctx context.Context, a *authStore, sql string, args ...any) ([]T, error) {
	rows, _ := a.s.pool.Query(ctx, sql, args...)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) {
		var raw []byte
		var v T
		if err := r.Scan(&raw); err != nil {
			return v, err
		}
		return v, json.Unmarshal(raw, &v)
	})
	if out == nil {
		out = []T{}
	}
	return out, dbErr(err)
}

func (a *authStore) Accounts(ctx context.Context) ([]store.Account, error) {
	return all[store.Account](ctx, a, "SELECT record FROM accounts ORDER BY id")
}

func (a *authStore) UpdateAccount(ctx context.Context, acct store.Account) error {
	data, err := json.Marshal(acct)
	if err != nil {
		return fmt.Errorf("encode account %d: %w", acct.ID, err)
	}
	tag, err := a.s.pool.Exec(ctx, "UPDATE accounts SET record = $2 WHERE id = $1", acct.ID, data)
	if err != nil {
		return dbErr(fmt.Errorf("update account %d: %w", acct.ID, err))
	}
	if tag.RowsAffected() == 0 {
		return notFound("account %d not found", acct.ID)
	}
	return nil
}

func (a *authStore) CreateApp(ctx context.Context, ap store.App) error {
	if ap.ID == "" {
		return fmt.Errorf("pgstore: CreateApp needs an ID")
	}
	if ap.CreatedAt.IsZero() {
		ap.CreatedAt = a.s.cfg.now().UTC()
	}
	data, err := json.Marshal(ap)
	if err != nil {
		return fmt.Errorf("encode app %q: %w", ap.ID, err)
	}
	_, err = a.s.pool.Exec(ctx, "INSERT INTO apps (id, record) VALUES ($1, $2)", ap.ID, data)
	if _, dup := isUnique(err); dup {
		return fmt.Errorf("app %q: %w", ap.ID, store.ErrConflict)
	}
	return dbErr(err)
}

func (a *authStore) App(ctx context.Context, appID string) (store.App, error) {
	var ap store.App
	err := a.get(ctx, &ap, notFound("app %q not found", appID), "SELECT record FROM apps WHERE id = $1", appID)
	return ap, err
}

// emailKey is the form emails are compared in.
func emailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

func (a *authStore) CreateUser(ctx context.Context, u store.UserRecord) (store.UserRecord, error) {
	if strings.TrimSpace(u.Email) == "" {
		return u, fmt.Errorf("pgstore: CreateUser needs an email")
	}
	err := pgx.BeginFunc(ctx, a.s.pool, func(ptx pgx.Tx) error {
		var one int
		if err := ptx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1", u.AccountID).Scan(&one); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return notFound("account %d not found", u.AccountID)
			}
			return err
		}
		if u.ID == 0 {
			id, err := a.nextID(ctx, ptx)
			if err != nil {
				return err
			}
			u.ID = id
		}
		if u.ID < 0 {
			return fmt.Errorf("user %d: %w", u.ID, store.ErrConflict)
		}
		if u.CreatedAt.IsZero() {
			u.CreatedAt = a.s.cfg.now().UTC()
		}
		data, err := json.Marshal(u)
		if err != nil {
			return fmt.Errorf("encode user: %w", err)
		}
		_, err = ptx.Exec(ctx, "INSERT INTO users (id, account_id, email_key, record) VALUES ($1, $2, $3, $4)",
			u.ID, u.AccountID, emailKey(u.Email), data)
		if c, dup := isUnique(err); dup {
			if c == "users_email_key" {
				return fmt.Errorf("email %q: %w", u.Email, store.ErrConflict)
			}
			return fmt.Errorf("user %d: %w", u.ID, store.ErrConflict)
		}
		return err
	})
	return u, dbErr(err)
}

func (a *authStore) UserByEmail(ctx context.Context, email string) (store.UserRecord, error) {
	var u store.UserRecord
	err := a.get(ctx, &u, notFound("user %q not found", email), "SELECT record FROM users WHERE email_key = $1", emailKey(email))
	return u, err
}

func (a *authStore) User(ctx context.Context, id int64) (store.UserRecord, error) {
	var u store.UserRecord
	err := a.get(ctx, &u, notFound("user %d not found", id), "SELECT record FROM users WHERE id = $1", id)
	return u, err
}

func (a *authStore) UsersOfAccount(ctx context.Context, accountID int64) ([]store.UserRecord, error) {
	var acct store.Account
	if err := a.get(ctx, &acct, notFound("account %d not found", accountID), "SELECT record FROM accounts WHERE id = $1", accountID); err != nil {
		return nil, err
	}
	return all[store.UserRecord](ctx, a, "SELECT record FROM users WHERE account_id = $1 ORDER BY id", accountID)
}

func (a *authStore) PutKey(ctx context.Context, k store.APIKey) error {
	u, err := a.User(ctx, k.UserID)
	if err != nil {
		return err
	}
	if k, err = store.KeyToStore(k, u, a.s.cfg.now()); err != nil {
		return err
	}
	data, err := json.Marshal(k)
	if err != nil {
		return fmt.Errorf("encode api key: %w", err)
	}
	_, err = a.s.pool.Exec(ctx, "INSERT INTO api_keys (hash, user_id, record) VALUES ($1, $2, $3)", k.Hash[:], k.UserID, data)
	if _, dup := isUnique(err); dup {
		return fmt.Errorf("api key: %w", store.ErrConflict)
	}
	return dbErr(err)
}

func (a *authStore) KeyByHash(ctx context.Context, hash [32]byte) (store.APIKey, error) {
	var k store.APIKey
	err := a.get(ctx, &k, notFound("api key not found"), "SELECT record FROM api_keys WHERE hash = $1", hash[:])
	return k, err
}

func (a *authStore) RevokeKeys(ctx context.Context, userID int64, at time.Time) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, a.s.pool, func(ptx pgx.Tx) error {
		n = 0
		rows, _ := ptx.Query(ctx, "SELECT record FROM api_keys WHERE user_id = $1 ORDER BY hash FOR UPDATE", userID)
		keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.APIKey, error) {
			var raw []byte
			var k store.APIKey
			if err := r.Scan(&raw); err != nil {
				return k, err
			}
			return k, json.Unmarshal(raw, &k)
		})
		if err != nil {
			return fmt.Errorf("api keys of user %d: %w", userID, err)
		}
		for _, k := range keys {
			if k.Revoked() {
				continue
			}
			k.RevokedAt = at
			data, err := json.Marshal(k)
			if err != nil {
				return err
			}
			if _, err := ptx.Exec(ctx, "UPDATE api_keys SET record = $2 WHERE hash = $1", k.Hash[:], data); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, dbErr(err)
}

// Credentials reads the app, key, user and account in one query: a signed
// request used to make four round trips for them.
func (a *authStore) Credentials(ctx context.Context, appID string, keyHash *[32]byte) (store.Credentials, error) {
	var c store.Credentials
	var hash []byte
	if keyHash != nil {
		hash = keyHash[:]
	}
	var rawApp, rawKey, rawUser, rawAcct []byte
	var feedSeq *int64
	err := a.s.pool.QueryRow(ctx, `SELECT ap.record, k.record, u.record, ac.record, ac.feed_seq
		FROM apps ap
		LEFT JOIN api_keys k ON k.hash = $2
		LEFT JOIN users u ON u.id = k.user_id
		LEFT JOIN accounts ac ON ac.id = u.account_id
		WHERE ap.id = $1`, appID, hash).Scan(&rawApp, &rawKey, &rawUser, &rawAcct, &feedSeq)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return c, dbErr(fmt.Errorf("credentials of app %q: %w", appID, err))
	}
	// Decoded through the caches: the same bytes as last time are the
	// same record, so only a changed record (a revoked key) is decoded.
	ac := a.s.auth
	c.App, err = ac.Apps.Decode(appID, rawApp)
	c.AppFound = err == nil
	if err == nil && rawKey != nil {
		c.Key, err = ac.Keys.Decode(string(hash), rawKey)
		c.KeyFound = err == nil
	}
	if err == nil && rawUser != nil {
		c.User, err = ac.Users.Decode(strconv.FormatInt(c.Key.UserID, 10), rawUser)
		c.UserFound = err == nil
	}
	if err == nil && rawAcct != nil {
		c.Account, err = ac.Accounts.Decode(strconv.FormatInt(c.User.AccountID, 10), rawAcct)
		c.AccountFound = err == nil
		if err == nil && feedSeq != nil {
			c.Read = &credentialsRead{account: c.Account, feedSeq: *feedSeq}
		}
	}
	if err != nil {
		return store.Credentials{}, fmt.Errorf("credentials of app %q: %w", appID, err)
	}
	return c, nil
}
