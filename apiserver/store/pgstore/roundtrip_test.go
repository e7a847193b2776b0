package pgstore

import (
	"context"
	"crypto/sha256"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// roundTrips counts the statements and batches sent, each one round trip.
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// signingKey makes app appID and a key of the fixture's user in account
// A, and returns the key's hash.
func signingKey(t *testing.T, f *storetest.Fixture, appID string) [32]byte {
	t.Helper()
	auth := f.S.Auth()
	if err := auth.CreateApp(ctx, store.App{ID: appID, Secret: "s"}); err != nil {
		t.Fatal(err)
	}
	hash := sha256.Sum256([]byte(appID + "-key"))
	if err := auth.PutKey(ctx, store.APIKey{Hash: hash, UserID: f.UserA, AppID: appID}); err != nil {
		t.Fatal(err)
	}
	return hash
}

// backendWith is the suite's backend with opts on every store it opens.
func backendWith(opts ...Option) storetest.Backend {
	be := backend
	be.Open = func(t testing.TB, _ storetest.Options) store.Store {
		s, _ := openTest(t, opts...)
		return s
	}
	return be
}

// A signed list page or cached detail read costs the credentials' one
// round trip when the replica's list index is current: the View starts
// from the account row read with the key and needs no transaction. A
// second View of the request reads the row itself, and a View that needs
// the database begins in the round trip of its first statement.
func TestSignedReadRoundTrips(t *testing.T) {
	var rt roundTrips
	f := storetest.NewFixture(t, backendWith(func(c *config) { c.tracer = &rt }))
	auth := f.S.Auth()
	hash := signingKey(t, f, "rt-app")
	list := func(tx store.Tx) error { _, _, err := tx.ListJSON(app.DefaultListQuery()); return err }
	stamp := func(tx store.Tx) error { _, err := tx.ProposalVersion(f.ProposalA); return err }
	read := func(tx store.Tx) error { _, err := tx.Proposal(f.ProposalA); return err }
	if err := f.S.View(ctx, f.A, list); err != nil { // loads the index
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		views []func(store.Tx) error
		want  int64
	}{
		{"list", []func(store.Tx) error{list}, 1},
		{"stamp", []func(store.Tx) error{stamp}, 1},
		{"stamp then document", []func(store.Tx) error{func(tx store.Tx) error {
			if err := stamp(tx); err != nil {
				return err
			}
			return read(tx) // BEGIN, position check and the document at once, then COMMIT
		}}, 3},
		{"two views", []func(store.Tx) error{list, list}, 2},
	} {
		rt.n.Store(0)
		cr, err := auth.Credentials(ctx, "rt-app", &hash)
		if err != nil || !cr.AccountFound || cr.Read == nil {
			t.Fatalf("%s: credentials %+v, %v", tc.name, cr, err)
		}
		rctx := store.WithAccountRead(ctx, cr.Read)
		for _, v := range tc.views {
			if err := f.S.View(rctx, f.A, v); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		if n := rt.n.Load(); n != tc.want {
			t.Errorf("%s: %d round trips, want %d", tc.name, n, tc.want)
		}
	}
}

// An edit of a proposal holds its account's row lock for four round
// trips: the lock with BEGIN, the proposal, the new row with its feed
// position, COMMIT. The version and the owner it read need no second
// look.
func TestEditRoundTrips(t *testing.T) {
	var rt roundTrips
	f := storetest.NewFixture(t, backendWith(func(c *config) { c.tracer = &rt }))
	rt.n.Store(0)
	var version int64
	err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
		p, err := tx.Proposal(f.ProposalA)
		if err != nil {
			return err
		}
		old := p.Version
		p.Name = "Edited in four round trips"
		if err := tx.PutProposal(p); err != nil {
			return err
		}
		if p.Version <= old {
			t.Errorf("version %d after an edit of version %d", p.Version, old)
		}
		version = p.Version
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := rt.n.Load(); n != 4 {
		t.Errorf("%d round trips, want 4", n)
	}
	err = f.S.View(ctx, f.A, func(tx store.Tx) error {
		p, err := tx.Proposal(f.ProposalA)
		if err == nil && (p.Name != "Edited in four round trips" || p.Version != version) {
			t.Errorf("stored %q version %d, want the edit at version %d", p.Name, p.Version, version)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A list page answered from the index with the credentials' account row
// takes no connection from the pool: with the only connection held
// elsewhere it is still answered at once.
func TestIndexedReadTakesNoConnection(t *testing.T) {
	f := storetest.NewFixture(t, backendWith(WithMaxConns(1)))
	s := f.S.(*Store)
	auth := s.Auth()
	hash := signingKey(t, f, "pool-app")
	list := func(ctx context.Context) error {
		return s.View(ctx, f.A, func(tx store.Tx) error { _, _, err := tx.ListJSON(app.DefaultListQuery()); return err })
	}
	if err := list(ctx); err != nil { // loads the index
		t.Fatal(err)
	}
	cr, err := auth.Credentials(ctx, "pool-app", &hash)
	if err != nil || cr.Read == nil {
		t.Fatalf("credentials: %+v, %v", cr, err)
	}
	held, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	wctx, cancel := context.WithTimeout(store.WithAccountRead(ctx, cr.Read), 2*time.Second)
	defer cancel()
	if err := list(wctx); err != nil {
		t.Errorf("list with the pool's only connection held: %v", err)
	}
}
