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

// Webhooks (migrations/008_webhooks.sql): the queue is shared by every
// replica; a claim leases due rows to one of them (FOR UPDATE SKIP
// LOCKED, then lease_owner and lease_until), and a finish moves a row
// only while its lease is still the finisher's.

var _ store.Webhooks = (*Store)(nil)
var _ store.WebhookTx = (*tx)(nil)

func (s *Store) CreateSubscription(ctx context.Context, sub store.WebhookSubscription) (store.WebhookSubscription, error) {
	err := pgx.BeginFunc(ctx, s.pool, func(ptx pgx.Tx) error {
		if err := ptx.QueryRow(ctx, "INSERT INTO webhook_subscriptions (account_id, enabled, doc) VALUES ($1, $2, '{}') RETURNING id",
			sub.AccountID, sub.Enabled).Scan(&sub.ID); err != nil {
			return err
		}
		return putSub(ctx, ptx, sub)
	})
	if err != nil {
		return sub, dbErr(fmt.Errorf("create webhook subscription: %w", err))
	}
	return sub, nil
}

func putSub(ctx context.Context, q pgx.Tx, sub store.WebhookSubscription) error {
	doc, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	tag, err := q.Exec(ctx, "UPDATE webhook_subscriptions SET enabled = $3, doc = $4 WHERE id = $1 AND account_id = $2",
		sub.ID, sub.AccountID, sub.Enabled, doc)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return notFound("webhook subscription %d not found", sub.ID)
	}
	return nil
}

func (s *Store) Subscription(ctx context.Context, accountID, id int64) (store.WebhookSubscription, error) {
	var sub store.WebhookSubscription
	var doc []byte
	err := s.pool.QueryRow(ctx, "SELECT doc FROM webhook_subscriptions WHERE id = $1 AND account_id = $2", id, accountID).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return sub, notFound("webhook subscription %d not found", id)
	}
	if err != nil {
		return sub, dbErr(fmt.Errorf("webhook subscription %d: %w", id, err))
	}
	return sub, json.Unmarshal(doc, &sub)
}

