// Package apitest starts the real API server on loopback over a
// temporary bbolt file with a small fixture, for the tests of the
// packages that talk to it (the sync engine, the desktop UI). Passwords
// are hashed at bcrypt's lowest cost so that key exchanges stay fast
// under -race (the server reads the cost from the hash).
package apitest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

// User is a fixture user with its password.
type User struct {
	app.User
	Password string
}

// Server is a running fixture server.
type Server struct {
	// URL accepts both signature variants; StrictURL is the same data
	// behind a server in strict signing mode (the full URL only).
	URL, StrictURL string
	// Handler is the server's handler, for tests that put their own
	// front (a switch that takes it offline) before it.
	Handler   http.Handler
	AppID     string
	AppSecret string
	Store     store.Store
	AccountID int64
	// Users by role; Unverified is a Sales user whose email is not
	// verified.
	Users      map[app.Role]User
	Unverified User
	// Draft is a Draft proposal with an area ("Living room") holding one
	// option, Accepted an accepted one with two change orders.
	Draft, Accepted int64

	stop func()
}

// Start starts a server. Close it when done.
func Start() (*Server, error) { return StartWith() }

// StartWith starts a server whose configuration cfg edits (both the
// lenient and the strict one). Close it when done.
func StartWith(cfg ...func(*apiserver.Config)) (*Server, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "apitest-")
	if err != nil {
		return nil, err
	}
	st, err := boltstore.Open(filepath.Join(dir, "server.db"), boltstore.WithNoSync())
	if err != nil {
		return nil, err
	}
	now := time.Now()
	a, err := auth.NewApp("desktop", now)
	if err != nil {
		return nil, err
	}
	if err := st.Auth().CreateApp(ctx, a); err != nil {
		return nil, err
	}
	acct, err := st.Auth().CreateAccount(ctx, store.Account{Name: "Main", SubscriptionExpiry: now.AddDate(1, 0, 0),
		Currency: app.USD, Dealer: app.DealerProfile{CompanyName: "Main AV"}})
	if err != nil {
		return nil, err
	}
	s := &Server{AppID: a.ID, AppSecret: a.Secret, Store: st, AccountID: acct.ID, Users: map[app.Role]User{}}
	for _, u := range []struct {
		role     app.Role
		verified bool
		first    string
	}{{app.RoleAdmin, true, "Ada"}, {app.RoleSales, true, "Sam"}, {app.RoleViewer, true, "Vera"}, {app.RoleSales, false, "Una"}} {
		password := "pw " + string(u.role) + " &+=?%"
		hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
		if err != nil {
			return nil, err
		}
		email := fmt.Sprintf("%s.%v@main.test", strings.ToLower(string(u.role)), u.verified)
		rec, err := st.Auth().CreateUser(ctx, store.UserRecord{
			User:      app.User{Email: email, FirstName: u.first, LastName: string(u.role), Role: u.role, EmailVerified: u.verified},
			AccountID: acct.ID, PasswordHash: hash, CreatedAt: now,
		})
		if err != nil {
			return nil, err
		}
		fu := User{User: rec.User, Password: password}
		if u.verified {
			s.Users[u.role] = fu
		} else {
			s.Unverified = fu
		}
	}
	admin := s.Users[app.RoleAdmin].User
	err = st.Update(ctx, acct.ID, func(tx store.Tx) error {
		contact := app.Contact{ID: tx.NextID(), PartyType: app.PartyPerson, ContactType: app.ContactClient,
			FirstName: "Carla", LastName: "Client", ContactEmail: "carla@example.test"}
		if err := tx.PutContact(contact); err != nil {
			return err
		}
		loc := app.ContactLocation{ContactID: contact.ID, IsPrimary: true, Location: app.Location{
			ID: tx.NextID(), Street: "12 Main St", City: "Austin", State: "Texas", StateAbbrev: "TX", Country: "US"}}
		if err := tx.PutLocation(loc); err != nil {
			return err
		}
		draft, err := applyAll(tx, admin, nil, &app.CreateProposal{SalesPersonID: s.Users[app.RoleSales].ID, Name: ptr("Smith home theater")},
			&app.AssignContact{ContactID: contact.ID}, &app.CreateArea{Name: "Living room"})
		if err != nil {
			return err
		}
		draft.Areas[0].Options[0].Items = []app.Item{
			{ID: tx.NextID(), ItemType: app.ItemPart, Brand: "Sony", Model: "XR-65A95L", SellPrice: app.MustMoney("2999.00"),
				Cost: ptr(app.MustMoney("2100.00")), Quantity: app.MustQuantity("1")},
			{ID: tx.NextID(), ItemType: app.ItemLabor, Brand: "", Model: "Installation", SellPrice: app.MustMoney("95.00"),
				Quantity: app.MustQuantity("3")},
		}
		if err := tx.PutProposal(draft); err != nil {
			return err
		}
		s.Draft = draft.ID
		acc, err := applyAll(tx, admin, nil, &app.CreateProposal{SalesPersonID: admin.ID, Name: ptr("Jones office")},
			&app.CreateArea{Name: "Den"}, &app.ChangeStatus{Status: app.StatusSubmitted}, &app.ChangeStatus{Status: app.StatusAccepted})
		if err != nil {
			return err
		}
		for i := 1; i <= 2; i++ {
			co := app.ChangeOrder{Document: acc.Clone().Document}
			co.ID, co.Number, co.Name, co.Status = tx.NextID(), int64(i), fmt.Sprintf("Change %d", i), app.StatusDraft
			acc.ChangeOrders = append(acc.ChangeOrders, co)
		}
		s.Accepted = acc.ID
		return tx.PutProposal(acc)
	})
	if err != nil {
		return nil, err
	}
	quiet := slog.New(slog.DiscardHandler)
	config := func(strict bool) apiserver.Config {
		c := apiserver.Config{Logger: quiet, StrictSigning: strict}
		for _, f := range cfg {
			f(&c)
		}
		return c
	}
	s.Handler = apiserver.New(config(false), st)
	srv := httptest.NewServer(s.Handler)
	strict := httptest.NewServer(apiserver.New(config(true), st))
	s.URL, s.StrictURL = srv.URL, strict.URL
	s.stop = func() {
		srv.Close()
		strict.Close()
		st.Close()
		os.RemoveAll(dir)
	}
	return s, nil
}

