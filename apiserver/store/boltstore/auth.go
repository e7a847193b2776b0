package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
)

// authStore is the part of the store that is not account-scoped.
type authStore struct{ s *Store }

func (a *authStore) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return a.s.db.View(fn)
}

func (a *authStore) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return a.s.update(fn)
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

func nextID(btx *bolt.Tx) (int64, error) {
	seq, err := btx.Bucket(bIDs).NextSequence()
	return int64(seq), err
}

// CreateAccount adds an account and its buckets. A zero ID is allocated;
// an ID already taken is ErrConflict.
func (a *authStore) CreateAccount(ctx context.Context, acct store.Account) (store.Account, error) {
	err := a.update(ctx, func(btx *bolt.Tx) error {
		if acct.ID == 0 {
			id, err := nextID(btx)
			if err != nil {
				return err
			}
			acct.ID = id
		}
		if acct.ID < 0 {
			return fmt.Errorf("boltstore: account ID %d", acct.ID)
		}
		if acct.CreatedAt.IsZero() {
			acct.CreatedAt = a.s.cfg.now().UTC()
		}
		ab, err := btx.Bucket(bAccounts).CreateBucket(idKey(acct.ID))
		if err != nil {
			return fmt.Errorf("account %d: %w", acct.ID, store.ErrConflict)
		}
		for _, name := range accountBuckets {
			if _, err := ab.CreateBucket(name); err != nil {
				return err
			}
		}
		return putJSON(ab, kRecord, acct)
	})
	return acct, err
}

func (a *authStore) Account(ctx context.Context, id int64) (store.Account, error) {
	var acct store.Account
	err := a.view(ctx, func(btx *bolt.Tx) error {
		ab := btx.Bucket(bAccounts).Bucket(idKey(id))
		if ab == nil {
			return notFound("account %d not found", id)
		}
		var err error
		acct, err = a.s.decoded.Accounts.Decode(fmt.Sprint(id), ab.Get(kRecord))
		return err
	})
	return acct, err
}

func (a *authStore) Accounts(ctx context.Context) ([]store.Account, error) {
	accts := []store.Account{}
	err := a.view(ctx, func(btx *bolt.Tx) error {
		return btx.Bucket(bAccounts).ForEachBucket(func(k []byte) error {
			var acct store.Account
			if err := decode(btx.Bucket(bAccounts).Bucket(k).Get(kRecord), &acct); err != nil {
				return fmt.Errorf("account %d: %w", keyID(k), err)
			}
			accts = append(accts, acct)
			return nil
		})
	})
	return accts, err
}

func (a *authStore) UpdateAccount(ctx context.Context, acct store.Account) error {
	return a.update(ctx, func(btx *bolt.Tx) error {
		ab := btx.Bucket(bAccounts).Bucket(idKey(acct.ID))
		if ab == nil {
			return notFound("account %d not found", acct.ID)
		}
		return putJSON(ab, kRecord, acct)
	})
}

func (a *authStore) CreateApp(ctx context.Context, ap store.App) error {
	if ap.ID == "" {
		return fmt.Errorf("boltstore: CreateApp needs an ID")
	}
	return a.update(ctx, func(btx *bolt.Tx) error {
		apps := btx.Bucket(bApps)
		if apps.Get([]byte(ap.ID)) != nil {
			return fmt.Errorf("app %q: %w", ap.ID, store.ErrConflict)
		}
		if ap.CreatedAt.IsZero() {
			ap.CreatedAt = a.s.cfg.now().UTC()
		}
		return putJSON(apps, []byte(ap.ID), ap)
	})
}

func (a *authStore) App(ctx context.Context, appID string) (store.App, error) {
	var ap store.App
	err := a.view(ctx, func(btx *bolt.Tx) error {
		v := btx.Bucket(bApps).Get([]byte(appID))
		if v == nil {
			return notFound("app %q not found", appID)
		}
		var err error
		ap, err = a.s.decoded.Apps.Decode(appID, v)
		return err
	})
	return ap, err
}

// emailKey is the form emails are compared in.
func emailKey(email string) []byte { return []byte(strings.ToLower(strings.TrimSpace(email))) }

func (a *authStore) CreateUser(ctx context.Context, u store.UserRecord) (store.UserRecord, error) {
	if strings.TrimSpace(u.Email) == "" {
		return u, fmt.Errorf("boltstore: CreateUser needs an email")
	}
	err := a.update(ctx, func(btx *bolt.Tx) error {
		ab := btx.Bucket(bAccounts).Bucket(idKey(u.AccountID))
		if ab == nil {
			return notFound("account %d not found", u.AccountID)
		}
		emails := btx.Bucket(bEmails)
		if emails.Get(emailKey(u.Email)) != nil {
			return fmt.Errorf("email %q: %w", u.Email, store.ErrConflict)
		}
		if u.ID == 0 {
			id, err := nextID(btx)
			if err != nil {
				return err
			}
			u.ID = id
		}
		users := btx.Bucket(bUsers)
		if u.ID < 0 || users.Get(idKey(u.ID)) != nil {
			return fmt.Errorf("user %d: %w", u.ID, store.ErrConflict)
		}
		if u.CreatedAt.IsZero() {
			u.CreatedAt = a.s.cfg.now().UTC()
		}
		if err := putJSON(users, idKey(u.ID), u); err != nil {
			return err
		}
		if err := emails.Put(emailKey(u.Email), idKey(u.ID)); err != nil {
			return err
		}
		return ab.Bucket(bAcctUsers).Put(idKey(u.ID), nil)
	})
	return u, err
}

