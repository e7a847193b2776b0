package boltstore

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

func TestChangesFeed(t *testing.T) {
	f := newFixture(t)
	var ids []int64
	f.s.Update(ctx, f.a, func(tx store.Tx) error {
		for i := range 4 {
			p := newProposal(tx, fmt.Sprint("p", i), nil)
			ids = append(ids, p.ID)
			if err := tx.PutProposal(p); err != nil {
				return err
			}
		}
		return nil
	})
	// Feed: proposalA (1), ids... (2..5). Touch ids[1] again: it moves to the end.
	f.s.Update(ctx, f.a, func(tx store.Tx) error {
		p, _ := tx.Proposal(ids[1])
		p.Name = "again"
		return tx.PutProposal(p)
	})
	f.s.View(ctx, f.a, func(tx store.Tx) error {
		tests := []struct {
			cursor string
			want   []int64
			next   string
		}{
			{"", []int64{f.proposalA, ids[0], ids[2], ids[3], ids[1]}, "6"},
			{"0", []int64{f.proposalA, ids[0], ids[2], ids[3], ids[1]}, "6"},
			{"2", []int64{ids[2], ids[3], ids[1]}, "6"},
			{"3", []int64{ids[2], ids[3], ids[1]}, "6"}, // 3 was ids[1]'s old seq
			{"5", []int64{ids[1]}, "6"},
			{"6", []int64{}, "6"},
			{"99", []int64{}, "99"},
		}
		for _, tt := range tests {
			got, next, err := tx.Changes(tt.cursor)
			if err != nil || !slices.Equal(got, tt.want) || next != tt.next {
				t.Errorf("Changes(%q) = %v, %q, %v; want %v, %q", tt.cursor, got, next, err, tt.want, tt.next)
			}
		}
		for _, bad := range []string{"x", "-1", " 1", "1.5"} {
			if _, _, err := tx.Changes(bad); app.KindOf(err) != app.KindValidationFailed {
				t.Errorf("Changes(%q): %v", bad, err)
			}
		}
		return nil
	})
	// Account B's feed is its own.
	f.s.View(ctx, f.b, func(tx store.Tx) error {
		got, next, _ := tx.Changes("")
		if !slices.Equal(got, []int64{f.proposalB}) || next != "1" {
			t.Errorf("B's feed %v %q", got, next)
		}
		return nil
	})
}

