package boltstore

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

func TestSchemaVersion(t *testing.T) {
	s, path := openTest(t)
	id := s.StoreID()
	if len(id) != 32 {
		t.Errorf("store ID %q", id)
	}
	s.Close()
	// Reopening keeps the ID and the version.
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.StoreID() != id {
		t.Errorf("store ID changed on reopen")
	}
	s.Close()
	// A newer schema than this code knows is refused, and left alone.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(btx *bolt.Tx) error { return btx.Bucket(bMeta).Put(kSchema, u64(SchemaVersion()+1)) })
	db.Close()
	if _, err := Open(path); !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a newer schema: %v", err)
	}
	db, _ = bolt.Open(path, 0o600, nil)
	db.View(func(btx *bolt.Tx) error {
		if v := btx.Bucket(bMeta).Get(kSchema); !bytes.Equal(v, u64(SchemaVersion()+1)) {
			t.Errorf("schema version rewritten: %x", v)
		}
		return nil
	})
	db.Close()
	// Two different stores have different IDs.
	s2, _ := openTest(t)
	if s2.StoreID() == id {
		t.Error("two stores share an ID")
	}
}

func TestInUse(t *testing.T) {
	_, path := openTest(t)
	start := time.Now()
	_, err := Open(path, WithTimeout(100*time.Millisecond))
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("second Open: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("second Open took %v", d)
	}
	t.Log(err)
}

func TestReopenKeepsEverything(t *testing.T) {
	f := newFixture(t)
	g := storetest.NewGen(5)
	model := g.PutRandom(t, f.S, f.A, 50)
	f.S.Update(ctx, f.A, func(tx store.Tx) error {
		return tx.PutIdempotency(store.IdempotencyRecord{UserID: f.UserA, Key: "k", Body: []byte("b")})
	})
	h := sha256.Sum256([]byte("k"))
	f.S.Auth().PutKey(ctx, store.APIKey{Hash: h, UserID: f.UserA})
	snapshot := func(s *Store) string {
		var out string
		s.View(ctx, f.A, func(tx store.Tx) error {
			page, n, _ := tx.List(app.ListQuery{SortBy: app.SortNumber, PageNumber: 1, PageSize: 200})
			ids, next, _ := tx.Changes("")
			cs, _, _ := tx.Contacts(app.ContactQuery{PageNumber: 1, PageSize: 100})
			r, ok, _ := tx.Idempotency(f.UserA, "k", time.Time{})
			us, _ := tx.Users()
			locs, _ := tx.ContactLocations(f.ContactA)
			out = storetest.MustJSON([]any{page, n, ids, next, cs, locs, string(r.Body), ok, us, tx.Account()})
			return nil
		})
		k, _ := s.Auth().KeyByHash(ctx, h)
		return out + storetest.MustJSON(k) + s.StoreID()
	}
	before := snapshot(f.S.(*Store))
	path := f.S.(*Store).db.Path()
	f.S.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := snapshot(s); after != before {
		t.Errorf("reopen changed data:\n%s\n%s", before, after)
	}
	// Sequences continue where they were.
	s.Update(ctx, f.A, func(tx store.Tx) error {
		if n := tx.NextNumber(); n != FirstNumber+51 {
			t.Errorf("next number %d", n)
		}
		if id := tx.NextID(); model[id] != nil || id <= f.ProposalB {
			t.Errorf("next ID %d reused", id)
		}
		return nil
	})
}

// TestBackupUnderLoad copies the file while writers commit, then opens
// the copy and checks it is a consistent state: every indexed proposal
// is present and agrees with its list row and the changes feed.
func TestBackupUnderLoad(t *testing.T) {
	f := newFixture(t)
	g := storetest.NewGen(9)
	g.PutRandom(t, f.S, f.A, 200)
	var stop atomic.Bool
	var commits atomic.Int64
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			r := storetest.NewGen(uint64(100 + w))
			for !stop.Load() {
				err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
					ids, _ := tx.ProposalIDs()
					p, err := tx.Proposal(ids[r.R.IntN(len(ids))])
					if err != nil {
						return err
					}
					r.Fill(p)
					if err := tx.PutProposal(p); err != nil {
						return err
					}
					np := storetest.NewProposal(tx, "new", nil)
					return tx.PutProposal(np)
				})
				if err != nil {
					t.Error(err)
					return
				}
				commits.Add(1)
			}
		})
	}
	// The copy starts while the writers are committing, and they go on
	// committing while it is written and after.
	waitCommits := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); commits.Load() < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				stop.Store(true)
				wg.Wait()
				t.Fatalf("writers committed %d times in 10 s, waiting for %d", commits.Load(), n)
			}
		}
	}
	waitCommits(4)
	path := filepath.Join(t.TempDir(), "backup.db")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := f.S.Backup(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	out.Close()
	waitCommits(commits.Load() + 4)
	stop.Store(true)
	wg.Wait()
	if fi, _ := os.Stat(path); fi.Size() != n {
		t.Errorf("backup wrote %d bytes, file has %d", n, fi.Size())
	}

	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.StoreID() != f.S.StoreID() {
		t.Error("backup has another store ID") // a restore tool assigns a new one
	}
	if err := b.db.View(func(btx *bolt.Tx) error {
		for err := range btx.Check() {
			return err
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.View(ctx, f.A, func(tx store.Tx) error {
		ids, _ := tx.ProposalIDs()
		model := map[int64]*app.Proposal{}
		for _, id := range ids {
			p, err := tx.Proposal(id)
			if err != nil {
				t.Fatal(err)
			}
			model[id] = p
		}
		q := app.ListQuery{SortBy: app.SortNumber, PageNumber: 1, PageSize: 200}
		for _, archived := range []bool{false, true} {
			q.Archived = archived
			for q.PageNumber = 1; q.PageNumber < 3+len(ids)/200; q.PageNumber++ {
				storetest.CheckList(t, tx, model, q)
			}
		}
		changed, _, _ := tx.Changes("")
		slices.Sort(changed)
		if !slices.Equal(changed, ids) {
			t.Errorf("changes feed has %d proposals, store %d", len(changed), len(ids))
		}
		t.Logf("backup: %d bytes, %d proposals (started with 201)", n, len(ids))
		return nil
	})
}

func TestRestore(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	if _, err := f.S.Backup(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	id := f.S.StoreID()
	path := f.S.(*Store).db.Path()
	// Not while the server holds the file.
	if err := Restore(bytes.NewReader(buf.Bytes()), path); !errors.Is(err, ErrInUse) {
		t.Errorf("restore over a live file: %v", err)
	}
	if err := Restore(bytes.NewReader([]byte("not a database")), filepath.Join(t.TempDir(), "x.db")); err == nil {
		t.Error("restored garbage")
	}
	f.S.Update(ctx, f.A, func(tx store.Tx) error { return tx.PutProposal(storetest.NewProposal(tx, "after backup", nil)) })
	f.S.Close()
	if err := Restore(bytes.NewReader(buf.Bytes()), path); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.StoreID() == id || s.StoreID() == "" {
		t.Error("restore kept the store ID")
	}
	s.View(ctx, f.A, func(tx store.Tx) error {
		if ids, _ := tx.ProposalIDs(); !slices.Equal(ids, []int64{f.ProposalA}) {
			t.Errorf("restored proposals %v", ids)
		}
		return nil
	})
}
