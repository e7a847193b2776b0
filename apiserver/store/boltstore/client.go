package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// What sending a proposal keeps (store.ClientTx). The buckets are made
// when first written, so older files need no migration:
//
//	accounts/<id>/clientsnaps  proposalID ++ hash -> snapshot JSON
//	accounts/<id>/clientevents proposalID ++ event ID -> app.Event
//	clientexpiry               accountID ++ proposalID -> expiry (unix ns)
var (
	bClientSnaps  = []byte("clientsnaps")
	bClientEvents = []byte("clientevents")
	bClientExpiry = []byte("clientexpiry")
)

var _ store.ClientTx = (*tx)(nil)
var _ store.ClientExpiries = (*Store)(nil)

// wbucket is the account's bucket name, made if missing, for a write.
func (t *tx) wbucket(name []byte) (*bolt.Bucket, error) {
	if !t.btx.Writable() {
		return nil, fmt.Errorf("boltstore: write of %s in a read-only transaction", name)
	}
	t.wrote = true
	return t.ab.CreateBucketIfNotExists(name)
}

func (t *tx) PutClientSnapshot(proposalID int64, hash string, doc []byte) error {
	b, err := t.wbucket(bClientSnaps)
	if err != nil {
		return err
	}
	k := append(idKey(proposalID), hash...)
	if b.Get(k) != nil {
		return nil
	}
	return b.Put(k, slices.Clone(doc))
}

func (t *tx) ClientSnapshot(proposalID int64, hash string) ([]byte, error) {
	if b := t.b(bClientSnaps); b != nil {
		if v := b.Get(append(idKey(proposalID), hash...)); v != nil {
			return slices.Clone(v), nil
		}
	}
	return nil, notFound("snapshot %s of proposal %d not found", hash, proposalID)
}

func (t *tx) AppendClientEvent(proposalID int64, e app.Event) (app.Event, error) {
	b, err := t.wbucket(bClientEvents)
	if err != nil {
		return app.Event{}, err
	}
	var prev *app.Event
	prefix := idKey(proposalID)
	c := b.Cursor()
	// The last key of the proposal: seek past its prefix, step back.
	k, _ := c.Seek(idKey(proposalID + 1))
	var v []byte
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k != nil && bytes.HasPrefix(k, prefix) {
		prev = new(app.Event)
		if err := decode(v, prev); err != nil {
			return app.Event{}, fmt.Errorf("event of proposal %d: %w", proposalID, err)
		}
	}
	e, err = app.ChainEvent(proposalID, prev, e)
	if err != nil {
		return app.Event{}, err
	}
	return e, t.put(bClientEvents, append(prefix, u64(uint64(e.ID))...), e)
}

func (t *tx) ClientEvents(proposalID int64) ([]app.Event, error) {
	out := []app.Event{}
	b := t.b(bClientEvents)
	if b == nil {
		return out, nil
	}
	prefix := idKey(proposalID)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var e app.Event
		if err := decode(v, &e); err != nil {
			return nil, fmt.Errorf("event of proposal %d: %w", proposalID, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func (t *tx) SetClientExpiry(proposalID int64, at time.Time) error {
	if !t.btx.Writable() {
		return fmt.Errorf("boltstore: SetClientExpiry in a read-only transaction")
	}
	t.wrote = true
	b, err := t.btx.CreateBucketIfNotExists(bClientExpiry)
	if err != nil {
		return err
	}
	k := append(idKey(t.id), idKey(proposalID)...)
	if at.IsZero() {
		return b.Delete(k)
	}
	return b.Put(k, u64(uint64(at.UnixNano())))
}

// DueClientExpiries reads the whole index: it holds only links not yet
// decided or expired, so it stays small.
func (s *Store) DueClientExpiries(ctx context.Context, now time.Time, limit int) ([]store.ExpiryRef, error) {
	var out []store.ExpiryRef
	err := s.db.View(func(btx *bolt.Tx) error {
		b := btx.Bucket(bClientExpiry)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			at := time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC()
			if !at.After(now) {
				out = append(out, store.ExpiryRef{AccountID: keyID(k[:8]), ProposalID: keyID(k[8:]), At: at})
			}
			return nil
		})
	})
	slices.SortFunc(out, func(a, b store.ExpiryRef) int { return a.At.Compare(b.At) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, err
}

// copyClient sends every account's client evidence and the expiry index
// to sink (CopyTo), after the proposals they belong to.
func copyClient(btx *bolt.Tx, sink store.Sink) error {
	accts := btx.Bucket(bAccounts)
	err := accts.ForEachBucket(func(k []byte) error {
		acct, ab := keyID(k), accts.Bucket(k)
		if b := ab.Bucket(bClientSnaps); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				return sink.PutClientSnapshot(acct, keyID(k[:8]), string(k[8:]), v)
			})
			if err != nil {
				return fmt.Errorf("account %d snapshots: %w", acct, err)
			}
		}
		if b := ab.Bucket(bClientEvents); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				var e app.Event
				if err := decode(v, &e); err != nil {
					return err
				}
				return sink.PutClientEvent(acct, keyID(k[:8]), e)
			})
			if err != nil {
				return fmt.Errorf("account %d events: %w", acct, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := btx.Bucket(bClientExpiry)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		return sink.PutClientExpiry(keyID(k[:8]), keyID(k[8:]), time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC())
	})
}