func TestIdempotency(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	s, _ := openTest(t, WithClock(func() time.Time { return now }), WithIdempotencyTTL(24*time.Hour))
	acct, _ := s.Auth().CreateAccount(ctx, store.Account{Name: "a"})
	u, _ := s.Auth().CreateUser(ctx, store.UserRecord{User: app.User{Email: "a@x"}, AccountID: acct.ID})
	put := func(key string, at time.Time) {
		t.Helper()
		if err := s.Update(ctx, acct.ID, func(tx store.Tx) error {
			return tx.PutIdempotency(store.IdempotencyRecord{UserID: u.ID, Key: key, Status: 200, Body: []byte(key), CreatedAt: at})
		}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(userID int64, key string, since time.Time) (store.IdempotencyRecord, bool) {
		var r store.IdempotencyRecord
		var ok bool
		s.View(ctx, acct.ID, func(tx store.Tx) error {
			var err error
			r, ok, err = tx.Idempotency(userID, key, since)
			return err
		})
		return r, ok
	}
	day := now.Add(-24 * time.Hour)
	put("old", now.Add(-30*time.Hour))
	if _, ok := get(u.ID, "old", time.Time{}); !ok {
		t.Error("old record not kept before any prune")
	}
	if _, ok := get(u.ID, "old", day); ok {
		t.Error("expired record found")
	}
	put("recent", now.Add(-time.Hour))
	if r, ok := get(u.ID, "recent", day); !ok || string(r.Body) != "recent" || r.Status != 200 {
		t.Errorf("recent: %v %v", r, ok)
	}
	if _, ok := get(u.ID, "recent", now); ok {
		t.Error("a record older than since was found")
	}
	if _, ok := get(u.ID+1, "recent", day); ok {
		t.Error("another user's key was found")
	}
	// The next write pruned the old one.
	put("new", now)
	if _, ok := get(u.ID, "old", time.Time{}); ok {
		t.Error("old record not pruned")
	}
	if _, ok := get(u.ID, "recent", time.Time{}); !ok {
		t.Error("recent record pruned")
	}
	// A zero CreatedAt takes the store's clock.
	s.Update(ctx, acct.ID, func(tx store.Tx) error {
		return tx.PutIdempotency(store.IdempotencyRecord{UserID: u.ID, Key: "clock"})
	})
	if r, ok := get(u.ID, "clock", now); !ok || !r.CreatedAt.Equal(now) {
		t.Errorf("clock: %v %v", r.CreatedAt, ok)
	}
}

func TestAuth(t *testing.T) {
	s, _ := openTest(t)
	auth := s.Auth()
	acct, err := auth.CreateAccount(ctx, store.Account{Name: "Dealer", Currency: app.USD})
	if err != nil || acct.ID == 0 || acct.CreatedAt.IsZero() {
		t.Fatal(acct, err)
	}
	if _, err := auth.CreateAccount(ctx, store.Account{ID: acct.ID}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("duplicate account: %v", err)
	}
	acct.Name = "Renamed"
	if err := auth.UpdateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	if got, _ := auth.Account(ctx, acct.ID); got.Name != "Renamed" {
		t.Errorf("account %+v", got)
	}
	if err := auth.UpdateAccount(ctx, store.Account{ID: 424242}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update missing account: %v", err)
	}
	if as, _ := auth.Accounts(ctx); len(as) != 1 {
		t.Errorf("accounts %v", as)
	}

	t.Run("apps", func(t *testing.T) {
		if err := auth.CreateApp(ctx, store.App{ID: "app1", Secret: "s"}); err != nil {
			t.Fatal(err)
		}
		if err := auth.CreateApp(ctx, store.App{ID: "app1"}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate app: %v", err)
		}
		if a, err := auth.App(ctx, "app1"); err != nil || a.Secret != "s" {
			t.Errorf("app %v %v", a, err)
		}
		if _, err := auth.App(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing app: %v", err)
		}
	})

	t.Run("unique email", func(t *testing.T) {
		u, err := auth.CreateUser(ctx, store.UserRecord{User: app.User{Email: "Ann@Example.com", Role: app.RoleSales}, AccountID: acct.ID, PasswordHash: []byte("h")})
		if err != nil {
			t.Fatal(err)
		}
		for _, email := range []string{"Ann@Example.com", "ann@example.com", "ANN@EXAMPLE.COM", " ann@example.com "} {
			if _, err := auth.CreateUser(ctx, store.UserRecord{User: app.User{Email: email}, AccountID: acct.ID}); !errors.Is(err, store.ErrConflict) {
				t.Errorf("CreateUser(%q): %v", email, err)
			}
		}
		if got, err := auth.UserByEmail(ctx, "aNN@example.COM"); err != nil || got.ID != u.ID || string(got.PasswordHash) != "h" {
			t.Errorf("UserByEmail: %+v %v", got, err)
		}
		if _, err := auth.UserByEmail(ctx, "bob@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing email: %v", err)
		}
		if _, err := auth.CreateUser(ctx, store.UserRecord{User: app.User{Email: "x@y"}, AccountID: 987654}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("user of missing account: %v", err)
		}
		if us, _ := auth.UsersOfAccount(ctx, acct.ID); len(us) != 1 || us[0].ID != u.ID {
			t.Errorf("UsersOfAccount %v", us)
		}
		s.View(ctx, acct.ID, func(tx store.Tx) error {
			if us, _ := tx.Users(); len(us) != 1 || us[0].Email != "Ann@Example.com" || us[0].Role != app.RoleSales {
				t.Errorf("Users %v", us)
			}
			if got, ok := tx.User(u.ID); !ok || got.ID != u.ID {
				t.Errorf("User %v", got)
			}
			return nil
		})
	})

	t.Run("keys", func(t *testing.T) {
		u, _ := auth.CreateUser(ctx, store.UserRecord{User: app.User{Email: "keys@x"}, AccountID: acct.ID})
		other, _ := auth.CreateUser(ctx, store.UserRecord{User: app.User{Email: "other@x"}, AccountID: acct.ID})
		var hashes [][32]byte
		for i := range 3 {
			h := sha256.Sum256([]byte(fmt.Sprint("key", i)))
			hashes = append(hashes, h)
			if err := auth.PutKey(ctx, store.APIKey{Hash: h, UserID: u.ID, AppID: "app1"}); err != nil {
				t.Fatal(err)
			}
		}
		oh := sha256.Sum256([]byte("other"))
		auth.PutKey(ctx, store.APIKey{Hash: oh, UserID: other.ID})
		if err := auth.PutKey(ctx, store.APIKey{Hash: hashes[0], UserID: u.ID}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate key: %v", err)
		}
		if k, err := auth.KeyByHash(ctx, hashes[1]); err != nil || k.UserID != u.ID || k.AccountID != acct.ID || k.Revoked() {
			t.Errorf("KeyByHash %+v %v", k, err)
		}
		at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		if n, err := auth.RevokeKeys(ctx, u.ID, at); n != 3 || err != nil {
			t.Errorf("RevokeKeys = %d, %v", n, err)
		}
		if n, _ := auth.RevokeKeys(ctx, u.ID, at.Add(time.Hour)); n != 0 {
			t.Errorf("second revoke = %d", n)
		}
		for _, h := range hashes {
			if k, _ := auth.KeyByHash(ctx, h); !k.Revoked() || !k.RevokedAt.Equal(at) {
				t.Errorf("key not revoked at %v: %v", at, k.RevokedAt)
			}
		}
		if k, _ := auth.KeyByHash(ctx, oh); k.Revoked() {
			t.Error("another user's key was revoked")
		}
		if _, err := auth.KeyByHash(ctx, sha256.Sum256([]byte("none"))); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing key: %v", err)
		}
	})
}

