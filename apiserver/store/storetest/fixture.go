package storetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

var ctx = context.Background()

// Fixture is two accounts, each with a user, a contact with a location
// and a proposal.
type Fixture struct {
	S                    store.Store
	A, B                 int64
	UserA, UserB         int64
	ContactA, ContactB   int64
	LocA, LocB           int64
	ProposalA, ProposalB int64
}

// NewFixture makes the fixture in a new store of the backend.
func NewFixture(t testing.TB, be Backend) *Fixture {
	t.Helper()
	s := be.Open(t, Options{})
	f := &Fixture{S: s}
	for i, acct := range []*int64{&f.A, &f.B} {
		a, err := s.Auth().CreateAccount(ctx, store.Account{Name: fmt.Sprintf("acct%d", i), SubscriptionExpiry: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		*acct = a.ID
	}
	for _, x := range []struct {
		acct                         int64
		user, contact, loc, proposal *int64
	}{{f.A, &f.UserA, &f.ContactA, &f.LocA, &f.ProposalA}, {f.B, &f.UserB, &f.ContactB, &f.LocB, &f.ProposalB}} {
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
			p := NewProposal(tx, "First", &c)
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

// ticks gives each new proposal its own second after 2026-01-01; atomic
// because replica tests make proposals from several goroutines.
var ticks atomic.Int64

// NewProposal makes a Draft proposal with a new ID and number.
func NewProposal(tx store.Tx, name string, c *app.Contact) *app.Proposal {
	p := &app.Proposal{}
	p.ID = tx.NextID()
	p.Number = tx.NextNumber()
	p.Name = name
	p.Status = app.StatusDraft
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ticks.Add(1)) * time.Second)
	p.CreatedDate = app.At(at)
	p.LastModifiedDate = app.At(at)
	if c != nil {
		p.Customer = &app.Customer{Contact: *c}
	}
	return p
}

func contextWithCancel() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
