package pgstore

import (
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// TestDirectoryTimeoutIsUnavailable: a write whose salesperson, contact,
// location or catalog item lookup times out answers 503 Unavailable, which the
// desktop retries, not 404 NotFound, which it records as a refusal for
// good; and it writes nothing. Another connection holds the looked-up
// table locked, so the lookup runs into the statement timeout.
func TestDirectoryTimeoutIsUnavailable(t *testing.T) {
	be := backend
	be.Open = func(t testing.TB, _ storetest.Options) store.Store {
		s, _ := openTest(t, WithStatementTimeout(time.Second))
		return s
	}
	f := storetest.NewFixture(t, be)
	s := f.S.(*Store)
	actor := app.User{ID: f.UserA, FirstName: "U", Role: app.RoleAdmin}
	// An option to add a catalog item to, and the item.
	var option int64
	if err := s.Update(ctx, f.A, func(tx store.Tx) error {
		p, err := apiserver.ApplyEdit(tx, actor, time.Now(), &app.CreateArea{ID: f.ProposalA, Name: "Den"}, nil)
		if err == nil {
			option = p.Areas[0].Options[0].ID
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	storetest.ImportItems(t, f.S, f.A, app.CatalogMerge, catalogdemo.Generate(1))
	catalogIDs, _ := storetest.SearchIDs(t, f.S, f.A, app.DefaultCatalogQuery())
	cases := []struct {
		name, table string
		m           app.Mutation
	}{
		{"salesperson", "users", &app.UpdateProposal{ID: f.ProposalA, SalesPersonID: &f.UserA}},
		{"contact", "contacts", &app.AssignContact{ID: f.ProposalA, ContactID: f.ContactA}},
		{"contact's locations", "locations", &app.AssignContact{ID: f.ProposalA, ContactID: f.ContactA}},
		{"location", "locations", &app.AssignLocation{ID: f.ProposalA, LocationID: f.LocA}},
		{"catalog item", "catalog_items", &app.AddItem{ID: f.ProposalA, OptionID: option, CatalogItemID: &catalogIDs[0]}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := dump(t, s)
			locker, err := pgx.Connect(ctx, s.url)
			if err != nil {
				t.Fatal(err)
			}
			defer locker.Close(ctx)
			lock, err := locker.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lock.Exec(ctx, "LOCK TABLE "+pgx.Identifier{tc.table}.Sanitize()+" IN ACCESS EXCLUSIVE MODE"); err != nil {
				t.Fatal(err)
			}
			err = s.Update(ctx, f.A, func(tx store.Tx) error {
				_, err := apiserver.ApplyEdit(tx, actor, time.Now(), tc.m, nil)
				return err
			})
			if err := lock.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
			if k := app.KindOf(err); k != app.KindUnavailable || apiserver.StatusOf(k) != http.StatusServiceUnavailable {
				t.Fatalf("write with %s locked: %v (kind %s, status %d), want kind %s, status 503",
					tc.table, err, k, apiserver.StatusOf(k), app.KindUnavailable)
			}
			if after := dump(t, s); after != before {
				t.Errorf("the failed write changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}