func (s *Store) Subscriptions(ctx context.Context, accountID int64) ([]store.WebhookSubscription, error) {
	rows, err := s.pool.Query(ctx, "SELECT doc FROM webhook_subscriptions WHERE account_id = $1 ORDER BY id", accountID)
	if err != nil {
		return nil, dbErr(fmt.Errorf("webhook subscriptions: %w", err))
	}
	out := []store.WebhookSubscription{}
	for rows.Next() {
		var doc []byte
		var sub store.WebhookSubscription
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(doc, &sub); err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, dbErr(rows.Err())
}

func (s *Store) UpdateSubscription(ctx context.Context, sub store.WebhookSubscription) error {
	return dbErr(pgx.BeginFunc(ctx, s.pool, func(ptx pgx.Tx) error { return putSub(ctx, ptx, sub) }))
}

func (s *Store) DeleteSubscription(ctx context.Context, accountID, id int64) error {
	tag, err := s.pool.Exec(ctx, "DELETE FROM webhook_subscriptions WHERE id = $1 AND account_id = $2", id, accountID)
	if err != nil {
		return dbErr(fmt.Errorf("delete webhook subscription %d: %w", id, err))
	}
	if tag.RowsAffected() == 0 {
		return notFound("webhook subscription %d not found", id)
	}
	return nil
}

// ---- the write path

func (t *tx) WebhookTargets() ([]store.WebhookTarget, error) {
	rows, err := t.q.Query(t.ctx, "SELECT id, doc->'events' FROM webhook_subscriptions WHERE account_id = $1 AND enabled", t.id)
	if err != nil {
		return nil, fmt.Errorf("webhook targets: %w", err)
	}
	defer rows.Close()
	var out []store.WebhookTarget
	for rows.Next() {
		var tg store.WebhookTarget
		var evs []byte
		if err := rows.Scan(&tg.ID, &evs); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(evs, &tg.Events); err != nil {
			return nil, err
		}
		out = append(out, tg)
	}
	return out, rows.Err()
}

func (t *tx) AddWebhookEvent(e store.WebhookEvent, subscriptionIDs []int64) error {
	if !t.writable {
		return fmt.Errorf("pgstore: webhook event in a read-only transaction")
	}
	var id int64
	err := t.q.QueryRow(t.ctx, `INSERT INTO webhook_events (account_id, proposal_id, type, at, body)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, t.id, e.ProposalID, string(e.Type), e.At, e.Body).Scan(&id)
	if err != nil {
		return fmt.Errorf("record webhook event: %w", err)
	}
	_, err = t.q.Exec(t.ctx, `INSERT INTO webhook_deliveries (subscription_id, event_id, next_at)
		SELECT unnest($1::bigint[]), $2, $3`, subscriptionIDs, id, e.At)
	if err != nil {
		return fmt.Errorf("queue webhook deliveries: %w", err)
	}
	return nil
}

// ---- the queue

func (s *Store) ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]store.WebhookJob, error) {
	rows, err := s.pool.Query(ctx, `WITH c AS (
		UPDATE webhook_deliveries d SET lease_owner = $1, lease_until = $3
		FROM (SELECT d2.id FROM webhook_deliveries d2 JOIN webhook_subscriptions s ON s.id = d2.subscription_id
			WHERE d2.pending AND d2.next_at <= $2 AND (d2.lease_until IS NULL OR d2.lease_until <= $2) AND s.enabled
			ORDER BY d2.next_at, d2.id LIMIT $4 FOR UPDATE OF d2 SKIP LOCKED) due
		WHERE d.id = due.id
		RETURNING d.id, d.subscription_id, d.event_id, d.attempts)
		SELECT c.id, c.subscription_id, c.event_id, c.attempts, s.doc, e.type, e.body, e.at
		FROM c JOIN webhook_subscriptions s ON s.id = c.subscription_id JOIN webhook_events e ON e.id = c.event_id
		ORDER BY e.at, c.id`, owner, now, now.Add(lease), limit)
	if err != nil {
		return nil, dbErr(fmt.Errorf("claim webhook deliveries: %w", err))
	}
	defer rows.Close()
	var jobs []store.WebhookJob
	for rows.Next() {
		var j store.WebhookJob
		var doc []byte
		var typ string
		if err := rows.Scan(&j.DeliveryID, &j.SubscriptionID, &j.EventID, &j.Attempts, &doc, &typ, &j.Body, &j.CreatedAt); err != nil {
			return nil, err
		}
		var sub store.WebhookSubscription
		if err := json.Unmarshal(doc, &sub); err != nil {
			return nil, err
		}
		j.Type, j.AccountID, j.URL, j.Secret, j.FailingSince = app.WebhookEventType(typ), sub.AccountID, sub.URL, sub.Secret, sub.FailingSince
		jobs = append(jobs, j)
	}
	return jobs, dbErr(rows.Err())
}

func (s *Store) FinishDeliveries(ctx context.Context, owner string, outcomes []store.WebhookOutcome) error {
	return dbErr(pgx.BeginFunc(ctx, s.pool, func(ptx pgx.Tx) error {
		// The subscriptions are locked in ID order, so that replicas
		// finishing at once cannot deadlock on them.
		ids := make([]int64, 0, len(outcomes))
		for _, o := range outcomes {
			ids = append(ids, o.Job.SubscriptionID)
		}
		rows, err := ptx.Query(ctx, "SELECT doc FROM webhook_subscriptions WHERE id = ANY($1) ORDER BY id FOR UPDATE", ids)
		if err != nil {
			return err
		}
		subs := map[int64]*store.WebhookSubscription{}
		for rows.Next() {
			var doc []byte
			sub := &store.WebhookSubscription{}
			if err := rows.Scan(&doc); err != nil {
				rows.Close()
				return err
			}
			if err := json.Unmarshal(doc, sub); err != nil {
				rows.Close()
				return err
			}
			subs[sub.ID] = sub
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, o := range outcomes {
			sub := subs[o.Job.SubscriptionID]
			if sub == nil {
				continue // deleted meanwhile, with its queue
			}
			a := o.Attempt
			doc, err := json.Marshal(a)
			if err != nil {
				return err
			}
			if _, err := ptx.Exec(ctx, "INSERT INTO webhook_attempts (subscription_id, doc) VALUES ($1, $2)", sub.ID, doc); err != nil {
				return err
			}
			if _, err := ptx.Exec(ctx, `DELETE FROM webhook_attempts WHERE id IN (
				SELECT id FROM webhook_attempts WHERE subscription_id = $1 ORDER BY id LIMIT 100)
				AND (doc->>'at')::timestamptz < $2`, sub.ID, a.At.Add(-store.WebhookLogRetention)); err != nil {
				return err
			}
			sub.Record(o)
			next := o.NextAt
			if o.Done {
				next = a.At
			}
			if _, err := ptx.Exec(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, pending = $3, next_at = $4,
				lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2 AND pending`,
				o.Job.DeliveryID, owner, !o.Done, next); err != nil {
				return err
			}
		}
		var last time.Time
		for _, sub := range subs {
			if sub != nil {
				if err := putSub(ctx, ptx, *sub); err != nil {
					return err
				}
			}
		}
		for _, o := range outcomes {
			if o.Attempt.At.After(last) {
				last = o.Attempt.At
			}
		}
		return pruneQueue(ctx, ptx, last.Add(-store.WebhookLogRetention))
	}))
}

