package storetest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

func testChangesFeed(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	var ids []int64
	f.S.Update(ctx, f.A, func(tx store.Tx) error {
		for i := range 4 {
			p := NewProposal(tx, fmt.Sprint("p", i), nil)
			ids = append(ids, p.ID)
			if err := tx.PutProposal(p); err != nil {
				return err
			}
		}
		return nil
	})
	// Feed: proposalA (1), ids... (2..5). Touch ids[1] again: it moves to the end.
	f.S.Update(ctx, f.A, func(tx store.Tx) error {
		p, _ := tx.Proposal(ids[1])
		p.Name = "again"
		return tx.PutProposal(p)
	})
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		tests := []struct {
			cursor string
			want   []int64
			next   string
		}{
			{"", []int64{f.ProposalA, ids[0], ids[2], ids[3], ids[1]}, "6"},
			{"0", []int64{f.ProposalA, ids[0], ids[2], ids[3], ids[1]}, "6"},
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
	f.S.View(ctx, f.B, func(tx store.Tx) error {
		got, next, _ := tx.Changes("")
		if !slices.Equal(got, []int64{f.ProposalB}) || next != "1" {
			t.Errorf("B's feed %v %q", got, next)
		}
		return nil
	})
}

func testIdempotency(t *testing.T, be Backend) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	s := be.Open(t, Options{Now: func() time.Time { return now }, IdempotencyTTL: 24 * time.Hour})
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

func testAuth(t *testing.T, be Backend) {
	s := be.Open(t, Options{})
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
			if got, ok, err := tx.User(u.ID); err != nil || !ok || got.ID != u.ID {
				t.Errorf("User %v, %v", got, err)
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
		checkCredentials(t, auth, hashes[1], u.ID, acct.ID, false)
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
		checkCredentials(t, auth, hashes[1], u.ID, acct.ID, true)
	})
}

// checkCredentials holds Credentials to the single reads: everything of
// a known key (revoked as RevokeKeys left it), the app alone without a
// key or with an unknown one, nothing for an unknown app.
func checkCredentials(t *testing.T, auth store.AuthStore, h [32]byte, userID, accountID int64, revoked bool) {
	t.Helper()
	c, err := auth.Credentials(ctx, "app1", &h)
	if err != nil || !c.AppFound || !c.KeyFound || !c.UserFound || !c.AccountFound {
		t.Fatalf("Credentials of a known key: %+v %v", c, err)
	}
	if c.App.Secret != "s" || c.Key.Hash != h || c.Key.UserID != userID || c.User.ID != userID ||
		c.User.AccountID != accountID || c.Account.ID != accountID || c.Key.Revoked() != revoked {
		t.Errorf("Credentials = %+v, want app1, user %d, account %d, revoked %v", c, userID, accountID, revoked)
	}
	unknown := sha256.Sum256([]byte("none"))
	for _, tc := range []struct {
		app  string
		hash *[32]byte
		want store.Credentials
	}{
		{"app1", nil, store.Credentials{AppFound: true}},
		{"app1", &unknown, store.Credentials{AppFound: true}},
		{"nope", &h, store.Credentials{}},
	} {
		c, err := auth.Credentials(ctx, tc.app, tc.hash)
		if err != nil || c.AppFound != tc.want.AppFound || c.KeyFound || c.UserFound || c.AccountFound {
			t.Errorf("Credentials(%q, %v) = %+v, %v; want only AppFound=%v", tc.app, tc.hash != nil, c, err, tc.want.AppFound)
		}
	}
}

func testIDsAndNumbers(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	seen := map[int64]bool{}
	numbers := map[int64][]int64{}
	for range 3 {
		for _, acct := range []int64{f.A, f.B} {
			f.S.Update(ctx, acct, func(tx store.Tx) error {
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
	// The Fixture took 1001 in each account.
	for _, acct := range []int64{f.A, f.B} {
		if !slices.Equal(numbers[acct], []int64{1002, 1003, 1004}) {
			t.Errorf("numbers of %d: %v", acct, numbers[acct])
		}
	}
	// IDs cannot be taken in a read-only transaction.
	err := f.S.View(ctx, f.A, func(tx store.Tx) error { tx.NextID(); return nil })
	if err == nil {
		t.Error("NextID in View succeeded")
	}
}

func testLocationsAndContacts(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	var l2, l3 int64
	err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
		l2, l3 = tx.NextID(), tx.NextID()
		if err := tx.PutLocation(app.ContactLocation{Location: app.Location{ID: l2, Street: "2"}, ContactID: f.ContactA}); err != nil {
			return err
		}
		if locs, err := tx.ContactLocations(f.ContactA); err != nil || len(locs) != 2 || !locs[0].IsPrimary || locs[1].IsPrimary {
			t.Errorf("after non-primary: %+v, %v", locs, err)
		}
		if err := tx.PutLocation(app.ContactLocation{Location: app.Location{ID: l3, Street: "3"}, ContactID: f.ContactA, IsPrimary: true}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		locs, err := tx.Locations(f.ContactA)
		var primary []int64
		for _, l := range locs {
			if l.IsPrimary {
				primary = append(primary, l.ID)
			}
		}
		if err != nil || len(locs) != 3 || !slices.Equal(primary, []int64{l3}) {
			t.Errorf("locations %+v %v", locs, err)
		}
		if l, ok, err := tx.Location(l2); err != nil || !ok || l.Street != "2" || l.ContactID != f.ContactA {
			t.Errorf("Location %+v, %v", l, err)
		}
		return nil
	})

	// Contacts answers with ContactQuery.Select's semantics.
	g := NewGen(11)
	var all []app.Contact
	f.S.Update(ctx, f.A, func(tx store.Tx) error {
		c, _, _ := tx.Contact(f.ContactA)
		all = append(all, c)
		for i := range 60 {
			c := g.Contacts[i%len(g.Contacts)]
			c.ID = tx.NextID()
			c.ContactType = app.ContactTypes[g.R.IntN(len(app.ContactTypes))]
			c.LastName += fmt.Sprint(g.R.IntN(5))
			all = append(all, c)
			if err := tx.PutContact(c); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		for i := range 100 {
			q := app.ContactQuery{SortBy: []string{"FirstName", "LastName", "CompanyName"}[i%3], Descending: i%2 == 0,
				PageNumber: 1 + g.R.IntN(3), PageSize: 1 + g.R.IntN(30)}
			q.SearchText = []string{"", "smith", "inc", "mail", "ann lake", "zz"}[g.R.IntN(6)]
			if g.R.IntN(2) == 0 {
				q.ContactTypes = []app.ContactType{app.ContactTypes[g.R.IntN(len(app.ContactTypes))]}
			}
			got, n, err := tx.Contacts(q)
			want, wn := q.Select(all)
			if err != nil || n != wn || MustJSON(got) != MustJSON(want) {
				t.Fatalf("Contacts(%+v) = %d %v, want %d", q, n, err, wn)
			}
		}
		return nil
	})
}
