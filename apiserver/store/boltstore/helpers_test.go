package boltstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

var ctx = context.Background()

// openTest opens a store in a fresh file of the test's temp dir.
func openTest(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.db")
	s, err := Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// fixture is two accounts, each with a user, a contact with a location
// and a proposal.
type fixture struct {
	s                    *Store
	a, b                 int64
	userA, userB         int64
	contactA, contactB   int64
	locA, locB           int64
	proposalA, proposalB int64
}

func newFixture(t testing.TB, opts ...Option) *fixture {
	t.Helper()
	s, _ := openTest(t, opts...)
	f := &fixture{s: s}
	for i, acct := range []*int64{&f.a, &f.b} {
		a, err := s.Auth().CreateAccount(ctx, store.Account{Name: fmt.Sprintf("acct%d", i), SubscriptionExpiry: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		*acct = a.ID
	}
	for _, x := range []struct {
		acct                         int64
		user, contact, loc, proposal *int64
	}{{f.a, &f.userA, &f.contactA, &f.locA, &f.proposalA}, {f.b, &f.userB, &f.contactB, &f.locB, &f.proposalB}} {
		u, err := s.Auth().CreateUser(ctx, store.UserRecord{User: app.User{Email: fmt.Sprintf("u%d@example.com", x.acct), FirstName: "U", Role: app.RoleAdmin}, AccountID: x.acct})
		if err != nil {
			t.Fatal(err)
		}
		*x.user = u.ID
		err = s.Update(ctx, x.acct, func(tx store.Tx) error {
			c := app.Contact{ID: tx.NextID(), PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Ann", LastName: fmt.Sprint("Lee", x.acct)}
			if err := tx.PutContact(c); err != nil {
				return err
			}
			l := app.ContactLocation{Location: app.Location{ID: tx.NextID(), Street: "1 Main"}, ContactID: c.ID, IsPrimary: true}
			if err := tx.PutLocation(l); err != nil {
				return err
			}
			p := newProposal(tx, "First", &c)
			if err := tx.PutProposal(p); err != nil {
				return err
			}
			*x.contact, *x.loc, *x.proposal = c.ID, l.ID, p.ID
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// withDeltaMin makes the list index rebuild its base after n changed
// entries (at least), so tests reach the rebuild with few proposals.
func withDeltaMin(n int) Option { return func(c *config) { c.deltaMin = n } }

var clock = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newProposal(tx store.Tx, name string, c *app.Contact) *app.Proposal {
	p := &app.Proposal{}
	p.ID = tx.NextID()
	p.Number = tx.NextNumber()
	p.Name = name
	p.Status = app.StatusDraft
	clock = clock.Add(time.Second)
	p.CreatedDate = app.At(clock)
	p.LastModifiedDate = app.At(clock)
	if c != nil {
		p.Customer = &app.Customer{Contact: *c}
	}
	return p
}

func contextWithCancel() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