// Close stops the server and removes its files.
func (s *Server) Close() { s.stop() }

// Update changes a proposal directly on the server, as another user
// would (the acting user is the Admin).
func (s *Server) Update(id int64, ms ...app.Mutation) (*app.Proposal, error) {
	var out *app.Proposal
	err := s.Store.Update(context.Background(), s.AccountID, func(tx store.Tx) error {
		p, err := tx.Proposal(id)
		if err != nil {
			return err
		}
		out, err = applyAll(tx, s.Users[app.RoleAdmin].User, p, ms...)
		return err
	})
	return out, err
}

// Create makes a proposal on the server as the Admin and returns its ID.
func (s *Server) Create(m *app.CreateProposal) (int64, error) {
	var id int64
	err := s.Store.Update(context.Background(), s.AccountID, func(tx store.Tx) error {
		p, err := apiserver.ApplyEdit(tx, s.Users[app.RoleAdmin].User, time.Now(), m, nil)
		if err != nil {
			return err
		}
		id = p.ID
		return nil
	})
	return id, err
}

// Proposal reads a proposal from the server's store.
func (s *Server) Proposal(id int64) (*app.Proposal, error) {
	var out *app.Proposal
	err := s.Store.View(context.Background(), s.AccountID, func(tx store.Tx) (err error) {
		out, err = tx.Proposal(id)
		return err
	})
	return out, err
}

// applyAll applies mutations in order through the server's own write
// path (apiserver.ApplyEdit), pointing each at the proposal after a
// create.
func applyAll(tx store.Tx, actor app.User, p *app.Proposal, ms ...app.Mutation) (*app.Proposal, error) {
	for _, m := range ms {
		if p != nil {
			app.SetProposalID(m, p.ID)
		}
		next, err := apiserver.ApplyEdit(tx, actor, time.Now(), m, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Kind(), err)
		}
		p = next
	}
	return p, nil
}

func ptr[T any](v T) *T { return &v }
