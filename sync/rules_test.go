package syncer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

// Case tables for the writes' routes and the sentences errors give.

func TestRouteOfEveryMutation(t *testing.T) {
	name, sp := "New name", int64(5)
	cases := []struct {
		m    app.Mutation
		path string
		body string
	}{
		{&app.CreateProposal{SalesPersonID: 5, Name: &name, ID: -1}, "/public/proposals", `{"SalesPersonId":5,"Name":"New name"}`},
		{&app.CreateProposal{SalesPersonID: 5}, "/public/proposals", `{"SalesPersonId":5}`},
		{&app.UpdateProposal{ID: 7, Name: &name}, "/public/proposals/7", `{"Name":"New name"}`},
		{&app.UpdateProposal{ID: 7, SalesPersonID: &sp}, "/public/proposals/7", `{"SalesPersonId":5}`},
		{&app.SetDescription{ID: 7, Description: "d"}, "/public/proposals/7/description", `{"Description":"d"}`},
		{&app.SetInternalNotes{ID: 7, InternalNotes: "n"}, "/public/proposals/7/internalnotes", `{"InternalNotes":"n"}`},
		{&app.CreateArea{ID: 7, Name: "Den", AreaID: 99, OptionID: 98}, "/public/proposals/7/area", `{"Name":"Den"}`},
		{&app.CreateOption{ID: 7, AreaID: 3, ClientDescription: "c", OptionID: 97}, "/public/proposals/7/area/3/option", `{"ClientDescription":"c","InternalNotes":""}`},
		{&app.SetOptionClientDescription{ID: 7, OptionID: 4, ClientDescription: ""}, "/public/proposals/7/area-options/4/clientdescription", `{"ClientDescription":""}`},
		{&app.SetOptionInstallerNotes{ID: 7, OptionID: 4, InstallerNotes: "i"}, "/public/proposals/7/area-options/4/installernotes", `{"InstallerNotes":"i"}`},
		{&app.AssignContact{ID: 7, ContactID: 8}, "/public/proposals/7/contact/8", `{"proposalId":7,"contactId":8}`},
		{&app.AssignLocation{ID: 7, LocationID: 9}, "/public/proposals/7/location/9", `{"proposalId":7,"locationId":9}`},
		{&app.ChangeStatus{ID: 7, Status: app.StatusSubmitted}, "/public/proposals/7/status", `{"Status":"Submitted"}`},
	}
	seen := map[app.MutationKind]bool{}
	for _, c := range cases {
		path, body, err := route(c.m)
		if err != nil {
			t.Errorf("%s: %v", c.m.Kind(), err)
			continue
		}
		b, _ := json.Marshal(body)
		if path != c.path || string(b) != c.body {
			t.Errorf("%s: %s %s, want %s %s", c.m.Kind(), path, b, c.path, c.body)
		}
		seen[c.m.Kind()] = true
	}
	// Every mutation the app has is routed: decode one of each kind.
	for _, k := range []app.MutationKind{app.KindCreateProposal, app.KindUpdateProposal, app.KindSetDescription,
		app.KindSetInternalNotes, app.KindCreateArea, app.KindCreateOption, app.KindSetOptionClientDesc,
		app.KindSetOptionInstaller, app.KindAssignContact, app.KindAssignLocation, app.KindChangeStatus} {
		m, err := app.DecodeMutation([]byte(`{"kind":"` + string(k) + `","mutation":{"proposalId":1}}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := route(m); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		if !seen[k] {
			t.Errorf("%s has no case above", k)
		}
	}
	if _, _, err := route(&app.SetDescription{ID: 0}); err == nil {
		t.Error("a write to proposal 0 was routed")
	}
}

func TestExplain(t *testing.T) {
	apiErr := &APIError{Status: 409, Err: app.Errorf(app.KindProposalLocked, "Proposal 12 is Accepted and cannot be edited.")}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{&CertificateError{URL: "https://x", Err: errors.New("x509: unknown authority")}, "certificate"},
		{&ClockError{Offset: 2 * time.Hour, Err: apiErr}, "clock"},
		{&NetworkError{Method: "GET", URL: "http://x", Err: errors.New("connection refused")}, "cannot be reached"},
		{fmt.Errorf("keyring: %w", ErrKeyringUnavailable), "sign in again"},
		{fmt.Errorf("GET x: %w", context.Canceled), "Cancelled"},
		{apiErr, "Proposal 12 is Accepted"},
	} {
		if got := Explain(c.err); !strings.Contains(got, c.want) {
			t.Errorf("Explain(%v) = %q, want it to mention %q", c.err, got, c.want)
		}
	}
}