func (s *Store) DeliveryLog(ctx context.Context, accountID, subscriptionID int64, limit int) ([]store.WebhookAttempt, error) {
	if _, err := s.Subscription(ctx, accountID, subscriptionID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, "SELECT id, doc FROM webhook_attempts WHERE subscription_id = $1 ORDER BY id DESC LIMIT $2", subscriptionID, limit)
	if err != nil {
		return nil, dbErr(fmt.Errorf("webhook delivery log: %w", err))
	}
	defer rows.Close()
	out := []store.WebhookAttempt{}
	for rows.Next() {
		var id int64
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		var a store.WebhookAttempt
		if err := json.Unmarshal(doc, &a); err != nil {
			return nil, err
		}
		a.ID = id
		out = append(out, a)
	}
	return out, dbErr(rows.Err())
}

func (s *Store) Redeliver(ctx context.Context, accountID, subscriptionID, deliveryID int64, now time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE webhook_deliveries d SET pending = true, next_at = $4, attempts = 0,
		lease_owner = NULL, lease_until = NULL
		FROM webhook_subscriptions s
		WHERE d.id = $3 AND d.subscription_id = $2 AND s.id = d.subscription_id AND s.account_id = $1`,
		accountID, subscriptionID, deliveryID, now)
	if err != nil {
		return dbErr(fmt.Errorf("redeliver %d: %w", deliveryID, err))
	}
	if tag.RowsAffected() == 0 {
		return notFound("delivery %d not found", deliveryID)
	}
	return nil
}

// pruneQueue drops, oldest first and at most 100 of each at a time,
// the deliveries last moved before cutoff and the events before it that
// no delivery still names.
func pruneQueue(ctx context.Context, ptx pgx.Tx, cutoff time.Time) error {
	if _, err := ptx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE id IN (
		SELECT id FROM webhook_deliveries ORDER BY id LIMIT 100) AND next_at < $1`, cutoff); err != nil {
		return err
	}
	_, err := ptx.Exec(ctx, `DELETE FROM webhook_events e WHERE e.id IN (
		SELECT id FROM webhook_events ORDER BY id LIMIT 100) AND e.at < $1
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`, cutoff)
	return err
}
