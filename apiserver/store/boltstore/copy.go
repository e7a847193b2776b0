package boltstore

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// CopyTo sends every record of the file to sink, from one read
// transaction (a consistent snapshot; the store keeps serving).
func (s *Store) CopyTo(ctx context.Context, sink store.Sink) error {
	return s.db.View(func(btx *bolt.Tx) error {
		if err := sink.SetStoreID(string(btx.Bucket(bMeta).Get(kStoreID))); err != nil {
			return err
		}
		if err := sink.SetLastID(int64(btx.Bucket(bIDs).Sequence())); err != nil {
			return err
		}
		if err := eachJSON(btx.Bucket(bApps), sink.PutApp); err != nil {
			return fmt.Errorf("apps: %w", err)
		}
		accts := btx.Bucket(bAccounts)
		err := accts.ForEachBucket(func(k []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			ab := accts.Bucket(k)
			var a store.Account
			if err := decode(ab.Get(kRecord), &a); err != nil {
				return fmt.Errorf("account %d: %w", keyID(k), err)
			}
			return sink.PutAccount(a, int64(ab.Sequence()), int64(ab.Bucket(bChanges).Sequence()))
		})
		if err != nil {
			return err
		}
		if err := eachJSON(btx.Bucket(bUsers), sink.PutUser); err != nil {
			return fmt.Errorf("users: %w", err)
		}
		if err := eachJSON(btx.Bucket(bKeys), sink.PutKey); err != nil {
			return fmt.Errorf("api keys: %w", err)
		}
		err = accts.ForEachBucket(func(k []byte) error {
			return copyAccount(ctx, keyID(k), accts.Bucket(k), sink)
		})
		if err != nil {
			return err
		}
		return copyClient(btx, sink)
	})
}

// copyAccount sends one account's contacts, locations, proposals and
// idempotency records.
func copyAccount(ctx context.Context, id int64, ab *bolt.Bucket, sink store.Sink) error {
	peopleAt := ab.Bucket(bPeopleAt)
	err := eachJSON(ab.Bucket(bContacts), func(c app.Contact) error {
		var seq int64
		if s := peopleAt.Get(idKey(c.ID)); len(s) == 8 {
			seq = keyID(s)
		}
		return sink.PutContact(id, c, seq)
	})
	if err == nil {
		err = eachJSON(ab.Bucket(bLocations), func(l app.ContactLocation) error { return sink.PutLocation(id, l) })
	}
	if err == nil {
		err = eachJSON(ab.Bucket(bIdem), func(r store.IdempotencyRecord) error { return sink.PutIdempotency(id, r) })
	}
	if err != nil {
		return fmt.Errorf("account %d: %w", id, err)
	}
	changedAt := ab.Bucket(bChangedAt)
	return ab.Bucket(bProposals).ForEach(func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var p app.Proposal
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("proposal %d: %w", keyID(k), err)
		}
		var seq int64
		if s := changedAt.Get(k); len(s) == 8 {
			seq = keyID(s)
		}
		return sink.PutProposal(id, &p, seq)
	})
}

// eachJSON decodes every value of b and hands it to put.
func eachJSON[T any](b *bolt.Bucket, put func(T) error) error {
	return b.ForEach(func(k, v []byte) error {
		var x T
		if err := json.Unmarshal(v, &x); err != nil {
			return fmt.Errorf("%x: %w", k, err)
		}
		return put(x)
	})
}
