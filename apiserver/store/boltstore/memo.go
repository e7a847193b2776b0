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

// memo keeps what reads found until the next write of any kind. A bbolt
// file has one writer, this process (the admin socket goes through it
// too), and every write transaction moves Store.commits after its
// commit; a reader takes the count before its read, so a kept entry was
// read no earlier than any write the count had seen. What the store
// answers from a memo is therefore what a read would find.
type memo[K comparable, V any] struct {
	mu      sync.Mutex
	writes  uint64 // the count the entries were read at
	entries map[K]V
}

// keepMemo bounds a memo's entries; when full it starts again.
const keepMemo = 16384

func (m *memo[K, V]) get(writes uint64, k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.writes != writes {
		var zero V
		return zero, false
	}
	v, ok := m.entries[k]
	return v, ok
}

// put keeps v, read after the count was writes.
func (m *memo[K, V]) put(writes uint64, k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.writes != writes || m.entries == nil || len(m.entries) >= keepMemo {
		if writes < m.writes {
			return // read before a newer entry set began
		}
		if m.entries == nil {
			m.entries = make(map[K]V)
		}
		m.writes = writes
		clear(m.entries) // keeps its room: under writes it empties often
	}
	m.entries[k] = v
}

// Credentials reads the app, key, user and account in one transaction,
// or finds what the last read of them found if nothing was written since:
// a revoked key, a deleted user or an expired account fails at its next
// request, and a signed read needs one bbolt transaction instead of two
// (wrk on the detail GET spent a tenth of its time in the credentials'
// transaction).
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

// A proposal's version as a read-only View read it (tx.ProposalVersion): a
// detail GET whose rendering the server has cached then needs no
// transaction at all (the read transaction was a tenth of such a GET
// under wrk).
type stampKey struct{ account, proposal int64 }

// MemoVersion is the version of the account's proposal as a read-only
// transaction last read it, if nothing has been written since
// (store.VersionMemo).
func (s *Store) MemoVersion(accountID, proposalID int64) (int64, bool) {
	return s.stamps.get(s.commits.Load(), stampKey{accountID, proposalID})
}
