package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"proposaldesk/apiserver/store"
)

// A read-only View first reads only its account's row, outside any
// transaction: a list page or a detail's version stamp is answered by
// the replica's list index at the feed position that row names
// (listfollow.go), and then the View needs no BEGIN and no COMMIT, two of
// a list request's four round trips. When fn needs the database for
// more, the transaction begins then. If fn has read nothing from the
// index yet (the index had to be caught up from the database, say), the
// transaction simply takes its snapshot's position. Otherwise the BEGIN
// checks that the account's feed position has not moved: a snapshot at
// the same position holds the same proposals, so what fn read before and
// after is one consistent view (other tables are read only after the
// BEGIN). If the position has moved, the statement fails with
// errSnapshotMoved and View runs fn again in a transaction begun at once.

// credentialsRead is the account row as Credentials read it, in the same
// statement as the key: a lazy View of the same request starts from it,
// so a list page or a cached detail costs that one round trip.
type credentialsRead struct {
	account store.Account
	feedSeq int64
	taken   atomic.Bool
}

func (r *credentialsRead) ReadAccountID() int64 { return r.account.ID }

// takeAccountRead returns the account row ctx carries for accountID, once:
// a later transaction of the request (after a write, say) reads its own.
func takeAccountRead(ctx context.Context, accountID int64) (*credentialsRead, bool) {
	r, ok := store.AccountReadFrom(ctx).(*credentialsRead)
	if !ok || r.account.ID != accountID || !r.taken.CompareAndSwap(false, true) {
		return nil, false
	}
	return r, true
}

// errSnapshotMoved: a proposal was written between a lazy View's first
// read and its BEGIN.
var errSnapshotMoved = errors.New("pgstore: the account's proposals changed during a read; reading again")

// lazyTx is a transaction's connection, taken from the pool and begun on
// its first statement.
type lazyTx struct {
	t     *tx
	pool  *pgxpool.Pool
	conn  *pgxpool.Conn // nil until needed
	begun bool
}

// connection is the transaction's connection, taken from the pool the
// first time.
func (l *lazyTx) connection(ctx context.Context) (*pgxpool.Conn, error) {
	if l.conn == nil {
		c, err := l.pool.Acquire(ctx)
		if err != nil {
			return nil, dbErr(err)
		}
		l.conn = c
	}
	return l.conn, nil
}

// release gives the connection back to the pool, if one was taken.
func (l *lazyTx) release() {
	if l.conn != nil {
		l.conn.Release()
	}
}

// beginBatch is a batch that begins the transaction and reads the feed
// position, with stmt after them when it is not empty.
func (l *lazyTx) beginBatch(sql string, args ...any) *pgx.Batch {
	b := &pgx.Batch{}
	b.Queue(beginRead)
	b.Queue("SELECT feed_seq FROM accounts WHERE id = $1", l.t.id)
	if sql != "" {
		b.Queue(sql, args...)
	}
	return b
}

// checkBegin reads the results of beginBatch's first two statements.
func (l *lazyTx) checkBegin(res pgx.BatchResults) error {
	l.begun = true // even if it failed: run rolls back
	var seq int64
	_, err := res.Exec()
	if err == nil {
		err = res.QueryRow().Scan(&seq)
	}
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	switch {
	case seq == l.t.feedSeq:
	case !l.t.indexServed:
		// Nothing was read at the old position: take the new one.
		l.t.feedSeq = seq
	default:
		l.t.fail(errSnapshotMoved)
		return errSnapshotMoved
	}
	return nil
}

// begin begins the transaction unless it has begun.
func (l *lazyTx) begin(ctx context.Context) error {
	if l.begun {
		return nil
	}
	conn, err := l.connection(ctx)
	if err != nil {
		return err
	}
	res := conn.SendBatch(ctx, l.beginBatch(""))
	err = l.checkBegin(res)
	if cerr := res.Close(); err == nil {
		err = cerr
	}
	return err
}

func (l *lazyTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := l.begin(ctx); err != nil {
		return pgconn.CommandTag{}, err
	}
	return l.conn.Exec(ctx, sql, args...)
}

func (l *lazyTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := l.begin(ctx); err != nil {
		return errRows{err: err}, err
	}
	return l.conn.Query(ctx, sql, args...)
}

func (l *lazyTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if err := l.begin(ctx); err != nil {
		return errBatch{err: err}
	}
	return l.conn.SendBatch(ctx, b)
}

// QueryRow begins in the same round trip as its statement: a detail GET
// whose rendering is not cached reads the document this way.
func (l *lazyTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if l.begun {
		return l.conn.QueryRow(ctx, sql, args...)
	}
	conn, err := l.connection(ctx)
	if err != nil {
		return errRow{err}
	}
	res := conn.SendBatch(ctx, l.beginBatch(sql, args...))
	if err := l.checkBegin(res); err != nil {
		res.Close()
		return errRow{err}
	}
	return batchRow{res}
}

// batchRow is the last result of a batch, which it closes.
type batchRow struct{ res pgx.BatchResults }

func (r batchRow) Scan(dest ...any) error {
	err := r.res.QueryRow().Scan(dest...)
	if cerr := r.res.Close(); err == nil {
		err = cerr
	}
	return err
}

// errRow, errRows and errBatch fail with err, as pgx's own do when their
// statement cannot be sent. The last two embed their interface because
// pgx may add methods to it (none of which this store calls).
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type errRows struct {
	pgx.Rows
	err error
}

func (r errRows) Close()                                       {}
func (r errRows) Err() error                                   { return r.err }
func (r errRows) CommandTag() pgconn.CommandTag                { return pgconn.CommandTag{} }
func (r errRows) FieldDescriptions() []pgconn.FieldDescription { return nil }
func (r errRows) Next() bool                                   { return false }
func (r errRows) Scan(...any) error                            { return r.err }
func (r errRows) Values() ([]any, error)                       { return nil, r.err }
func (r errRows) RawValues() [][]byte                          { return nil }
func (r errRows) Conn() *pgx.Conn                              { return nil }

type errBatch struct {
	pgx.BatchResults
	err error
}

func (b errBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, b.err }
func (b errBatch) Query() (pgx.Rows, error)         { return errRows{err: b.err}, b.err }
func (b errBatch) QueryRow() pgx.Row                { return errRow{b.err} }
func (b errBatch) Close() error                     { return b.err }
