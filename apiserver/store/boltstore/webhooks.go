package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
)

// Webhooks live in one top-level bucket, made by the first write that
// needs it (a file without subscriptions has none):
//
//	webhooks/subs       subID -> store.WebhookSubscription
//	webhooks/acctsubs   accountID ++ subID -> ""
//	webhooks/events     eventID -> store.WebhookEvent
//	webhooks/deliveries deliveryID -> delivery
//	webhooks/due        nextAt (unix ns) ++ deliveryID -> "" (pending ones)
//	webhooks/attempts   subID ++ attemptID -> store.WebhookAttempt
//
// Claims are kept in memory: the file has one process, so after a
// restart (or a kill -9) every pending delivery is due again.

var _ store.Webhooks = (*Store)(nil)
var _ store.WebhookTx = (*tx)(nil)

var (
	bWebhooks   = []byte("webhooks")
	bWhSubs     = []byte("subs")
	bWhAcctSubs = []byte("acctsubs")
	bWhEvents   = []byte("events")
	bWhDeliv    = []byte("deliveries")
	bWhDue      = []byte("due")
	bWhAttempts = []byte("attempts")
)

// delivery is one event for one subscription.
type delivery struct {
	ID             int64     `json:"id"`
	SubscriptionID int64     `json:"subscriptionId"`
	AccountID      int64     `json:"accountId"`
	EventID        int64     `json:"eventId"`
	Attempts       int       `json:"attempts"`
	Pending        bool      `json:"pending"`
	NextAt         time.Time `json:"nextAt"`
}

// webhookClaims are the deliveries handed out and not yet finished.
type webhookClaims struct {
	mu    sync.Mutex
	until map[int64]claim
}

type claim struct {
	owner string
	until time.Time
}

var claimsOf sync.Map // *Store -> *webhookClaims

func (s *Store) claims() *webhookClaims {
	c, _ := claimsOf.LoadOrStore(s, &webhookClaims{until: map[int64]claim{}})
	return c.(*webhookClaims)
}

func whBuckets(btx *bolt.Tx) (map[string]*bolt.Bucket, error) {
	root := btx.Bucket(bWebhooks)
	if root == nil {
		if !btx.Writable() {
			return nil, nil
		}
		var err error
		if root, err = btx.CreateBucket(bWebhooks); err != nil {
			return nil, err
		}
	}
	out := map[string]*bolt.Bucket{}
	for _, name := range [][]byte{bWhSubs, bWhAcctSubs, bWhEvents, bWhDeliv, bWhDue, bWhAttempts} {
		b := root.Bucket(name)
		if b == nil {
			if !btx.Writable() {
				return nil, nil
			}
			var err error
			if b, err = root.CreateBucket(name); err != nil {
				return nil, err
			}
		}
		out[string(name)] = b
	}
	return out, nil
}

func pairKey(a, b int64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(a))
	binary.BigEndian.PutUint64(k[8:], uint64(b))
	return k
}

func dueKey(at time.Time, id int64) []byte { return pairKey(at.UnixNano(), id) }

func whGet(b *bolt.Bucket, k []byte, v any) (bool, error) {
	raw := b.Get(k)
	if raw == nil {
		return false, nil
	}
	return true, json.Unmarshal(raw, v)
}

func whPut(b *bolt.Bucket, k []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(k, raw)
}

