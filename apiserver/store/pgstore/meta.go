package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Locked runs fn while holding the session advisory lock key, so that
// one replica at a time runs it (the demo seeding).
func (s *Store) Locked(ctx context.Context, key int64, fn func() error) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return dbErr(fmt.Errorf("lock %d: %w", key, err))
	}
	defer conn.Release()
	// The holder may work for minutes (seeding 10,000 demo proposals):
	// waiting for it is not a stuck statement.
	if _, err := conn.Exec(ctx, "SET statement_timeout = 0"); err != nil {
		return dbErr(fmt.Errorf("lock %d: %w", key, err))
	}
	defer conn.Exec(context.WithoutCancel(ctx), "RESET statement_timeout")
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return dbErr(fmt.Errorf("lock %d: %w", key, err))
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key)
	return fn()
}

// Meta reads a server-wide setting; found is false when it is not set.
func (s *Store) Meta(ctx context.Context, key string) (value string, found bool, err error) {
	err = s.pool.QueryRow(ctx, "SELECT value FROM meta WHERE key = $1", key).Scan(&value)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, dbErr(fmt.Errorf("meta %s: %w", key, err))
	}
	return value, true, nil
}

// SetMeta stores a server-wide setting.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2", key, value)
	return dbErr(err)
}
