package syncer

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"proposaldesk/apiserver/apitest"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// countingTransport counts the HTTP requests a client sends.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// addContacts gives the fixture server's account n more contacts, each
// with one or two locations.
func addContacts(t testing.TB, srv *apitest.Server, n int) {
	t.Helper()
	err := srv.Store.Update(bg, srv.AccountID, func(tx store.Tx) error {
		for i := range n {
			c := app.Contact{ID: tx.NextID(), PartyType: app.PartyPerson, ContactType: app.ContactClient,
				FirstName: fmt.Sprint("Person ", i), LastName: "Many"}
			if err := tx.PutContact(c); err != nil {
				return err
			}
			for j := range 1 + i%2 {
				l := app.ContactLocation{ContactID: c.ID, IsPrimary: j == 0, Location: app.Location{
					ID: tx.NextID(), Street: fmt.Sprint(i, " Main St"), City: "Austin", State: "Texas", StateAbbrev: "TX", Country: "US"}}
				if err := tx.PutLocation(l); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A sync after a restart with nothing changed on the server makes the
// same few requests with 50 contacts as with 200: contacts and locations
// come through their changes feed, not one request per contact. A
// change made then arrives with the next sync.
func TestRestartSyncRequestsDoNotGrowWithContacts(t *testing.T) {
	srv, err := apitest.Start() // its own server: the test adds contacts
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	s := &realServer{Server: srv}
	requests := map[int]int64{}
	have := 1 // the fixture's contact
	for _, n := range []int{50, 200} {
		addContacts(t, srv, n-have)
		have = n
		path := filepath.Join(t.TempDir(), "desk.db")
		first := s.newDesk(t, srv.URL, app.RoleSales, openLocal(t, path), nil)
		first.sync(t)
		if err := first.st.Close(); err != nil {
			t.Fatal(err)
		}

		// Restart: the file opens again; a new engine and client.
		counter := &countingTransport{}
		d := s.newDesk(t, srv.URL, app.RoleSales, openLocal(t, path), []Option{WithHTTPClient(&http.Client{Transport: counter})})
		counter.n.Store(0) // not the sign-in
		d.sync(t)
		requests[n] = counter.n.Load()
		if _, got, _ := d.st.Contacts(app.ContactQuery{}); got != n {
			t.Errorf("%d contacts on the server, %d on the laptop", n, got)
		}

		// A location added on the server arrives with the next sync.
		var last app.Contact
		srv.Store.Update(bg, srv.AccountID, func(tx store.Tx) error {
			cs, _, err := tx.Contacts(app.ContactQuery{PageNumber: 1, PageSize: 1, SortBy: "FirstName", Descending: true})
			if err != nil || len(cs) == 0 {
				return fmt.Errorf("no contact: %v", err)
			}
			last = cs[0]
			return tx.PutLocation(app.ContactLocation{ContactID: last.ID, Location: app.Location{
				ID: tx.NextID(), Street: fmt.Sprint("new for ", n), City: "Dallas", State: "Texas", StateAbbrev: "TX", Country: "US"}})
		})
		d.sync(t)
		locs, _ := d.st.Locations(last.ID)
		if len(locs) == 0 || locs[len(locs)-1].Street != fmt.Sprint("new for ", n) {
			t.Errorf("the new location of contact %d did not arrive: %+v", last.ID, locs)
		}
	}
	t.Logf("requests of a sync after a restart, nothing changed: %v", requests)
	if requests[50] != requests[200] {
		t.Errorf("a restart's sync makes %d requests with 50 contacts, %d with 200: it grows with the contacts", requests[50], requests[200])
	}
	if requests[200] > 6 {
		t.Errorf("a restart's sync with nothing changed makes %d requests, want a handful", requests[200])
	}
}
