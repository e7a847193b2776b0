// Package pgstore is the PostgreSQL implementation of store.Store, for
// several server replicas on one database (pgx/v5 and its pool).
//
// Every write transaction of an account first locks the account's row
// (SELECT ... FOR NO KEY UPDATE), at READ COMMITTED: an account's writes
// run one at a time in commit order, whichever replica serves them. That
// one rule makes concurrent edits of a proposal serialize, makes an
// Idempotency-Key checked and recorded in the write's transaction hold
// across replicas, and keeps the changes feed gapless: the feed position
// is the account row's counter, bumped inside the write, so a reader that
// sees position n has seen every commit below it. Reads run at
// REPEATABLE READ, one snapshot per View. Nothing decoded is cached here:
// every read sees the database's current version.
package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/decodecache"
	"proposaldesk/apiserver/store/listindex"
	"proposaldesk/app"
)

var _ store.Store = (*Store)(nil)
var _ store.AuthStore = (*authStore)(nil)
var _ store.Tx = (*tx)(nil)

// Option configures Open.
type Option func(*config)

type config struct {
	maxConns         int32
	statementTimeout time.Duration
	now              func() time.Time
	idemTTL          time.Duration
	pruneMax         int
	tracer           pgx.QueryTracer // tests count round trips with it
}

// WithMaxConns caps the connection pool (default: pgxpool's, the larger
// of 4 and the number of CPUs).
func WithMaxConns(n int) Option { return func(c *config) { c.maxConns = int32(n) } }

// WithStatementTimeout makes the database cancel any statement running
// longer than d (default 10s; 0 keeps the server's setting).
func WithStatementTimeout(d time.Duration) Option {
	return func(c *config) { c.statementTimeout = d }
}

// WithClock sets the clock used for default timestamps and pruning.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithIdempotencyTTL sets how long idempotency records are kept (default
// 24h; pruned a few at a time as new ones are written).
func WithIdempotencyTTL(d time.Duration) Option { return func(c *config) { c.idemTTL = d } }

// Store is the PostgreSQL store.
type Store struct {
	pool    *pgxpool.Pool
	url     string
	cfg     config
	storeID string
	// catalog holds each account's catalog search index (catalog.go).
	catalog catalogIndexes
	// lists holds each account's list index by feed position
	// (listfollow.go).
	lists *listindex.Held[*listState]
	// rows holds decoded list rows beside their bytes: reused only for
	// the exact bytes the database returns, so never stale.
	rows    *decodecache.Cache[app.ListItem]
	rowJSON *decodecache.Cache[decodecache.RowJSON]
	// auth holds the decoded records every signed request reads, again
	// only for the exact bytes the database returns.
	auth decodecache.Auth
}

