package pgstore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// ErrSchemaTooNew is returned when the database was migrated by a newer
// server than this one.
var ErrSchemaTooNew = errors.New("database schema is newer than this server knows")

// migrationLock is the pg_advisory_lock key every server takes while it
// migrates, so replicas starting together apply each migration once.
const migrationLock = 0x70645f6d69677261 // "pd_migra"

type migration struct {
	version int
	name    string
	sql     string
}

// migrations reads the embedded files NNN_name.sql in version order.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration file %s: name must start with its version", e.Name())
		}
		data, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, e.Name(), string(data)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	// Versions increase; a gap is a number given to a change made in
	// parallel, still to be merged.
	for i, m := range ms {
		if m.version < 1 || i > 0 && m.version == ms[i-1].version {
			return nil, fmt.Errorf("migration %s: version %d is not after the one before", m.name, m.version)
		}
	}
	return ms, nil
}

// SchemaVersion is the schema this code writes.
func SchemaVersion() int {
	ms, _ := migrations()
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// Migrate brings the database to this server's schema: each migration not
// yet recorded in schema_migrations runs in its own transaction, all under
// an advisory lock. It returns how many it applied.
func Migrate(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	ms, err := migrations()
	if err != nil {
		return 0, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrationLock)); err != nil {
		return 0, fmt.Errorf("migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(migrationLock))
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	// Each migration not recorded runs, in order: numbers given to
	// changes made in parallel may arrive after a later one ran.
	var current int
	var done []int32
	if err := conn.QueryRow(ctx, "SELECT coalesce(max(version), 0), coalesce(array_agg(version), '{}') FROM schema_migrations").Scan(&current, &done); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	if last := ms[len(ms)-1].version; current > last {
		return 0, fmt.Errorf("%w: database has version %d, this server knows up to %d", ErrSchemaTooNew, current, last)
	}
	applied := 0
	for _, m := range ms {
		if slices.Contains(done, int32(m.version)) {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migrate to v%d (%s): %w", m.version, m.name, err)
		}
		applied++
	}
	return applied, nil
}