func (s *Store) getUser(btx *bolt.Tx, id int64) (store.UserRecord, error) {
	v := btx.Bucket(bUsers).Get(idKey(id))
	if v == nil {
		return store.UserRecord{}, notFound("user %d not found", id)
	}
	return s.decoded.Users.Decode(strconv.FormatInt(id, 10), v)
}

func (a *authStore) UserByEmail(ctx context.Context, email string) (store.UserRecord, error) {
	var u store.UserRecord
	err := a.view(ctx, func(btx *bolt.Tx) error {
		v := btx.Bucket(bEmails).Get(emailKey(email))
		if v == nil {
			return notFound("user %q not found", email)
		}
		var err error
		u, err = a.s.getUser(btx, keyID(v))
		return err
	})
	return u, err
}

func (a *authStore) User(ctx context.Context, id int64) (store.UserRecord, error) {
	var u store.UserRecord
	err := a.view(ctx, func(btx *bolt.Tx) error {
		var err error
		u, err = a.s.getUser(btx, id)
		return err
	})
	return u, err
}

func (a *authStore) UsersOfAccount(ctx context.Context, accountID int64) ([]store.UserRecord, error) {
	users := []store.UserRecord{}
	err := a.view(ctx, func(btx *bolt.Tx) error {
		ab := btx.Bucket(bAccounts).Bucket(idKey(accountID))
		if ab == nil {
			return notFound("account %d not found", accountID)
		}
		return ab.Bucket(bAcctUsers).ForEach(func(k, _ []byte) error {
			u, err := a.s.getUser(btx, keyID(k))
			if err != nil {
				return err
			}
			users = append(users, u)
			return nil
		})
	})
	return users, err
}

func (a *authStore) PutKey(ctx context.Context, k store.APIKey) error {
	return a.update(ctx, func(btx *bolt.Tx) error {
		u, err := a.s.getUser(btx, k.UserID)
		if err != nil {
			return err
		}
		key, err := store.KeyToStore(k, u, a.s.cfg.now())
		if err != nil {
			return err
		}
		keys := btx.Bucket(bKeys)
		if keys.Get(key.Hash[:]) != nil {
			return fmt.Errorf("api key: %w", store.ErrConflict)
		}
		if err := putJSON(keys, key.Hash[:], key); err != nil {
			return err
		}
		return btx.Bucket(bUserKeys).Put(append(idKey(key.UserID), key.Hash[:]...), nil)
	})
}

func (a *authStore) KeyByHash(ctx context.Context, hash [32]byte) (store.APIKey, error) {
	var k store.APIKey
	err := a.view(ctx, func(btx *bolt.Tx) error {
		v := btx.Bucket(bKeys).Get(hash[:])
		if v == nil {
			return notFound("api key not found")
		}
		var err error
		k, err = a.s.decoded.Keys.Decode(string(hash[:]), v)
		return err
	})
	return k, err
}

func (a *authStore) RevokeKeys(ctx context.Context, userID int64, at time.Time) (int, error) {
	n := 0
	err := a.update(ctx, func(btx *bolt.Tx) error {
		n = 0
		keys := btx.Bucket(bKeys)
		prefix := idKey(userID)
		c := btx.Bucket(bUserKeys).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			var key store.APIKey
			if err := decode(keys.Get(k[8:]), &key); err != nil {
				return fmt.Errorf("api key of user %d: %w", userID, err)
			}
			if key.Revoked() {
				continue
			}
			key.RevokedAt = at
			if err := putJSON(keys, k[8:], key); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// readCredentials reads the app, key, user and account in one read
// transaction: a signed request used to open four.
func (a *authStore) readCredentials(ctx context.Context, appID string, keyHash *[32]byte) (store.Credentials, error) {
	var c store.Credentials
	err := a.view(ctx, func(btx *bolt.Tx) error {
		c = store.Credentials{}
		v := btx.Bucket(bApps).Get([]byte(appID))
		if v == nil {
			return nil
		}
		var err error
		if c.App, err = a.s.decoded.Apps.Decode(appID, v); err != nil {
			return fmt.Errorf("app %q: %w", appID, err)
		}
		c.AppFound = true
		if keyHash == nil {
			return nil
		}
		if v = btx.Bucket(bKeys).Get(keyHash[:]); v == nil {
			return nil
		}
		if c.Key, err = a.s.decoded.Keys.Decode(string(keyHash[:]), v); err != nil {
			return fmt.Errorf("api key: %w", err)
		}
		c.KeyFound = true
		if v = btx.Bucket(bUsers).Get(idKey(c.Key.UserID)); v == nil {
			return nil
		}
		if c.User, err = a.s.decoded.Users.Decode(strconv.FormatInt(c.Key.UserID, 10), v); err != nil {
			return fmt.Errorf("user %d: %w", c.Key.UserID, err)
		}
		c.UserFound = true
		ab := btx.Bucket(bAccounts).Bucket(idKey(c.User.AccountID))
		if ab == nil {
			return nil
		}
		if c.Account, err = a.s.decoded.Accounts.Decode(fmt.Sprint(c.User.AccountID), ab.Get(kRecord)); err != nil {
			return fmt.Errorf("account %d: %w", c.User.AccountID, err)
		}
		c.AccountFound = true
		return nil
	})
	return c, err
}