func (s *Store) whUpdate(ctx context.Context, fn func(map[string]*bolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update(func(btx *bolt.Tx) error {
		bs, err := whBuckets(btx)
		if err != nil {
			return err
		}
		return fn(bs)
	})
}

func (s *Store) whView(ctx context.Context, fn func(map[string]*bolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(btx *bolt.Tx) error {
		bs, err := whBuckets(btx)
		if err != nil {
			return err
		}
		return fn(bs) // bs is nil in a file that never had a subscription
	})
}

// ---- subscriptions

func (s *Store) CreateSubscription(ctx context.Context, sub store.WebhookSubscription) (store.WebhookSubscription, error) {
	err := s.whUpdate(ctx, func(bs map[string]*bolt.Bucket) error {
		seq, err := bs["subs"].NextSequence()
		if err != nil {
			return err
		}
		sub.ID = int64(seq)
		if err := whPut(bs["subs"], idKey(sub.ID), sub); err != nil {
			return err
		}
		return bs["acctsubs"].Put(pairKey(sub.AccountID, sub.ID), nil)
	})
	return sub, err
}

func subOf(bs map[string]*bolt.Bucket, accountID, id int64) (store.WebhookSubscription, error) {
	var sub store.WebhookSubscription
	if bs == nil {
		return sub, notFound("webhook subscription %d not found", id)
	}
	found, err := whGet(bs["subs"], idKey(id), &sub)
	if err != nil {
		return sub, err
	}
	if !found || sub.AccountID != accountID {
		return sub, notFound("webhook subscription %d not found", id)
	}
	return sub, nil
}

func (s *Store) Subscription(ctx context.Context, accountID, id int64) (sub store.WebhookSubscription, err error) {
	err = s.db.View(func(btx *bolt.Tx) error {
		bs, err := whBuckets(btx)
		if err != nil {
			return err
		}
		sub, err = subOf(bs, accountID, id)
		return err
	})
	return sub, err
}

func (s *Store) Subscriptions(ctx context.Context, accountID int64) ([]store.WebhookSubscription, error) {
	out := []store.WebhookSubscription{}
	err := s.whView(ctx, func(bs map[string]*bolt.Bucket) error {
		var err error
		out, err = acctSubs(bs, accountID)
		return err
	})
	return out, err
}

func acctSubs(bs map[string]*bolt.Bucket, accountID int64) ([]store.WebhookSubscription, error) {
	out := []store.WebhookSubscription{}
	if bs == nil {
		return out, nil
	}
	prefix := idKey(accountID)
	c := bs["acctsubs"].Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		var sub store.WebhookSubscription
		if _, err := whGet(bs["subs"], k[8:], &sub); err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, nil
}

func (s *Store) UpdateSubscription(ctx context.Context, sub store.WebhookSubscription) error {
	return s.whUpdate(ctx, func(bs map[string]*bolt.Bucket) error {
		if _, err := subOf(bs, sub.AccountID, sub.ID); err != nil {
			return err
		}
		return whPut(bs["subs"], idKey(sub.ID), sub)
	})
}

func (s *Store) DeleteSubscription(ctx context.Context, accountID, id int64) error {
	return s.whUpdate(ctx, func(bs map[string]*bolt.Bucket) error {
		if _, err := subOf(bs, accountID, id); err != nil {
			return err
		}
		if err := bs["subs"].Delete(idKey(id)); err != nil {
			return err
		}
		if err := bs["acctsubs"].Delete(pairKey(accountID, id)); err != nil {
			return err
		}
		// Its log; its queued deliveries are dropped when next claimed.
		prefix := idKey(id)
		c := bs["attempts"].Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
		return nil
	})
}

// ---- the write path

func (t *tx) WebhookTargets() ([]store.WebhookTarget, error) {
	root := t.btx.Bucket(bWebhooks)
	if root == nil {
		return nil, nil
	}
	bs, err := whBuckets(t.btx)
	if err != nil || bs == nil {
		return nil, err
	}
	subs, err := acctSubs(bs, t.id)
	if err != nil {
		return nil, err
	}
	var out []store.WebhookTarget
	for _, s := range subs {
		if s.Enabled {
			out = append(out, store.WebhookTarget{ID: s.ID, Events: s.Events})
		}
	}
	return out, nil
}

func (t *tx) AddWebhookEvent(e store.WebhookEvent, subscriptionIDs []int64) error {
	if !t.btx.Writable() {
		return fmt.Errorf("boltstore: webhook event in a read-only transaction")
	}
	t.wrote = true
	bs, err := whBuckets(t.btx)
	if err != nil {
		return err
	}
	seq, err := bs["events"].NextSequence()
	if err != nil {
		return err
	}
	e.ID, e.AccountID = int64(seq), t.id
	if err := putEvent(bs["events"], e); err != nil {
		return err
	}
	for _, sub := range subscriptionIDs {
		seq, err := bs["deliveries"].NextSequence()
		if err != nil {
			return err
		}
		d := delivery{ID: int64(seq), SubscriptionID: sub, AccountID: t.id, EventID: e.ID, Pending: true, NextAt: e.At}
		if err := whPut(bs["deliveries"], idKey(d.ID), d); err != nil {
			return err
		}
		if err := bs["due"].Put(dueKey(d.NextAt, d.ID), nil); err != nil {
			return err
		}
	}
	return nil
}

// ---- the queue

func (s *Store) ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]store.WebhookJob, error) {
	cl := s.claims()
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var jobs []store.WebhookJob
	err := s.whView(ctx, func(bs map[string]*bolt.Bucket) error {
		if bs == nil {
			return nil
		}
		subs := map[int64]*store.WebhookSubscription{}
		end := now.UnixNano()
		c := bs["due"].Cursor()
		for k, _ := c.First(); k != nil && len(jobs) < limit; k, _ = c.Next() {
			if int64(binary.BigEndian.Uint64(k)) > end {
				break
			}
			id := int64(binary.BigEndian.Uint64(k[8:]))
			if h, held := cl.until[id]; held && h.until.After(now) {
				continue
			}
			var d delivery
			if found, err := whGet(bs["deliveries"], idKey(id), &d); err != nil || !found {
				if err != nil {
					return err
				}
				continue
			}
			sub, ok := subs[d.SubscriptionID]
			if !ok {
				var v store.WebhookSubscription
				found, err := whGet(bs["subs"], idKey(d.SubscriptionID), &v)
				if err != nil {
					return err
				}
				if found {
					sub = &v
				}
				subs[d.SubscriptionID] = sub
			}
			if sub == nil || !sub.Enabled {
				// Paused with its subscription (or orphaned by its
				// deletion, which Finish cleans up when it is claimed
				// once more; a paused one waits to be enabled).
				if sub != nil {
					continue
				}
			}
			if bs["events"].Get(idKey(d.EventID)) == nil {
				sub = nil // its event is past the retention: an orphan
			}
			var e store.WebhookEvent
			if sub != nil {
				var err error
				if e, err = getEvent(bs["events"], d.EventID); err != nil {
					return err
				}
			}
			j := store.WebhookJob{DeliveryID: d.ID, SubscriptionID: d.SubscriptionID, AccountID: d.AccountID,
				EventID: d.EventID, Type: e.Type, Body: e.Body, Attempts: d.Attempts, CreatedAt: e.At}
			if sub != nil {
				j.URL, j.Secret, j.FailingSince = sub.URL, sub.Secret, sub.FailingSince
			}
			jobs = append(jobs, j)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Orphans (a deleted subscription) are finished at once, unsent.
	kept := jobs[:0]
	var orphans []store.WebhookOutcome
	for _, j := range jobs {
		cl.until[j.DeliveryID] = claim{owner, now.Add(lease)}
		if j.URL == "" {
			orphans = append(orphans, store.WebhookOutcome{Job: j, Done: true})
			continue
		}
		kept = append(kept, j)
	}
	if len(orphans) > 0 {
		cl.mu.Unlock()
		err := s.FinishDeliveries(ctx, owner, orphans)
		cl.mu.Lock()
		if err != nil {
			return nil, err
		}
	}
	return kept, nil
}

func (s *Store) FinishDeliveries(ctx context.Context, owner string, outcomes []store.WebhookOutcome) error {
	cl := s.claims()
	cl.mu.Lock()
	held := make([]bool, len(outcomes))
	for i, o := range outcomes {
		held[i] = cl.until[o.Job.DeliveryID].owner == owner
	}
	cl.mu.Unlock()
	err := s.whUpdate(context.WithoutCancel(ctx), func(bs map[string]*bolt.Bucket) error {
		var last time.Time
		for i, o := range outcomes {
			if err := finishOne(bs, o, held[i]); err != nil {
				return err
			}
			if o.Attempt.At.After(last) {
				last = o.Attempt.At
			}
		}
		return pruneQueue(bs, last.Add(-store.WebhookLogRetention))
	})
	if err != nil {
		return err
	}
	cl.mu.Lock()
	for i, o := range outcomes {
		if held[i] {
			delete(cl.until, o.Job.DeliveryID)
		}
	}
	cl.mu.Unlock()
	return nil
}

func finishOne(bs map[string]*bolt.Bucket, o store.WebhookOutcome, held bool) error {
	var d delivery
	found, err := whGet(bs["deliveries"], idKey(o.Job.DeliveryID), &d)
	if err != nil {
		return err
	}
	var sub store.WebhookSubscription
	subFound, err := whGet(bs["subs"], idKey(o.Job.SubscriptionID), &sub)
	if err != nil {
		return err
	}
	if subFound && o.Attempt.Result != "" {
		seq, err := bs["attempts"].NextSequence()
		if err != nil {
			return err
		}
		a := o.Attempt
		a.ID = int64(seq)
		if err := whPut(bs["attempts"], pairKey(sub.ID, a.ID), a); err != nil {
			return err
		}
		if err := pruneLog(bs["attempts"], sub.ID, a.At.Add(-store.WebhookLogRetention)); err != nil {
			return err
		}
		sub.Record(o)
		if err := whPut(bs["subs"], idKey(sub.ID), sub); err != nil {
			return err
		}
	}
	if !found || !held || !d.Pending {
		return nil
	}
	if err := bs["due"].Delete(dueKey(d.NextAt, d.ID)); err != nil {
		return err
	}
	d.Attempts++
	if o.Attempt.Result == "" { // an orphan: not attempted
		d.Attempts--
	}
	if o.Done {
		// NextAt keeps the last move's time: the retention counts from it.
		d.Pending = false
		if !o.Attempt.At.IsZero() {
			d.NextAt = o.Attempt.At
		}
	} else {
		d.NextAt = o.NextAt
		if err := bs["due"].Put(dueKey(d.NextAt, d.ID), nil); err != nil {
			return err
		}
	}
	return whPut(bs["deliveries"], idKey(d.ID), d)
}

func (s *Store) DeliveryLog(ctx context.Context, accountID, subscriptionID int64, limit int) ([]store.WebhookAttempt, error) {
	out := []store.WebhookAttempt{}
	err := s.whView(ctx, func(bs map[string]*bolt.Bucket) error {
		if _, err := subOf(bs, accountID, subscriptionID); err != nil {
			return err
		}
		prefix := idKey(subscriptionID)
		c := bs["attempts"].Cursor()
		k, v := c.Seek(pairKey(subscriptionID, math.MaxInt64))
		if k == nil || !bytes.HasPrefix(k, prefix) {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, v = c.Prev() {
			var a store.WebhookAttempt
			if err := json.Unmarshal(v, &a); err != nil {
				return err
			}
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

func (s *Store) Redeliver(ctx context.Context, accountID, subscriptionID, deliveryID int64, now time.Time) error {
	return s.whUpdate(ctx, func(bs map[string]*bolt.Bucket) error {
		if _, err := subOf(bs, accountID, subscriptionID); err != nil {
			return err
		}
		var d delivery
		found, err := whGet(bs["deliveries"], idKey(deliveryID), &d)
		if err != nil {
			return err
		}
		if !found || d.SubscriptionID != subscriptionID {
			return notFound("delivery %d not found", deliveryID)
		}
		if d.Pending {
			if err := bs["due"].Delete(dueKey(d.NextAt, d.ID)); err != nil {
				return err
			}
		}
		d.Pending, d.NextAt, d.Attempts = true, now, 0
		if err := bs["due"].Put(dueKey(d.NextAt, d.ID), nil); err != nil {
			return err
		}
		return whPut(bs["deliveries"], idKey(d.ID), d)
	})
}

// An event is stored as its fields in JSON, then its body as it is: the
// body (a proposal's detail, ~10 KB) is neither escaped nor base64'd.
func putEvent(b *bolt.Bucket, e store.WebhookEvent) error {
	body := e.Body
	e.Body = nil
	head, err := json.Marshal(e)
	if err != nil {
		return err
	}
	v := binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(head)+len(body)), uint64(len(head)))
	v = append(append(v, head...), body...)
	return b.Put(idKey(e.ID), v)
}

func getEvent(b *bolt.Bucket, id int64) (store.WebhookEvent, error) {
	var e store.WebhookEvent
	v := b.Get(idKey(id))
	n, w := binary.Uvarint(v)
	if v == nil || w <= 0 || uint64(len(v)-w) < n {
		return e, fmt.Errorf("webhook event %d: corrupt record", id)
	}
	if err := json.Unmarshal(v[w:w+int(n)], &e); err != nil {
		return e, fmt.Errorf("webhook event %d: %w", id, err)
	}
	e.Body = append([]byte(nil), v[w+int(n):]...)
	return e, nil
}

// pruneLog drops the subscription's attempts made before cutoff (its
// oldest come first).
func pruneLog(b *bolt.Bucket, subID int64, cutoff time.Time) error {
	prefix := idKey(subID)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Seek(prefix) {
		var a store.WebhookAttempt
		if err := json.Unmarshal(v, &a); err != nil {
			return err
		}
		if !a.At.Before(cutoff) {
			return nil
		}
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// pruneQueue drops, oldest first, the deliveries last moved before
// cutoff and then the events before it that no delivery names. IDs
// grow with time, so each
// walk stops at the first one to keep; at most 100 of each at a time,
// as attempts are recorded.
func pruneQueue(bs map[string]*bolt.Bucket, cutoff time.Time) error {
	c := bs["deliveries"].Cursor()
	for n := 0; n < 100; n++ {
		k, v := c.First()
		if k == nil {
			break
		}
		var d delivery
		if err := json.Unmarshal(v, &d); err != nil {
			return err
		}
		if !d.NextAt.Before(cutoff) {
			break
		}
		if d.Pending {
			if err := bs["due"].Delete(dueKey(d.NextAt, d.ID)); err != nil {
				return err
			}
		}
		if err := c.Delete(); err != nil {
			return err
		}
	}
	// Deliveries are made with their event, in order, so the oldest one
	// kept names the oldest event still needed.
	keep := int64(math.MaxInt64)
	if k, v := c.First(); k != nil {
		var d delivery
		if err := json.Unmarshal(v, &d); err != nil {
			return err
		}
		keep = d.EventID
	}
	ec := bs["events"].Cursor()
	for n := 0; n < 100; n++ {
		k, _ := ec.First()
		if k == nil || keyID(k) >= keep {
			break
		}
		e, err := getEvent(bs["events"], keyID(k))
		if err != nil {
			return err
		}
		if !e.At.Before(cutoff) {
			break
		}
		if err := ec.Delete(); err != nil {
			return err
		}
	}
	return nil
}
