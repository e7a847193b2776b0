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

// What sending a proposal keeps (store.ClientTx), in the tables of
// migration 006. Every statement names the account, like the rest of a
// tx, so another account's proposal has no snapshots or events here.

var _ store.ClientTx = (*tx)(nil)
var _ store.ClientExpiries = (*Store)(nil)

func (t *tx) PutClientSnapshot(proposalID int64, hash string, doc []byte) error {
	_, err := t.q.Exec(t.ctx, `INSERT INTO client_snapshots (proposal_id, hash, account_id, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (proposal_id, hash) DO NOTHING`, proposalID, hash, t.id, doc)
	if err != nil {
		return fmt.Errorf("put snapshot of proposal %d: %w", proposalID, err)
	}
	return nil
}

func (t *tx) ClientSnapshot(proposalID int64, hash string) ([]byte, error) {
	var doc []byte
	err := t.q.QueryRow(t.ctx, `SELECT doc FROM client_snapshots WHERE proposal_id = $1 AND hash = $2 AND account_id = $3`,
		proposalID, hash, t.id).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot of proposal %d: %w", proposalID, err)
	}
	return doc, nil
}

func (t *tx) AppendClientEvent(proposalID int64, e app.Event) (app.Event, error) {
	var prev *app.Event
	var raw []byte
	err := t.q.QueryRow(t.ctx, `SELECT doc FROM client_events WHERE proposal_id = $1 AND account_id = $2 ORDER BY id DESC LIMIT 1`,
		proposalID, t.id).Scan(&raw)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return app.Event{}, fmt.Errorf("last event of proposal %d: %w", proposalID, err)
	default:
		prev = new(app.Event)
		if err := json.Unmarshal(raw, prev); err != nil {
			return app.Event{}, fmt.Errorf("last event of proposal %d: %w", proposalID, err)
		}
	}
	e, err = app.ChainEvent(proposalID, prev, e)
	if err != nil {
		return app.Event{}, err
	}
	doc, err := json.Marshal(e)
	if err != nil {
		return app.Event{}, fmt.Errorf("encode event: %w", err)
	}
	if _, err := t.q.Exec(t.ctx, `INSERT INTO client_events (proposal_id, id, account_id, doc) VALUES ($1, $2, $3, $4)`,
		proposalID, e.ID, t.id, doc); err != nil {
		return app.Event{}, fmt.Errorf("append event of proposal %d: %w", proposalID, err)
	}
	return e, nil
}

func (t *tx) ClientEvents(proposalID int64) ([]app.Event, error) {
	rows, err := t.q.Query(t.ctx, `SELECT doc FROM client_events WHERE proposal_id = $1 AND account_id = $2 ORDER BY id`, proposalID, t.id)
	if err != nil {
		return nil, fmt.Errorf("events of proposal %d: %w", proposalID, err)
	}
	defer rows.Close()
	out := []app.Event{}
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		var e app.Event
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("event of proposal %d: %w", proposalID, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (t *tx) SetClientExpiry(proposalID int64, at time.Time) error {
	var err error
	if at.IsZero() {
		_, err = t.q.Exec(t.ctx, `DELETE FROM client_expiries WHERE proposal_id = $1 AND account_id = $2`, proposalID, t.id)
	} else {
		_, err = t.q.Exec(t.ctx, `INSERT INTO client_expiries (proposal_id, account_id, expires_at) VALUES ($1, $2, $3)
			ON CONFLICT (proposal_id) DO UPDATE SET expires_at = excluded.expires_at WHERE client_expiries.account_id = excluded.account_id`,
			proposalID, t.id, at.UTC())
	}
	if err != nil {
		return fmt.Errorf("expiry of proposal %d: %w", proposalID, err)
	}
	return nil
}

func (s *Store) DueClientExpiries(ctx context.Context, now time.Time, limit int) ([]store.ExpiryRef, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := s.pool.Query(ctx, `SELECT account_id, proposal_id, expires_at FROM client_expiries
		WHERE expires_at <= $1 ORDER BY expires_at, proposal_id LIMIT $2`, now.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("due expiries: %w", err)
	}
	defer rows.Close()
	var out []store.ExpiryRef
	for rows.Next() {
		var r store.ExpiryRef
		if err := rows.Scan(&r.AccountID, &r.ProposalID, &r.At); err != nil {
			return nil, err
		}
		r.At = r.At.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
