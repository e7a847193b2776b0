package pgstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/lockout"
)

// SignInCounter keeps the lockout policy's failure counts in the
// database (table signin_counts), so that several replicas behave as one
// server: failures at one count at all. It implements lockout.Counter.
type SignInCounter struct {
	s      *Store
	policy lockout.Policy
}

var _ lockout.Counter = (*SignInCounter)(nil)

// SignInCounter returns the store's shared counter, forgetting by p.
func (s *Store) SignInCounter(p lockout.Policy) *SignInCounter {
	return &SignInCounter{s: s, policy: p}
}

// Load implements lockout.Counter.
func (c *SignInCounter) Load(ctx context.Context, k lockout.Keys) (lockout.State, error) {
	pair, addr, user, device := k.Scopes()
	scopes := [][]byte{[]byte(pair), []byte(addr), []byte(user)}
	var st lockout.State
	if device != "" {
		scopes = append(scopes, []byte(device))
		st.Device = &lockout.Counts{}
	}
	rows, err := c.s.pool.Query(ctx,
		"SELECT scope, failures, last_failure, last_success FROM signin_counts WHERE scope = ANY($1)", scopes)
	if err != nil {
		return lockout.State{}, fmt.Errorf("load sign-in counts: %w", dbErr(err))
	}
	defer rows.Close()
	for rows.Next() {
		var scope []byte
		var n lockout.Counts
		var failure, success *time.Time
		if err := rows.Scan(&scope, &n.Failures, &failure, &success); err != nil {
			return lockout.State{}, fmt.Errorf("load sign-in counts: %w", dbErr(err))
		}
		if failure != nil {
			n.LastFailure = *failure
		}
		if success != nil {
			n.LastSuccess = *success
		}
		switch string(scope) {
		case pair:
			st.Pair = n
		case addr:
			st.Addr = n
		case user:
			st.User = n
		case device:
			*st.Device = n
		}
	}
	if err := rows.Err(); err != nil {
		return lockout.State{}, fmt.Errorf("load sign-in counts: %w", dbErr(err))
	}
	return st, nil
}

// Failed implements lockout.Counter: one failure more in each counted
// scope, or
// the first of a new run when the earlier ones are forgotten. Each row is
// read and written under its lock, so failures at two replicas at once
// both count.
func (c *SignInCounter) Failed(ctx context.Context, k lockout.Keys, now time.Time) error {
	err := pgx.BeginFunc(ctx, c.s.pool, func(tx pgx.Tx) error {
		for _, scope := range k.Counted() {
			var n lockout.Counts
			var failure *time.Time
			err := tx.QueryRow(ctx, "SELECT failures, last_failure FROM signin_counts WHERE scope = $1 FOR UPDATE", []byte(scope)).
				Scan(&n.Failures, &failure)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			if failure != nil {
				n.LastFailure = *failure
			}
			failures := 1
			if c.policy.Live(n, now) {
				failures = n.Failures + 1
			}
			if _, err := tx.Exec(ctx, `INSERT INTO signin_counts (scope, failures, last_failure) VALUES ($1, $2, $3)
				ON CONFLICT (scope) DO UPDATE SET failures = $2, last_failure = $3`, []byte(scope), failures, now.UTC()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("count a failed sign-in: %w", dbErr(err))
	}
	if rand.IntN(100) == 0 { // now and then, forget what no longer counts
		c.prune(ctx, now)
	}
	return nil
}

// Succeeded implements lockout.Counter.
func (c *SignInCounter) Succeeded(ctx context.Context, k lockout.Keys, now time.Time) error {
	var scopes [][]byte
	for _, s := range k.Cleared() {
		scopes = append(scopes, []byte(s))
	}
	_, err := c.s.pool.Exec(ctx, `INSERT INTO signin_counts (scope, failures, last_failure, last_success)
		SELECT unnest($1::bytea[]), 0, NULL, $2
		ON CONFLICT (scope) DO UPDATE SET failures = 0, last_failure = NULL, last_success = $2`, scopes, now.UTC())
	if err != nil {
		return fmt.Errorf("record a sign-in: %w", dbErr(err))
	}
	return nil
}

// prune drops rows neither counting failures nor marking a known address.
func (c *SignInCounter) prune(ctx context.Context, now time.Time) {
	keep := max(c.policy.Forget, c.policy.KnownFor)
	_, _ = c.s.pool.Exec(ctx, "DELETE FROM signin_counts WHERE greatest(last_failure, last_success) < $1", now.Add(-keep).UTC())
}
