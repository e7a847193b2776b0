package localstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

var (
	ctx   = context.Background()
	t0    = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	sales = app.User{ID: 10, Email: "sam@dealer.test", FirstName: "Sam", LastName: "Seller",
		Role: app.RoleSales, EmailVerified: true}
	sales2 = app.User{ID: 12, Email: "ria@dealer.test", FirstName: "Ria", LastName: "Rep",
		Role: app.RoleSales, EmailVerified: true}
	viewer = app.User{ID: 11, Email: "vic@dealer.test", FirstName: "Vic", LastName: "Viewer",
		Role: app.RoleViewer, EmailVerified: true}
	acme = app.Contact{ID: 100, PartyType: app.PartyCompany, ContactType: app.ContactClient,
		FirstName: "Ada", LastName: "Lovelace", CompanyName: "Acme Homes", ContactEmail: "ada@acme.test"}
	bob = app.Contact{ID: 101, PartyType: app.PartyPerson, ContactType: app.ContactClient,
		FirstName: "Bob", LastName: "Builder"}
	acmeHQ = app.ContactLocation{Location: app.Location{ID: 200, Street: "1 Main St", City: "Austin",
		State: "TX", StateAbbrev: "TX", Country: "US"}, ContactID: 100, IsPrimary: true}
	acmeLake = app.ContactLocation{Location: app.Location{ID: 201, Street: "9 Lake Rd", City: "Reno",
		State: "NV", StateAbbrev: "NV", Country: "US"}, ContactID: 100}
	account = AccountInfo{Dealer: app.DealerProfile{CompanyName: "Sound & Light"}, Currency: app.USD,
		TaxOverrides: map[string]app.Rate{"TX": app.MustRate("8.25")}, Terms: "Net 30"}
)

var openSeed atomic.Int64

