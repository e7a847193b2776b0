package localstore

import (
	"proposaldesk/app"
)

// Aliases keep a temporary ID meaning what it meant. When the server
// gives something made on this computer its real ID, every stored
// mention of the temporary one is rewritten (remap.go), but a screen
// may still hold it: a row built before the sync, a field with the
// cursor in it, a button of an area made a moment ago. The alias table
// remembers temporary → real for good, and every entry point that takes
// an ID from a screen (Edit, Record, CreateLocation) reads it through
// the table, so an edit made at any moment lands on the thing the user
// sees. Temporary IDs are never reused (they come from one sequence),
// so an alias never goes stale; each costs 16 bytes.
//
//	aliases   temporary ID → real ID
//
// The bucket is made by the first remap that needs it, so files from
// before it need no migration and older programs ignore it.
var bucketAliases = []byte("aliases")

// putAlias records that from (temporary) is now to (real).
func (t *txn) putAlias(from, to int64) error {
	b, err := t.tx.CreateBucketIfNotExists(bucketAliases)
	if err != nil {
		return err
	}
	return b.Put(idKey(from), idKey(to))
}

// resolve is the current ID of what id named: the real ID of a
// temporary one the server has replaced, else id itself.
func (t *txn) resolve(id int64) int64 {
	if !app.IsTemporaryID(id) {
		return id
	}
	b := t.tx.Bucket(bucketAliases)
	if b == nil {
		return id
	}
	if v := b.Get(idKey(id)); v != nil {
		return keyID(v)
	}
	return id
}

// resolveMutation rewrites every temporary ID m refers to that the
// server has replaced, in place.
func (t *txn) resolveMutation(m app.Mutation) {
	for _, id := range app.RefIDs(m) {
		if to := t.resolve(id); to != id {
			app.RemapID(m, id, to)
		}
	}
}

// Resolve is the current ID of what id named when a screen got it: the
// server's ID of something made on this computer and sent since, else
// id itself.
func (s *Store) Resolve(id int64) int64 {
	out := id
	if !app.IsTemporaryID(id) {
		return out
	}
	_ = s.view(func(t *txn) error { out = t.resolve(id); return nil })
	return out
}

// Resolved are those of ids that the server has replaced, each with its
// real ID (one read, for a screen following several at once).
func (s *Store) Resolved(ids []int64) map[int64]int64 {
	out := map[int64]int64{}
	_ = s.view(func(t *txn) error {
		for _, id := range ids {
			if to := t.resolve(id); to != id {
				out[id] = to
			}
		}
		return nil
	})
	return out
}