// Open connects to the database at url, migrates it to this server's
// schema and reads its store ID.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	cfg := config{statementTimeout: 10 * time.Second, now: time.Now, idemTTL: 24 * time.Hour, pruneMax: 64}
	for _, o := range opts {
		o(&cfg)
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	if cfg.maxConns > 0 {
		pc.MaxConns = cfg.maxConns
	}
	pc.ConnConfig.Tracer = cfg.tracer
	if cfg.statementTimeout > 0 {
		pc.ConnConfig.RuntimeParams["statement_timeout"] = fmt.Sprint(cfg.statementTimeout.Milliseconds())
		// A transaction left open by a stuck client must not hold an
		// account's lock for ever.
		pc.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = fmt.Sprint((6 * cfg.statementTimeout).Milliseconds())
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	s := &Store{pool: pool, url: url, cfg: cfg, lists: listindex.NewHeld[*listState](keepLists, listAccounts),
		rows: decodecache.New(16384, decodecache.CopyListItem), rowJSON: decodecache.New(16384, decodecache.Same[decodecache.RowJSON]), auth: decodecache.NewAuth()}
	if _, err := Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	if s.storeID, err = ensureStoreID(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// ensureStoreID reads the data set's ID, making one the first time.
func ensureStoreID(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	if _, err := pool.Exec(ctx, "INSERT INTO meta (key, value) VALUES ('storeId', $1) ON CONFLICT (key) DO NOTHING", hex.EncodeToString(b[:])); err != nil {
		return "", fmt.Errorf("store ID: %w", err)
	}
	var id string
	if err := pool.QueryRow(ctx, "SELECT value FROM meta WHERE key = 'storeId'").Scan(&id); err != nil {
		return "", fmt.Errorf("store ID: %w", err)
	}
	return id, nil
}

// StoreID names this data set.
func (s *Store) StoreID() string { return s.storeID }

// Close closes the pool's connections.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Ping reports whether the database answers (readiness).
func (s *Store) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// Pool is the connection pool, for tools that copy data in bulk.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Auth returns the account-independent part of the store.
func (s *Store) Auth() store.AuthStore { return &authStore{s} }

// View runs fn in a read-only transaction over one account, on one
// snapshot. It begins lazily (lazytx.go): fn may run twice.
func (s *Store) View(ctx context.Context, accountID int64, fn func(store.Tx) error) error {
	err := s.run(ctx, accountID, false, true, fn)
	if errors.Is(err, errSnapshotMoved) {
		err = s.run(ctx, accountID, false, false, fn)
	}
	return err
}

// Update runs fn in one read-write transaction over one account, after
// every earlier write of the account has committed. If fn returns an
// error nothing it wrote is kept.
func (s *Store) Update(ctx context.Context, accountID int64, fn func(store.Tx) error) error {
	return s.run(ctx, accountID, true, false, fn)
}

// Transactions and how each reads its account row: a write locks it (the
// account's writes serialize on it, and feed positions commit in order).
const (
	beginRead    = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
	beginWrite   = "BEGIN ISOLATION LEVEL READ COMMITTED"
	accountRead  = "SELECT record, feed_seq FROM accounts WHERE id = $1"
	accountWrite = "SELECT record, feed_seq FROM accounts WHERE id = $1 FOR NO KEY UPDATE"
)

// run runs fn in a transaction on one connection. The BEGIN and the
// account's row go in one round trip (pgx's BeginTxFunc spends one on
// BEGIN alone: a fifth of a signed GET's round trips). A lazy read starts
// from the account row its request's credentials came with, or reads it
// alone, and begins only if fn needs more than the replica's list index
// (lazytx.go); such a read takes a connection from the pool only then.
func (s *Store) run(ctx context.Context, accountID int64, writable, lazy bool, fn func(store.Tx) error) error {
	t := &tx{s: s, ctx: ctx, id: accountID, writable: writable}
	l := &lazyTx{t: t, pool: s.pool, begun: !lazy}
	t.q = l
	// A connection still in a transaction (a failed ROLLBACK) is closed
	// by Release rather than reused.
	defer l.release()
	ended := false
	defer func() {
		if !ended && l.begun && l.conn != nil { // an error or a panic: keep nothing, keep the connection
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			l.conn.Exec(rctx, "ROLLBACK")
			cancel()
		}
	}()
	// Taken even by a write, so that a View after it reads anew.
	read, haveRead := takeAccountRead(ctx, accountID)
	if lazy && haveRead {
		t.account, t.feedSeq = read.account, read.feedSeq
	} else {
		conn, err := l.connection(ctx)
		if err != nil {
			return err
		}
		if err := t.readAccount(conn, lazy); err != nil {
			return err
		}
	}
	if err := fn(t); err != nil {
		if errors.Is(t.err, errSnapshotMoved) {
			return t.err // however fn reported it: View runs fn again
		}
		return dbErr(err)
	}
	if t.err != nil {
		return dbErr(t.err)
	}
	ended = true
	if !l.begun {
		return nil
	}
	tag, err := l.conn.Exec(ctx, "COMMIT")
	if err == nil && tag.String() == "ROLLBACK" {
		// A statement failed and fn went on: PostgreSQL rolled back.
		err = pgx.ErrTxCommitRollback
	}
	return dbErr(err)
}

// readAccount reads the account's row and feed position, after the BEGIN
// in the same round trip unless lazy.
func (t *tx) readAccount(conn *pgxpool.Conn, lazy bool) error {
	b := &pgx.Batch{}
	switch {
	case t.writable:
		b.Queue(beginWrite)
		b.Queue(accountWrite, t.id)
	case !lazy:
		b.Queue(beginRead)
		b.Queue(accountRead, t.id)
	}
	var raw []byte
	var err error
	if lazy {
		err = conn.QueryRow(t.ctx, accountRead, t.id).Scan(&raw, &t.feedSeq)
	} else {
		res := conn.SendBatch(t.ctx, b)
		if _, err = res.Exec(); err == nil {
			err = res.QueryRow().Scan(&raw, &t.feedSeq)
		}
		if cerr := res.Close(); err == nil {
			err = cerr
		}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound("account %d not found", t.id)
	}
	if err != nil {
		return dbErr(fmt.Errorf("account %d: %w", t.id, err))
	}
	if t.account, err = t.s.auth.Accounts.Decode(strconv.FormatInt(t.id, 10), raw); err != nil {
		return fmt.Errorf("account %d: %w", t.id, err)
	}
	return nil
}

// notFound is an *app.Error of kind NotFound, as store.ErrNotFound is.
func notFound(format string, args ...any) error {
	return app.Errorf(app.KindNotFound, format, args...)
}

// isUnique reports whether err is a unique violation, and of which
// constraint.
func isUnique(err error) (string, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return pe.ConstraintName, true
	}
	return "", false
}