// openStore opens a store in a fresh temp dir (or at path when given).
// Idempotency keys come from a seeded source. Closed at cleanup.
func openStore(t testing.TB, path string) *Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "desk.db")
	}
	seed := openSeed.Add(1) // a new stream per open, as crypto/rand would give
	s, err := OpenWith(path, Options{Rand: rand.New(rand.NewSource(seed)), Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// reopen closes s and opens its file again.
func reopen(t testing.TB, s *Store) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return openStore(t, s.Path())
}

// seed fills the caches as a first pull would.
func seed(t testing.TB, s *Store) {
	t.Helper()
	err := s.ApplyPull(ctx, func(tx *PullTx) error {
		for _, err := range []error{
			tx.PutAccount(account),
			tx.PutUsers([]app.User{sales, sales2, viewer}),
			tx.PutContact(acme), tx.PutContact(bob),
			tx.PutLocations(acme.ID, []app.ContactLocation{acmeHQ, acmeLake}),
			tx.SetCursor("store-1", "c1"),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func envAt(i int, actor app.User) app.Env {
	return app.Env{Now: t0.Add(time.Duration(i) * time.Minute), Actor: actor}
}

func strp(s string) *string { return &s }

// mapDir is a directory for the fake server.
type mapDir struct {
	users     map[int64]app.User
	contacts  map[int64]app.Contact
	locations map[int64]app.ContactLocation
}

func newMapDir() *mapDir {
	d := &mapDir{users: map[int64]app.User{}, contacts: map[int64]app.Contact{}, locations: map[int64]app.ContactLocation{}}
	for _, u := range []app.User{sales, sales2, viewer} {
		d.users[u.ID] = u
	}
	d.contacts[acme.ID], d.contacts[bob.ID] = acme, bob
	d.locations[acmeHQ.ID], d.locations[acmeLake.ID] = acmeHQ, acmeLake
	return d
}

func (d *mapDir) User(id int64) (app.User, bool, error) { u, ok := d.users[id]; return u, ok, nil }
func (d *mapDir) Contact(id int64) (app.Contact, bool, error) {
	c, ok := d.contacts[id]
	return c, ok, nil
}
func (d *mapDir) Location(id int64) (app.ContactLocation, bool, error) {
	l, ok := d.locations[id]
	return l, ok, nil
}
func (d *mapDir) ContactLocations(id int64) ([]app.ContactLocation, error) {
	var out []app.ContactLocation
	for _, l := range d.locations {
		if l.ContactID == id {
			out = append(out, l)
		}
	}
	return out, nil
}

// fakeServer applies mutations the way the API does: its own IDs for
// creates, its own numbers.
type fakeServer struct {
	props  map[int64]*app.Proposal
	dir    *mapDir
	nextID int64
	number int64
}

func newFakeServer() *fakeServer {
	return &fakeServer{props: map[int64]*app.Proposal{}, dir: newMapDir(), nextID: 1000, number: 500}
}

func (f *fakeServer) env(now time.Time, actor app.User) app.Env {
	return app.Env{Now: now, Actor: actor, Account: account.App(), Directory: f.dir,
		NewID:      func() int64 { f.nextID++; return f.nextID },
		NextNumber: func() int64 { f.number++; return f.number }}
}

// apply runs a mutation as the server would (preset create IDs are the
// client's and ignored) and returns a copy of the result.
func (f *fakeServer) apply(m app.Mutation, now time.Time, actor app.User) (*app.Proposal, error) {
	switch m := m.(type) {
	case *app.CreateProposal:
		m.ID = 0
	case *app.CreateArea:
		m.AreaID, m.OptionID = 0, 0
	case *app.CreateOption:
		m.OptionID = 0
	}
	p, err := app.Apply(f.props[m.ProposalID()], m, f.env(now, actor))
	if err != nil {
		return nil, err
	}
	f.props[p.ID] = p
	return p.Clone(), nil
}

// send delivers an outbox entry to the fake server: a proposal entry is
// applied; a contact or location is created. It returns what Ack needs.
func (f *fakeServer) send(t testing.TB, s *Store, e Entry) error {
	t.Helper()
	switch e.Kind {
	case EntryContact:
		f.nextID++
		c, err := e.Contact.Contact(f.nextID)
		if err != nil {
			return err
		}
		f.dir.contacts[c.ID] = c
		return s.AckContact(ctx, e.Seq, c)
	case EntryLocation:
		f.nextID++
		l, err := e.Location.Location(f.nextID, e.ContactID)
		if err != nil {
			return err
		}
		f.dir.locations[l.ID] = l
		return s.AckLocation(ctx, e.Seq, l)
	}
	m, err := e.Decode()
	if err != nil {
		return err
	}
	p, err := f.apply(m, e.Created, e.Actor)
	if err != nil {
		return s.Fail(ctx, e.Seq, app.KindOf(err), err.Error())
	}
	_, err = s.Ack(ctx, e.Seq, p)
	return err
}

// drain sends every unblocked pending entry, one at a time, in order.
func (f *fakeServer) drain(t testing.TB, s *Store) {
	t.Helper()
	for {
		pend, err := s.Pending(0)
		if err != nil {
			t.Fatal(err)
		}
		var next *Entry
		for i := range pend {
			if !pend[i].Blocked {
				next = &pend[i]
				break
			}
		}
		if next == nil {
			return
		}
		if err := s.MarkSent(ctx, next.Seq); err != nil {
			t.Fatal(err)
		}
		if err := f.send(t, s, *next); err != nil {
			t.Fatal(err)
		}
	}
}

// pulled creates a proposal on the fake server and pulls it into s.
func pulled(t testing.TB, s *Store, f *fakeServer, name string) *app.Proposal {
	t.Helper()
	p, err := f.apply(&app.CreateProposal{SalesPersonID: sales.ID, Name: strp(name)}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutServerCopy(ctx, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// dump is every key and value of the file, to show that a failed write
// left nothing behind.
func dump(t testing.TB, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			out[string(name)+"#seq"] = fmt.Sprint(b.Sequence())
			return b.ForEach(func(k, v []byte) error {
				out[string(name)+"/"+string(k)] = string(bytes.Clone(v))
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func kindOf(err error) app.Kind {
	var ae *app.Error
	if errors.As(err, &ae) {
		return ae.Kind
	}
	return ""
}