func TestIDsAndNumbers(t *testing.T) {
	f := newFixture(t)
	seen := map[int64]bool{}
	numbers := map[int64][]int64{}
	for range 3 {
		for _, acct := range []int64{f.a, f.b} {
			f.s.Update(ctx, acct, func(tx store.Tx) error {
				for range 2 {
					id := tx.NextID()
					if seen[id] || id == 0 {
						t.Errorf("ID %d twice", id)
					}
					seen[id] = true
				}
				numbers[acct] = append(numbers[acct], tx.NextNumber())
				return nil
			})
		}
	}
	// The fixture took 1001 in each account.
	for _, acct := range []int64{f.a, f.b} {
		if !slices.Equal(numbers[acct], []int64{1002, 1003, 1004}) {
			t.Errorf("numbers of %d: %v", acct, numbers[acct])
		}
	}
	// IDs cannot be taken in a read-only transaction.
	err := f.s.View(ctx, f.a, func(tx store.Tx) error { tx.NextID(); return nil })
	if err == nil {
		t.Error("NextID in View succeeded")
	}
}

func TestLocationsAndContacts(t *testing.T) {
	f := newFixture(t)
	var l2, l3 int64
	err := f.s.Update(ctx, f.a, func(tx store.Tx) error {
		l2, l3 = tx.NextID(), tx.NextID()
		if err := tx.PutLocation(app.ContactLocation{Location: app.Location{ID: l2, Street: "2"}, ContactID: f.contactA}); err != nil {
			return err
		}
		if locs := tx.ContactLocations(f.contactA); len(locs) != 2 || !locs[0].IsPrimary || locs[1].IsPrimary {
			t.Errorf("after non-primary: %+v", locs)
		}
		if err := tx.PutLocation(app.ContactLocation{Location: app.Location{ID: l3, Street: "3"}, ContactID: f.contactA, IsPrimary: true}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.s.View(ctx, f.a, func(tx store.Tx) error {
		locs, err := tx.Locations(f.contactA)
		var primary []int64
		for _, l := range locs {
			if l.IsPrimary {
				primary = append(primary, l.ID)
			}
		}
		if err != nil || len(locs) != 3 || !slices.Equal(primary, []int64{l3}) {
			t.Errorf("locations %+v %v", locs, err)
		}
		if l, ok := tx.Location(l2); !ok || l.Street != "2" || l.ContactID != f.contactA {
			t.Errorf("Location %+v", l)
		}
		return nil
	})

	// Contacts answers with ContactQuery.Select's semantics.
	g := newGen(11)
	var all []app.Contact
	f.s.Update(ctx, f.a, func(tx store.Tx) error {
		c, _ := tx.Contact(f.contactA)
		all = append(all, c)
		for i := range 60 {
			c := g.contacts[i%len(g.contacts)]
			c.ID = tx.NextID()
			c.ContactType = app.ContactTypes[g.r.IntN(len(app.ContactTypes))]
			c.LastName += fmt.Sprint(g.r.IntN(5))
			all = append(all, c)
			if err := tx.PutContact(c); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	f.s.View(ctx, f.a, func(tx store.Tx) error {
		for i := range 100 {
			q := app.ContactQuery{SortBy: []string{"FirstName", "LastName", "CompanyName"}[i%3], Descending: i%2 == 0,
				PageNumber: 1 + g.r.IntN(3), PageSize: 1 + g.r.IntN(30)}
			q.SearchText = []string{"", "smith", "inc", "mail", "ann lake", "zz"}[g.r.IntN(6)]
			if g.r.IntN(2) == 0 {
				q.ContactTypes = []app.ContactType{app.ContactTypes[g.r.IntN(len(app.ContactTypes))]}
			}
			got, n, err := tx.Contacts(q)
			want, wn := q.Select(all)
			if err != nil || n != wn || mustJSON(got) != mustJSON(want) {
				t.Fatalf("Contacts(%+v) = %d %v, want %d", q, n, err, wn)
			}
		}
		return nil
	})
}

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
	g := newGen(5)
	model := g.putRandom(t, f.s, f.a, 50)
	f.s.Update(ctx, f.a, func(tx store.Tx) error {
		return tx.PutIdempotency(store.IdempotencyRecord{UserID: f.userA, Key: "k", Body: []byte("b")})
	})
	h := sha256.Sum256([]byte("k"))
	f.s.Auth().PutKey(ctx, store.APIKey{Hash: h, UserID: f.userA})
	snapshot := func(s *Store) string {
		var out string
		s.View(ctx, f.a, func(tx store.Tx) error {
			page, n, _ := tx.List(app.ListQuery{SortBy: app.SortNumber, PageNumber: 1, PageSize: 200})
			ids, next, _ := tx.Changes("")
			cs, _, _ := tx.Contacts(app.ContactQuery{PageNumber: 1, PageSize: 100})
			r, ok, _ := tx.Idempotency(f.userA, "k", time.Time{})
			us, _ := tx.Users()
			out = mustJSON([]any{page, n, ids, next, cs, tx.ContactLocations(f.contactA), string(r.Body), ok, us, tx.Account()})
			return nil
		})
		k, _ := s.Auth().KeyByHash(ctx, h)
		return out + mustJSON(k) + s.StoreID()
	}
	before := snapshot(f.s)
	path := f.s.db.Path()
	f.s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := snapshot(s); after != before {
		t.Errorf("reopen changed data:\n%s\n%s", before, after)
	}
	// Sequences continue where they were.
	s.Update(ctx, f.a, func(tx store.Tx) error {
		if n := tx.NextNumber(); n != FirstNumber+51 {
			t.Errorf("next number %d", n)
		}
		if id := tx.NextID(); model[id] != nil || id <= f.proposalB {
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
	g := newGen(9)
	g.putRandom(t, f.s, f.a, 200)
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			r := newGen(uint64(100 + w))
			for !stop.Load() {
				err := f.s.Update(ctx, f.a, func(tx store.Tx) error {
					ids, _ := tx.ProposalIDs()
					p, err := tx.Proposal(ids[r.r.IntN(len(ids))])
					if err != nil {
						return err
					}
					r.fill(p)
					if err := tx.PutProposal(p); err != nil {
						return err
					}
					np := newProposal(tx, "new", nil)
					return tx.PutProposal(np)
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	time.Sleep(20 * time.Millisecond)
	path := filepath.Join(t.TempDir(), "backup.db")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := f.s.Backup(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	out.Close()
	time.Sleep(20 * time.Millisecond)
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
	if b.StoreID() != f.s.StoreID() {
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
	b.View(ctx, f.a, func(tx store.Tx) error {
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
				checkList(t, tx, model, q)
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
	if _, err := f.s.Backup(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	id := f.s.StoreID()
	path := f.s.db.Path()
	// Not while the server holds the file.
	if err := Restore(bytes.NewReader(buf.Bytes()), path); !errors.Is(err, ErrInUse) {
		t.Errorf("restore over a live file: %v", err)
	}
	if err := Restore(bytes.NewReader([]byte("not a database")), filepath.Join(t.TempDir(), "x.db")); err == nil {
		t.Error("restored garbage")
	}
	f.s.Update(ctx, f.a, func(tx store.Tx) error { return tx.PutProposal(newProposal(tx, "after backup", nil)) })
	f.s.Close()
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
	s.View(ctx, f.a, func(tx store.Tx) error {
		if ids, _ := tx.ProposalIDs(); !slices.Equal(ids, []int64{f.proposalA}) {
			t.Errorf("restored proposals %v", ids)
		}
		return nil
	})
}
