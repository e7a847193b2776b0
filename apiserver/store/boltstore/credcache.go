package boltstore

import (
	"context"
	"sync"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
)

// update runs fn in a write transaction, and counts it once it has
// committed (or failed).
func (s *Store) update(fn func(*bolt.Tx) error) error {
	err := s.db.Update(fn)
	s.commits.Add(1)
	return err
}

// credCache keeps the credentials of recent keys until the next write of
// any kind. A bbolt file has one writer, this process (the admin socket
// goes through it too), and every write transaction moves Store.commits
// after its commit; the count is taken before the read, so a kept entry
// was read no earlier than any write the count had seen. A revoked key,
// a deleted user or an expired account therefore fails at its next
// request, as when the credentials were read every time; a signed read
// then needs one bbolt transaction instead of two (wrk on the detail GET
// spent a tenth of its time in the credentials' transaction).
type credCache struct {
	mu      sync.Mutex
	writes  uint64 // the count the entries were read at
	entries map[string]store.Credentials
}

// keepCreds bounds the entries; when full the cache starts again.
const keepCreds = 4096

func (c *credCache) get(writes uint64, key string) (store.Credentials, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writes != writes {
		return store.Credentials{}, false
	}
	cr, ok := c.entries[key]
	return cr, ok
}

func (c *credCache) put(writes uint64, key string, cr store.Credentials) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writes != writes || c.entries == nil || len(c.entries) >= keepCreds {
		if writes < c.writes {
			return // read before a newer entry set began
		}
		if c.entries == nil {
			c.entries = make(map[string]store.Credentials)
		}
		c.writes = writes
		clear(c.entries) // keeps its room: under writes it empties often
	}
	c.entries[key] = cr
}

// Credentials reads the app, key, user and account in one transaction,
// or finds what the last read of them found if nothing was written since.
func (a *authStore) Credentials(ctx context.Context, appID string, keyHash *[32]byte) (store.Credentials, error) {
	if keyHash == nil {
		return a.readCredentials(ctx, appID, nil)
	}
	key := appID + "\x00" + string(keyHash[:])
	writes := a.s.commits.Load()
	if cr, ok := a.s.creds.get(writes, key); ok {
		return cr, nil
	}
	cr, err := a.readCredentials(ctx, appID, keyHash)
	if err == nil && cr.AccountFound {
		a.s.creds.put(writes, key, cr)
	}
	return cr, err
}
