// Package decodecache keeps decoded JSON records beside the bytes they
// were decoded from, for the stores: a record read again is reused only
// when the bytes the database gives are exactly the cached ones.
package decodecache

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"sync"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Cache keeps decoded records beside the bytes they were decoded
// from. A lookup hands over the stored bytes the transaction sees; only
// when they are byte-for-byte the cached ones is the decoded value
// reused. So the cache can never serve a stale or uncommitted record and
// needs no invalidation: a write changes the bytes, a rollback does not.
//
// It exists because decoding JSON was most of a signed GET's cost (the
// key, user, account and proposal are read on every request).
type Cache[T any] struct {
	mu    sync.Mutex
	max   int
	items map[string]cached[T]
	copy  func(T) T // a deep copy, so callers may change what they get
}

type cached[T any] struct {
	raw []byte
	val T
}

// New makes a cache of at most max records; copy makes a deep copy.
func New[T any](max int, copy func(T) T) *Cache[T] {
	return &Cache[T]{max: max, items: make(map[string]cached[T]), copy: copy}
}

// Decode returns the value stored as raw under key, decoding only when
// the cache does not hold exactly these bytes.
func (c *Cache[T]) Decode(key string, raw []byte) (T, error) {
	c.mu.Lock()
	e, ok := c.items[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return c.copy(e.val), nil
	}
	var v T
	if err := decode(raw, &v); err != nil {
		return v, err
	}
	c.Put(key, bytes.Clone(raw), c.copy(v))
	return v, nil
}

// Peek calls fn with the value stored as raw under key, decoding it only
// when the cache does not hold exactly these bytes, and without the copy
// decode makes: fn must not change the value or keep it.
func (c *Cache[T]) Peek(key string, raw []byte, fn func(*T)) error {
	c.mu.Lock()
	e, ok := c.items[key]
	c.mu.Unlock()
	if !ok || !bytes.Equal(e.raw, raw) {
		v, err := c.Decode(key, raw)
		if err != nil {
			return err
		}
		e.val = v
	}
	fn(&e.val)
	return nil
}

// Put keeps val as the decoded form of raw under key. Both become the
// cache's: the caller must not change them afterwards. A writer that has
// just encoded val into raw puts it so the next reader need not decode.
func (c *Cache[T]) Put(key string, raw []byte, val T) {
	c.mu.Lock()
	if len(c.items) >= c.max {
		// Drop an arbitrary tenth: cheap, and a hot record returns at once.
		n := max(1, c.max/10)
		for k := range c.items {
			if n <= 0 {
				break
			}
			delete(c.items, k)
			n--
		}
	}
	c.items[key] = cached[T]{raw: raw, val: val}
	c.mu.Unlock()
}

// Same is the copy of a value without references.
func Same[T any](v T) T { return v }

// CopyListItem is the deep copy of a list row.
func CopyListItem(it app.ListItem) app.ListItem {
	if it.Customer != nil {
		c := *it.Customer
		it.Customer = &c
	}
	return it
}

// Len is how many records are held.
func (c *Cache[T]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Holds reports whether a record is held under key.
func (c *Cache[T]) Holds(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.items[key]
	return ok
}

func decode(data []byte, v any) error {
	if data == nil {
		return errors.New("missing record")
	}
	return json.Unmarshal(data, v)
}

// Auth are the caches of the records every signed request reads, with
// the bounds and copies both stores use.
type Auth struct {
	Apps     *Cache[store.App]
	Keys     *Cache[store.APIKey]
	Users    *Cache[store.UserRecord]
	Accounts *Cache[store.Account]
}

// NewAuth makes the caches of Auth.
func NewAuth() Auth {
	return Auth{
		Apps: New(1024, Same[store.App]),
		Keys: New(4096, Same[store.APIKey]),
		Users: New(4096, func(u store.UserRecord) store.UserRecord {
			u.PasswordHash = bytes.Clone(u.PasswordHash)
			return u
		}),
		Accounts: New(1024, func(a store.Account) store.Account {
			a.TaxOverrides = maps.Clone(a.TaxOverrides)
			return a
		}),
	}
}

// RowJSON is a list row as json.Marshal encodes its app.ListItem:
// decoding a stored row into it encodes the row again, so a Cache of
// RowJSON hands out response-ready bytes, made once per stored version.
// The bytes are shared: nobody may change them.
type RowJSON []byte

// UnmarshalJSON decodes b as an app.ListItem and keeps its encoding.
func (r *RowJSON) UnmarshalJSON(b []byte) error {
	var it app.ListItem
	if err := json.Unmarshal(b, &it); err != nil {
		return err
	}
	out, err := json.Marshal(it)
	*r = out
	return err
}
