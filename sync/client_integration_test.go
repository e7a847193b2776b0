package syncer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

// Integration tests: the client against the real apiserver (bbolt store,
// demo data) on loopback.

var bg = context.Background()

func TestIntegrationExchange(t *testing.T) {
	s := startReal(t)
	sales := s.user(t, app.RoleSales, true)
	c := s.client(t, s.URL)
	// The server takes the user name in any letter case.
	res, err := c.Exchange(bg, strings.ToUpper(sales.Email), sales.Password)
	if err != nil {
		t.Fatal(err)
	}
	if res.APIKey == "" || c.UserKey() != res.APIKey {
		t.Fatalf("key %q, client key %q", res.APIKey, c.UserKey())
	}
	if res.UserID != fmt.Sprint(sales.UserID) || !slices.Contains(res.Roles, "Sales") || len(res.Permissions) == 0 || res.DisplayName == "" {
		t.Fatalf("result %+v (user %d)", res, sales.UserID)
	}
	if _, err := c.ListUsers(bg); err != nil {
		t.Fatalf("signed with the new key: %v", err)
	}

	_, err = s.client(t, s.URL).Exchange(bg, sales.Email, sales.Password+"x")
	if app.KindOf(err) != app.KindInvalidCredentials {
		t.Fatalf("wrong password: %v", err)
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 401 {
		t.Fatalf("wrong password: %v", err)
	}
	unverified := s.user(t, app.RoleSales, false)
	if _, err := s.client(t, s.URL).Exchange(bg, unverified.Email, unverified.Password); app.KindOf(err) != app.KindEmailNotVerified {
		t.Fatalf("unverified email: %v", err)
	}
	// A key nobody issued.
	bad := s.client(t, s.URL, WithUserKey("bm90IGEga2V5"))
	if _, err := bad.ListUsers(bg); app.KindOf(err) != app.KindCredentialsMissing && app.KindOf(err) != app.KindSignatureInvalid &&
		app.KindOf(err) != app.KindAPIKeyRevoked {
		t.Fatalf("unknown key: %v", err)
	}
}

// TestIntegrationEveryMethod walks a proposal through every endpoint the
// client has.
func TestIntegrationEveryMethod(t *testing.T) {
	s := startReal(t)
	c := s.signedIn(t, s.URL, app.RoleSales)
	me := s.user(t, app.RoleSales, true)

	users, err := c.ListUsers(bg)
	if err != nil || !slices.ContainsFunc(users, func(u app.Salesperson) bool { return u.ID == me.UserID }) {
		t.Fatalf("ListUsers = %+v, %v", users, err)
	}
	before, err := c.Changes(bg, "")
	if err != nil || before.StoreID == "" || before.Cursor == "" {
		t.Fatalf("Changes = %+v, %v", before, err)
	}
	page, err := c.ListProposals(bg, ProposalQuery{})
	if err != nil || len(page.Proposals) == 0 || page.Count < len(page.Proposals) {
		t.Fatalf("ListProposals = %d of %d, %v", len(page.Proposals), page.Count, err)
	}

	name := "Integration " + time.Now().Format("150405.000000")
	p, err := c.CreateProposal(bg, me.UserID, name, WriteOptions{IdempotencyKey: NewIdempotencyKey()})
	if err != nil || p.Status != app.StatusDraft || p.Name != name || p.ID == 0 {
		t.Fatalf("CreateProposal = %+v, %v", p.Name, err)
	}
	id := p.ID
	got, err := c.GetProposal(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := ParseETag(got.ETag); !ok || v != got.Proposal.Version || got.LastModified.IsZero() {
		t.Fatalf("GetProposal validators: ETag %q version %d Last-Modified %v", got.ETag, got.Proposal.Version, got.LastModified)
	}

	newName := name + " (renamed)"
	p, err = c.UpdateProposal(bg, id, &newName, nil, WriteOptions{IfMatch: got.ETag})
	if err != nil || p.Name != newName {
		t.Fatalf("UpdateProposal: %v", err)
	}
	// The old ETag no longer matches.
	if _, err := c.UpdateProposal(bg, id, &name, nil, WriteOptions{IfMatch: got.ETag}); !errors.Is(err, app.ErrPreconditionFailed) {
		t.Fatalf("stale If-Match: %v", err)
	}
	// If-Match given as the bare version works too.
	if p, err = c.SetDescription(bg, id, "Whole-home audio.", WriteOptions{IfMatch: fmt.Sprint(p.Version)}); err != nil || p.ProjectDescription != "Whole-home audio." {
		t.Fatalf("SetDescription: %v", err)
	}
	if p, err = c.SetInternalNotes(bg, id, "Gate code 1234", WriteOptions{}); err != nil || p.InternalNotes != "Gate code 1234" {
		t.Fatalf("SetInternalNotes: %v", err)
	}
	if p, err = c.CreateArea(bg, id, "Living Room", WriteOptions{}); err != nil || len(p.Areas) != 1 || len(p.Areas[0].Options) != 1 {
		t.Fatalf("CreateArea: %v", err)
	}
	areaID := p.Areas[0].ID
	if p, err = c.CreateOption(bg, id, areaID, "Premium", "run cat6", WriteOptions{}); err != nil || len(p.Areas[0].Options) != 2 {
		t.Fatalf("CreateOption: %v", err)
	}
	opt := p.Areas[0].Options[1]
	if opt.ClientDescription != "Premium" || opt.InstallerDescription != "run cat6" {
		t.Fatalf("new option %+v", opt)
	}
	if p, err = c.SetOptionClientDescription(bg, id, opt.ID, "Premium 7.1", WriteOptions{}); err != nil || p.Areas[0].Options[1].ClientDescription != "Premium 7.1" {
		t.Fatalf("SetOptionClientDescription: %v", err)
	}
	if p, err = c.SetOptionInstallerNotes(bg, id, opt.ID, "", WriteOptions{}); err != nil || p.Areas[0].Options[1].InstallerDescription != "" {
		t.Fatalf("SetOptionInstallerNotes: %v", err)
	}

	person, err := c.CreatePerson(bg, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient,
		FirstName: "Dana", LastName: "Integration" + fmt.Sprint(id), ContactEmail: "dana@example.com"}, WriteOptions{})
	if err != nil || person.ID == 0 {
		t.Fatalf("CreatePerson = %+v, %v", person, err)
	}
	home, err := c.CreateLocation(bg, person.ID, app.NewLocation{Street: "1 Main St", City: "Austin", State: "TX",
		PostalCode: "78701", Country: "US", IsPrimary: true}, WriteOptions{})
	if err != nil || home.ID == 0 || !home.IsPrimary || home.ContactID != person.ID {
		t.Fatalf("CreateLocation = %+v, %v", home, err)
	}
	office, err := c.CreateLocation(bg, person.ID, app.NewLocation{Street: "9 Side Rd", City: "Denver", State: "CO"}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetPerson(bg, person.ID); err != nil || got.LastName != person.LastName {
		t.Fatalf("GetPerson = %+v, %v", got, err)
	}
	if locs, err := c.ListLocations(bg, person.ID); err != nil || len(locs) != 2 {
		t.Fatalf("ListLocations = %+v, %v", locs, err)
	}
	people, err := c.ListPeople(bg, PeopleQuery{SearchText: person.LastName, ContactTypes: []app.ContactType{app.ContactClient}})
	if err != nil || people.Count != 1 || people.People[0].ID != person.ID {
		t.Fatalf("ListPeople = %+v, %v", people, err)
	}

	if err := c.AssignContact(bg, id, person.ID, WriteOptions{IdempotencyKey: NewIdempotencyKey()}); err != nil {
		t.Fatalf("AssignContact: %v", err)
	}
	got, err = c.GetProposal(bg, id)
	if err != nil || got.Proposal.Customer == nil || got.Proposal.Customer.ID != person.ID ||
		got.Proposal.Customer.Location == nil || got.Proposal.Customer.Location.ID != home.ID {
		t.Fatalf("after AssignContact: %+v, %v", got.Proposal.Customer, err)
	}
	if p, err = c.AssignLocation(bg, id, office.ID, WriteOptions{}); err != nil || p.Customer.Location.ID != office.ID {
		t.Fatalf("AssignLocation: %v", err)
	}
	if p, err = c.ChangeStatus(bg, id, app.StatusSubmitted, WriteOptions{}); err != nil || p.Status != app.StatusSubmitted {
		t.Fatalf("ChangeStatus: %v", err)
	}

	after, err := c.Changes(bg, before.Cursor)
	if err != nil || after.StoreID != before.StoreID || !slices.Contains(after.ProposalIDs, id) {
		t.Fatalf("Changes since = %+v, %v", after, err)
	}
	if again, err := c.Changes(bg, after.Cursor); err != nil || slices.Contains(again.ProposalIDs, id) {
		t.Fatalf("Changes with nothing new = %+v, %v", again, err)
	}
	if list, err := c.ListChangeOrders(bg, id); err != nil || list == nil || len(list) != 0 {
		t.Fatalf("ListChangeOrders of a new proposal = %v, %v", list, err)
	}

	// Change orders: the demo's accepted proposal that has some.
	accepted, err := c.ListProposals(bg, ProposalQuery{Statuses: []app.Status{app.StatusAccepted, app.StatusCompleted}, PageSize: 200})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, item := range accepted.Proposals {
		cos, err := c.ListChangeOrders(bg, item.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(cos) == 0 {
			continue
		}
		found = true
		co, err := c.GetChangeOrder(bg, item.ID, cos[0].ID)
		if err != nil || co.ChangeOrder.ID != cos[0].ID || co.LastModified.IsZero() {
			t.Fatalf("GetChangeOrder = %+v, %v", co.ChangeOrder.ID, err)
		}
		break
	}
	if !found {
		t.Fatal("no accepted proposal with change orders in the demo data")
	}
}

func TestIntegrationErrorKinds(t *testing.T) {
	s := startReal(t)
	c := s.signedIn(t, s.URL, app.RoleSales)
	me := s.user(t, app.RoleSales, true)

	_, err := c.GetProposal(bg, 987654321)
	var apiErr *APIError
	if !errors.Is(err, app.ErrNotFound) || !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Fatalf("NotFound: %v", err)
	}

	locked, err := c.ListProposals(bg, ProposalQuery{Statuses: []app.Status{app.StatusAccepted}, PageSize: 1})
	if err != nil || len(locked.Proposals) == 0 {
		t.Fatalf("no accepted proposal: %v", err)
	}
	_, err = c.SetDescription(bg, locked.Proposals[0].ID, "nope", WriteOptions{IdempotencyKey: NewIdempotencyKey()})
	if app.KindOf(err) != app.KindProposalLocked || !errors.As(err, &apiErr) || apiErr.Status != 409 {
		t.Fatalf("ProposalLocked: %v", err)
	}

	p, err := c.CreateProposal(bg, me.UserID, "", WriteOptions{})
	if err != nil || !strings.HasPrefix(p.Name, "Proposal ") {
		t.Fatalf("CreateProposal with the default name: %q, %v", p.Name, err)
	}
	p, err = c.CreateArea(bg, p.ID, "Kitchen", WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateArea(bg, p.ID, " kitchen", WriteOptions{}); app.KindOf(err) != app.KindAreaNameTaken {
		t.Fatalf("AreaNameTaken: %v", err)
	}
	area := p.Areas[0].ID
	for range 2 {
		if _, err := c.CreateOption(bg, p.ID, area, "", "", WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = c.CreateOption(bg, p.ID, area, "fourth", "", WriteOptions{})
	if app.KindOf(err) != app.KindOptionLimitReached || !errors.As(err, &apiErr) || apiErr.Status != 400 {
		t.Fatalf("OptionLimitReached: %v", err)
	}

	_, err = c.CreateArea(bg, p.ID, "", WriteOptions{})
	if !errors.Is(err, app.ErrValidation) || !errors.As(err, &apiErr) {
		t.Fatalf("ValidationFailed: %v", err)
	}
	if len(apiErr.Err.Fields) == 0 || !strings.EqualFold(apiErr.Err.Fields[0].Field, "Name") {
		t.Fatalf("field errors %+v", apiErr.Err.Fields)
	}

	if _, err := c.AssignLocation(bg, p.ID, 1, WriteOptions{}); app.KindOf(err) != app.KindNotFound && app.KindOf(err) != app.KindNoContactAssigned {
		t.Fatalf("AssignLocation without a contact: %v", err)
	}
	if _, err := c.ChangeStatus(bg, p.ID, app.StatusCompleted, WriteOptions{}); app.KindOf(err) != app.KindInvalidTransition {
		t.Fatalf("InvalidTransition: %v", err)
	}
	if _, err := c.ListProposals(bg, ProposalQuery{PageSize: 500}); app.KindOf(err) != app.KindInvalidPaging {
		t.Fatalf("InvalidPaging: %v", err)
	}

	// The same Idempotency-Key for a different write.
	key := NewIdempotencyKey()
	if _, err := c.SetInternalNotes(bg, p.ID, "one", WriteOptions{IdempotencyKey: key}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetInternalNotes(bg, p.ID, "two", WriteOptions{IdempotencyKey: key}); app.KindOf(err) != app.KindIdempotencyKeyReused {
		t.Fatalf("IdempotencyKeyReused: %v", err)
	}

	viewer := s.signedIn(t, s.URL, app.RoleViewer)
	if _, err := viewer.SetInternalNotes(bg, p.ID, "x", WriteOptions{}); !errors.Is(err, app.ErrPermissionDenied) {
		t.Fatalf("PermissionDenied: %v", err)
	}
}

func TestIntegrationSkewedClock(t *testing.T) {
	s := startReal(t)
	me := s.user(t, app.RoleSales, true)
	for _, skew := range []time.Duration{2 * time.Hour, -2 * time.Hour} {
		t.Run(skew.String(), func(t *testing.T) {
			c := s.signedIn(t, s.URL, app.RoleSales, WithClock(func() time.Time { return time.Now().Add(skew) }))
			if off := c.ClockOffset(); (off + skew).Abs() > 2*time.Second {
				t.Fatalf("offset %v for a clock %v off", off, skew)
			}
			p, err := c.CreateProposal(bg, me.UserID, "Skewed "+skew.String(), WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.GetProposal(bg, p.ID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestIntegrationSignatureOverSpecialQueries uses a server in strict mode,
// which accepts only a signature over the full URL with its query.
func TestIntegrationSignatureOverSpecialQueries(t *testing.T) {
	s := startReal(t)
	c := s.signedIn(t, s.StrictURL, app.RoleSales)
	me := s.user(t, app.RoleSales, true)
	name := "Smith & Sons + Café 日本 50% a=b " + time.Now().Format("150405.000000")
	p, err := c.CreateProposal(bg, me.UserID, name, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, search := range []string{"smith & sons", "+ café", "日本 50%", "a=b", name} {
		res, err := c.ListProposals(bg, ProposalQuery{SearchText: search, Statuses: []app.Status{app.StatusDraft}, PageSize: 200})
		if err != nil {
			t.Fatalf("search %q: %v", search, err)
		}
		if !slices.ContainsFunc(res.Proposals, func(it app.ListItem) bool { return it.ID == p.ID }) {
			t.Fatalf("search %q did not find %q", search, name)
		}
	}
	if _, err := c.ListPeople(bg, PeopleQuery{SearchText: "Ünï côde & +x", SortBy: "LastName", SortDirection: "Desc"}); err != nil {
		t.Fatalf("people search: %v", err)
	}
	if _, err := c.Changes(bg, "a b&c=d+é"); err != nil && app.KindOf(err) == app.KindSignatureInvalid {
		t.Fatalf("changes with an odd cursor: %v", err)
	}
}
