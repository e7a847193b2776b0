package app_test

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

// mutationCase is one Apply call and its expected verdict.
type mutationCase struct {
	name  string
	p     *app.Proposal // input; nil for a create or a missing proposal
	actor *app.User     // nil: the Sales user
	env   func(*app.Env)
	m     app.Mutation
	want  app.Kind // "" for success
	field string   // for ValidationFailed: the field the error names
	check func(t *testing.T, got *app.Proposal)
}

// runMutationCases applies each case and checks what every Apply must
// do: the error kind, an untouched input (also after the result is
// edited), and on success the version and last-modified stamps.
func runMutationCases(t *testing.T, cases []mutationCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			actor := fixtureSales
			if tc.actor != nil {
				actor = *tc.actor
			}
			env := fixtureEnv(actor)
			if tc.env != nil {
				tc.env(&env)
			}
			before := fixtureJSON(t, tc.p)
			got, err := app.Apply(tc.p, tc.m, env)
			if after := fixtureJSON(t, tc.p); after != before {
				t.Fatalf("Apply changed its input proposal\nbefore %s\nafter  %s", before, after)
			}
			if tc.want != "" {
				if err == nil {
					t.Fatalf("Apply succeeded, want %s", tc.want)
				}
				if k := app.KindOf(err); k != tc.want {
					t.Fatalf("KindOf(%v) = %s, want %s", err, k, tc.want)
				}
				if got != nil {
					t.Errorf("Apply returned a proposal with its error")
				}
				if tc.field != "" {
					assertNamesField(t, err, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v (kind %s), want success", err, app.KindOf(err))
			}
			if got == nil || got == tc.p {
				t.Fatalf("Apply returned %p for input %p, want a new proposal", got, tc.p)
			}
			wantVersion := int64(1)
			if tc.p != nil && got.ID == tc.p.ID { // not a copy
				wantVersion = tc.p.Version + 1
			}
			if got.Version != wantVersion {
				t.Errorf("Version = %d, want %d", got.Version, wantVersion)
			}
			if !got.LastModifiedDate.Equal(fixtureStamp.Time) || !got.LastModifiedByUserDate.Equal(fixtureStamp.Time) {
				t.Errorf("LastModifiedDate %v, LastModifiedByUserDate %v, want both %v",
					got.LastModifiedDate, got.LastModifiedByUserDate, fixtureStamp)
			}
			if got.LastModifiedDate.Location() != nil && got.LastModifiedDate.Location().String() != "UTC" {
				t.Errorf("LastModifiedDate is in %v, want UTC", got.LastModifiedDate.Location())
			}
			if want := (app.PersonName{FirstName: actor.FirstName, LastName: actor.LastName}); got.LastModifiedUser != want {
				t.Errorf("LastModifiedUser = %+v, want %+v", got.LastModifiedUser, want)
			}
			if tc.check != nil {
				tc.check(t, got)
			}
			scribble(got)
			if after := fixtureJSON(t, tc.p); after != before {
				t.Fatalf("editing Apply's result changed its input: they share memory\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// scribble changes everything reachable from p, to expose memory shared
// with another proposal.
func scribble(p *app.Proposal) {
	p.Name += "!"
	for i := range p.Areas {
		p.Areas[i].Name += "!"
		for j := range p.Areas[i].Options {
			o := &p.Areas[i].Options[j]
			o.ClientDescription += "!"
			for k := range o.Items {
				o.Items[k].Name += "!"
				if o.Items[k].Cost != nil {
					*o.Items[k].Cost += 1
				}
			}
		}
	}
	if p.Customer != nil {
		p.Customer.FirstName += "!"
		if p.Customer.Location != nil {
			p.Customer.Location.Street += "!"
		}
	}
	if p.Tax.TaxLocation != nil {
		p.Tax.TaxLocation.Street += "!"
	}
	for i := range p.Tax.ApplyTo {
		p.Tax.ApplyTo[i] = app.ApplyFees
	}
	for i := range p.PaymentRequests {
		p.PaymentRequests[i].Amount++
	}
	for i := range p.PaymentSchedule.Payments {
		p.PaymentSchedule.Payments[i].Milestone += "!"
	}
}

func assertNamesField(t *testing.T, err error, field string) {
	t.Helper()
	e, ok := err.(*app.Error)
	if !ok {
		t.Fatalf("error %v is a %T, want *app.Error", err, err)
	}
	for _, f := range e.Fields {
		if f.Field == field {
			return
		}
	}
	t.Errorf("error fields %+v do not name %q", e.Fields, field)
}

func ptr[T any](v T) *T { return &v }

// Strings at and just over the contract's limits, counted in characters:
// "é" is two bytes, so a byte count would reject the at-limit values.
var (
	name200   = strings.Repeat("é", app.MaxNameLength)
	name201   = strings.Repeat("é", app.MaxNameLength+1)
	text100k  = strings.Repeat("ü", app.MaxTextLength)
	text100k1 = strings.Repeat("ü", app.MaxTextLength+1)
	badUTF8   = "ab\xffcd"
)

func TestCreateProposal(t *testing.T) {
	runMutationCases(t, []mutationCase{
		{name: "with name", m: &app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: ptr("Lake house")},
			check: func(t *testing.T, got *app.Proposal) {
				if got.ID != firstNewID || got.Number != firstNewNumber {
					t.Errorf("ID, Number = %d, %d; want %d, %d from the env's allocators", got.ID, got.Number, firstNewID, firstNewNumber)
				}
				if got.Name != "Lake house" || got.Status != app.StatusDraft {
					t.Errorf("Name, Status = %q, %s", got.Name, got.Status)
				}
				if !got.CreatedDate.Equal(fixtureStamp.Time) {
					t.Errorf("CreatedDate = %v, want %v", got.CreatedDate, fixtureStamp)
				}
				if got.SalesPerson != fixtureSales.Salesperson() {
					t.Errorf("SalesPerson = %+v", got.SalesPerson)
				}
				if got.Currency != app.USD || got.Dealer.CompanyName != "Sound & Vision" || got.ProjectTerms != "Net 30" {
					t.Errorf("account defaults not copied: %+v %+v %q", got.Currency, got.Dealer, got.ProjectTerms)
				}
				if got.Customer != nil || got.Tax.Status != app.TaxUndefined || len(got.Areas) != 0 {
					t.Errorf("new proposal has customer %v, tax %s, %d areas", got.Customer, got.Tax.Status, len(got.Areas))
				}
			}},
		{name: "without name gets a default", m: &app.CreateProposal{SalesPersonID: fixtureAdmin.ID},
			check: func(t *testing.T, got *app.Proposal) {
				if err := app.CheckName("Name", got.Name); err != nil {
					t.Errorf("default name %q is not a valid name: %v", got.Name, err)
				}
				if got.SalesPerson.ID != fixtureAdmin.ID {
					t.Errorf("SalesPerson = %+v", got.SalesPerson)
				}
			}},
		{name: "desktop temporary ID kept", m: &app.CreateProposal{ID: -5, SalesPersonID: fixtureSales.ID},
			check: func(t *testing.T, got *app.Proposal) {
				if got.ID != -5 {
					t.Errorf("ID = %d, want the preset -5", got.ID)
				}
			}},
		{name: "name of 200 characters", m: &app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: &name200}},
		{name: "viewer", actor: &fixtureViewer, m: &app.CreateProposal{SalesPersonID: fixtureSales.ID}, want: app.KindPermissionDenied},
		{name: "unknown salesperson", m: &app.CreateProposal{SalesPersonID: missingID}, want: app.KindNotFound},
		{name: "no directory", env: func(e *app.Env) { e.Directory = nil },
			m: &app.CreateProposal{SalesPersonID: fixtureSales.ID}, want: app.KindNotFound},
		{name: "no salesperson", m: &app.CreateProposal{}, want: app.KindValidationFailed, field: "SalesPersonId"},
		{name: "empty name", m: &app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: ptr("")}, want: app.KindValidationFailed, field: "Name"},
		{name: "blank name", m: &app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: ptr(" \t ")}, want: app.KindValidationFailed, field: "Name"},
		{name: "name of 201 characters", m: &app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: &name201}, want: app.KindValidationFailed, field: "Name"},
		{name: "invalid UTF-8 name", m: &app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: &badUTF8}, want: app.KindValidationFailed, field: "Name"},
	})
}

func TestUpdateProposal(t *testing.T) {
	draft := func() *app.Proposal { return fixtureProposal(app.StatusDraft) }
	runMutationCases(t, []mutationCase{
		{name: "name only", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("Renamed")},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Name != "Renamed" || got.SalesPerson != fixtureSales.Salesperson() {
					t.Errorf("Name %q, SalesPerson %+v", got.Name, got.SalesPerson)
				}
			}},
		{name: "salesperson only", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, SalesPersonID: ptr(int64(fixtureAdmin.ID))},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Name != "Lake house" || got.SalesPerson != fixtureAdmin.Salesperson() {
					t.Errorf("Name %q, SalesPerson %+v", got.Name, got.SalesPerson)
				}
			}},
		{name: "both", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("Both"), SalesPersonID: ptr(int64(fixtureViewer.ID))},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Name != "Both" || got.SalesPerson != fixtureViewer.Salesperson() {
					t.Errorf("Name %q, SalesPerson %+v", got.Name, got.SalesPerson)
				}
			}},
		{name: "neither keeps everything", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Name != "Lake house" || got.SalesPerson != fixtureSales.Salesperson() {
					t.Errorf("Name %q, SalesPerson %+v", got.Name, got.SalesPerson)
				}
			}},
		{name: "viewer", actor: &fixtureViewer, p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("x")}, want: app.KindPermissionDenied},
		{name: "no proposal", m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("x")}, want: app.KindNotFound},
		{name: "other proposal's ID", p: draft(), m: &app.UpdateProposal{ID: otherProposalID, Name: ptr("x")}, want: app.KindNotFound},
		{name: "unknown salesperson", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, SalesPersonID: ptr(int64(missingID))}, want: app.KindNotFound},
		{name: "accepted", p: fixtureProposal(app.StatusAccepted), m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("x")}, want: app.KindProposalLocked},
		{name: "bad salesperson ID", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, SalesPersonID: ptr(int64(-1))}, want: app.KindValidationFailed, field: "SalesPersonId"},
		{name: "empty name", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("")}, want: app.KindValidationFailed, field: "Name"},
		{name: "blank name", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("   ")}, want: app.KindValidationFailed, field: "Name"},
		{name: "name of 201 characters", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: &name201}, want: app.KindValidationFailed, field: "Name"},
		{name: "invalid UTF-8", p: draft(), m: &app.UpdateProposal{ID: fixtureProposalID, Name: &badUTF8}, want: app.KindValidationFailed, field: "Name"},
	})
}

// textCases are the cases every description or notes mutation shares:
// success, clearing, the length limit in characters and bad UTF-8. mk
// builds the mutation for proposal ID id and text s; get reads the field
// back.
func textCases(p func() *app.Proposal, field string, mk func(id int64, s string) app.Mutation, get func(*app.Proposal) string) []mutationCase {
	wantText := func(want string) func(*testing.T, *app.Proposal) {
		return func(t *testing.T, got *app.Proposal) {
			if g := get(got); g != want {
				t.Errorf("%s = %.40q, want %.40q", field, g, want)
			}
		}
	}
	return []mutationCase{
		{name: "set", p: p(), m: mk(fixtureProposalID, "  Stored as sent\n"), check: wantText("  Stored as sent\n")},
		{name: "empty clears", p: p(), m: mk(fixtureProposalID, ""), check: wantText("")},
		{name: "100000 characters", p: p(), m: mk(fixtureProposalID, text100k), check: wantText(text100k)},
		{name: "viewer", actor: &fixtureViewer, p: p(), m: mk(fixtureProposalID, "x"), want: app.KindPermissionDenied},
		{name: "no proposal", m: mk(fixtureProposalID, "x"), want: app.KindNotFound},
		{name: "other proposal's ID", p: p(), m: mk(otherProposalID, "x"), want: app.KindNotFound},
		{name: "100001 characters", p: p(), m: mk(fixtureProposalID, text100k1), want: app.KindValidationFailed, field: field},
		{name: "invalid UTF-8", p: p(), m: mk(fixtureProposalID, badUTF8), want: app.KindValidationFailed, field: field},
	}
}

func TestSetDescription(t *testing.T) {
	p := func() *app.Proposal {
		p := fixtureProposal(app.StatusSubmitted)
		p.ProjectDescription = "old"
		return p
	}
	cases := textCases(p, "Description",
		func(id int64, s string) app.Mutation { return &app.SetDescription{ID: id, Description: s} },
		func(p *app.Proposal) string { return p.ProjectDescription })
	cases = append(cases, mutationCase{name: "declined", p: fixtureProposal(app.StatusDeclined),
		m: &app.SetDescription{ID: fixtureProposalID, Description: "x"}, want: app.KindProposalLocked})
	runMutationCases(t, cases)
}

func TestSetInternalNotes(t *testing.T) {
	p := func() *app.Proposal {
		p := fixtureProposal(app.StatusDraft)
		p.InternalNotes = "old"
		return p
	}
	cases := textCases(p, "InternalNotes",
		func(id int64, s string) app.Mutation { return &app.SetInternalNotes{ID: id, InternalNotes: s} },
		func(p *app.Proposal) string { return p.InternalNotes })
	cases = append(cases, mutationCase{name: "completed still works", p: fixtureProposal(app.StatusCompleted),
		m: &app.SetInternalNotes{ID: fixtureProposalID, InternalNotes: "after"},
		check: func(t *testing.T, got *app.Proposal) {
			if got.InternalNotes != "after" || got.ProjectDescription != "" {
				t.Errorf("InternalNotes %q, ProjectDescription %q", got.InternalNotes, got.ProjectDescription)
			}
		}})
	runMutationCases(t, cases)
}

func TestCreateArea(t *testing.T) {
	draft := func() *app.Proposal { return fixtureProposal(app.StatusDraft) }
	area := func(name string) app.Mutation { return &app.CreateArea{ID: fixtureProposalID, Name: name} }
	taken := func(name string) mutationCase {
		return mutationCase{name: "taken " + name, p: draft(), m: area(name), want: app.KindAreaNameTaken}
	}
	runMutationCases(t, []mutationCase{
		{name: "new area with default option", p: draft(), m: area("Patio"),
			check: func(t *testing.T, got *app.Proposal) {
				if len(got.Areas) != 3 {
					t.Fatalf("%d areas, want 3", len(got.Areas))
				}
				a := got.Areas[2]
				if a.Name != "Patio" || a.ID != firstNewID {
					t.Errorf("area %q with ID %d, want Patio with the first new ID %d", a.Name, a.ID, firstNewID)
				}
				if len(a.Options) != 1 {
					t.Fatalf("%d options, want one default option", len(a.Options))
				}
				o := a.Options[0]
				if o.Status != app.OptionDraft || o.ID != firstNewID+1 || len(o.Items) != 0 {
					t.Errorf("default option %+v, want Draft with ID %d and no items", o, firstNewID+1)
				}
				if !o.LastModifiedDate.Equal(fixtureStamp.Time) {
					t.Errorf("option LastModifiedDate = %v", o.LastModifiedDate)
				}
			}},
		{name: "desktop temporary IDs kept", p: draft(), m: &app.CreateArea{ID: fixtureProposalID, Name: "Patio", AreaID: -1, OptionID: -2},
			check: func(t *testing.T, got *app.Proposal) {
				if a := got.Areas[2]; a.ID != -1 || a.Options[0].ID != -2 {
					t.Errorf("area %d option %d, want -1 and -2", a.ID, a.Options[0].ID)
				}
			}},
		{name: "name stored as sent", p: draft(), m: area("  Den "),
			check: func(t *testing.T, got *app.Proposal) {
				if got.Areas[2].Name != "  Den " {
					t.Errorf("Name = %q", got.Areas[2].Name)
				}
			}},
		{name: "longer name sharing a prefix", p: draft(), m: area("Kitchenette")},
		taken("Kitchen"),
		taken(" kitchen "),
		taken("KITCHEN"),
		taken("\ttheater  "),
		{name: "viewer", actor: &fixtureViewer, p: draft(), m: area("Patio"), want: app.KindPermissionDenied},
		{name: "no proposal", m: area("Patio"), want: app.KindNotFound},
		{name: "locked", p: fixtureProposal(app.StatusCompleted), m: area("Patio"), want: app.KindProposalLocked},
		{name: "empty name", p: draft(), m: area(""), want: app.KindValidationFailed, field: "Name"},
		{name: "blank name", p: draft(), m: area("  "), want: app.KindValidationFailed, field: "Name"},
		{name: "name of 201 characters", p: draft(), m: area(name201), want: app.KindValidationFailed, field: "Name"},
		{name: "invalid UTF-8", p: draft(), m: area(badUTF8), want: app.KindValidationFailed, field: "Name"},
	})
}

func TestCreateOption(t *testing.T) {
	draft := func() *app.Proposal { return fixtureProposal(app.StatusDraft) }
	twoOptions := func() *app.Proposal {
		p := draft()
		p.Areas[0].Options = append(p.Areas[0].Options, app.Option{ID: 602, Status: app.OptionSelected})
		return p
	}
	option := func(area int64) *app.CreateOption {
		return &app.CreateOption{ID: fixtureProposalID, AreaID: area, ClientDescription: "Premium", InternalNotes: "Ladder"}
	}
	runMutationCases(t, []mutationCase{
		{name: "second option", p: draft(), m: option(kitchenAreaID),
			check: func(t *testing.T, got *app.Proposal) {
				opts := got.Areas[0].Options
				if len(opts) != 2 {
					t.Fatalf("%d options, want 2", len(opts))
				}
				o := opts[1]
				if o.ID != firstNewID || o.Status != app.OptionDraft || o.ClientDescription != "Premium" || o.InstallerDescription != "Ladder" {
					t.Errorf("new option %+v", o)
				}
				if !o.LastModifiedDate.Equal(fixtureStamp.Time) {
					t.Errorf("option LastModifiedDate = %v", o.LastModifiedDate)
				}
			}},
		{name: "third option", p: twoOptions(), m: option(kitchenAreaID),
			check: func(t *testing.T, got *app.Proposal) {
				if n := len(got.Areas[0].Options); n != 3 {
					t.Errorf("%d options, want 3", n)
				}
			}},
		{name: "without descriptions", p: draft(), m: &app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID}},
		{name: "desktop temporary ID kept", p: draft(), m: &app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID, OptionID: -9},
			check: func(t *testing.T, got *app.Proposal) {
				if id := got.Areas[0].Options[1].ID; id != -9 {
					t.Errorf("option ID %d, want -9", id)
				}
			}},
		{name: "fourth option", p: draft(), m: option(theaterAreaID), want: app.KindOptionLimitReached},
		{name: "viewer", actor: &fixtureViewer, p: draft(), m: option(kitchenAreaID), want: app.KindPermissionDenied},
		{name: "no proposal", m: option(kitchenAreaID), want: app.KindNotFound},
		{name: "unknown area", p: draft(), m: option(missingID), want: app.KindNotFound},
		{name: "area of another proposal", p: draft(), m: option(otherAreaID), want: app.KindNotFound},
		{name: "locked", p: fixtureProposal(app.StatusAccepted), m: option(kitchenAreaID), want: app.KindProposalLocked},
		{name: "client description too long", p: draft(), m: &app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID, ClientDescription: text100k1},
			want: app.KindValidationFailed, field: "ClientDescription"},
		{name: "installer notes too long", p: draft(), m: &app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID, InternalNotes: text100k1},
			want: app.KindValidationFailed, field: "InternalNotes"},
		{name: "invalid UTF-8", p: draft(), m: &app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID, ClientDescription: badUTF8},
			want: app.KindValidationFailed, field: "ClientDescription"},
	})
}

// optionTextCases are the cases of operations 11 and 12.
func optionTextCases(field string, mk func(option int64, s string) app.Mutation, get func(*app.Option) string) []mutationCase {
	draft := func() *app.Proposal { return fixtureProposal(app.StatusViewedByClient) }
	wantText := func(option int64, want string) func(*testing.T, *app.Proposal) {
		return func(t *testing.T, got *app.Proposal) {
			o, ok := got.Option(option)
			if !ok {
				t.Fatalf("option %d gone", option)
			}
			if g := get(o); g != want {
				t.Errorf("%s = %.40q, want %.40q", field, g, want)
			}
			if !o.LastModifiedDate.Equal(fixtureStamp.Time) {
				t.Errorf("option LastModifiedDate = %v, want %v", o.LastModifiedDate, fixtureStamp)
			}
		}
	}
	return []mutationCase{
		{name: "set", p: draft(), m: mk(kitchenOptionID, "New text"), check: wantText(kitchenOptionID, "New text")},
		{name: "option of a second area", p: draft(), m: mk(theaterOption1+2, "Third"), check: wantText(theaterOption1+2, "Third")},
		{name: "empty clears", p: draft(), m: mk(kitchenOptionID, ""), check: wantText(kitchenOptionID, "")},
		{name: "100000 characters", p: draft(), m: mk(kitchenOptionID, text100k), check: wantText(kitchenOptionID, text100k)},
		{name: "viewer", actor: &fixtureViewer, p: draft(), m: mk(kitchenOptionID, "x"), want: app.KindPermissionDenied},
		{name: "no proposal", m: mk(kitchenOptionID, "x"), want: app.KindNotFound},
		{name: "unknown option", p: draft(), m: mk(missingID, "x"), want: app.KindNotFound},
		{name: "option of another proposal", p: draft(), m: mk(otherOptionID, "x"), want: app.KindNotFound},
		{name: "area ID is not an option ID", p: draft(), m: mk(kitchenAreaID, "x"), want: app.KindNotFound},
		{name: "locked", p: fixtureProposal(app.StatusDeclined), m: mk(kitchenOptionID, "x"), want: app.KindProposalLocked},
		{name: "100001 characters", p: draft(), m: mk(kitchenOptionID, text100k1), want: app.KindValidationFailed, field: field},
		{name: "invalid UTF-8", p: draft(), m: mk(kitchenOptionID, badUTF8), want: app.KindValidationFailed, field: field},
	}
}

func TestSetOptionClientDescription(t *testing.T) {
	runMutationCases(t, optionTextCases("ClientDescription",
		func(o int64, s string) app.Mutation {
			return &app.SetOptionClientDescription{ID: fixtureProposalID, OptionID: o, ClientDescription: s}
		},
		func(o *app.Option) string { return o.ClientDescription }))
}

func TestSetOptionInstallerNotes(t *testing.T) {
	runMutationCases(t, optionTextCases("InstallerNotes",
		func(o int64, s string) app.Mutation {
			return &app.SetOptionInstallerNotes{ID: fixtureProposalID, OptionID: o, InstallerNotes: s}
		},
		func(o *app.Option) string { return o.InstallerDescription }))
}

// wantTax checks the customer's location and the tax it gives.
func wantTax(locationID int64, status app.TaxStatus, rate string) func(*testing.T, *app.Proposal) {
	return func(t *testing.T, got *app.Proposal) {
		t.Helper()
		if got.Customer == nil {
			t.Fatal("no customer")
		}
		if locationID == 0 {
			if got.Customer.Location != nil || got.Tax.TaxLocation != nil {
				t.Errorf("location %+v, tax location %+v; want none", got.Customer.Location, got.Tax.TaxLocation)
			}
		} else {
			if got.Customer.Location == nil || got.Customer.Location.ID != locationID {
				t.Errorf("customer location %+v, want ID %d", got.Customer.Location, locationID)
			}
			if got.Tax.TaxLocation == nil || got.Tax.TaxLocation.ID != locationID {
				t.Errorf("tax location %+v, want ID %d", got.Tax.TaxLocation, locationID)
			}
		}
		if got.Tax.Status != status {
			t.Errorf("tax status %s, want %s", got.Tax.Status, status)
		}
		if rate != "" && got.Tax.Parts.Rate != app.MustRate(rate) {
			t.Errorf("parts tax rate %s, want %s", got.Tax.Parts.Rate, rate)
		}
	}
}

func TestAssignContact(t *testing.T) {
	assign := func(contact int64) app.Mutation { return &app.AssignContact{ID: fixtureProposalID, ContactID: contact} }
	dealerTaxed := fixtureProposal(app.StatusAccepted)
	dealerTaxed.Tax.Method = app.TaxDealerLocation
	dealerTaxed.Dealer.Location = app.Location{City: "Duluth", State: "Minnesota", StateAbbrev: "MN"}
	runMutationCases(t, []mutationCase{
		{name: "one primary location brings its tax", p: fixtureProposal(app.StatusDraft), m: assign(contactOnePrimary),
			check: func(t *testing.T, got *app.Proposal) {
				if got.Customer == nil || got.Customer.ID != contactOnePrimary || got.Customer.LastName != "Client" {
					t.Fatalf("customer %+v", got.Customer)
				}
				wantTax(locCA, app.TaxOK, "7.25")(t, got)
			}},
		{name: "no locations", p: fixtureProposal(app.StatusDraft), m: assign(contactNoLocation), check: wantTax(0, app.TaxUndefined, "")},
		{name: "two primary locations", p: fixtureProposal(app.StatusDraft), m: assign(contactTwoPrimaries), check: wantTax(0, app.TaxUndefined, "")},
		{name: "no primary location", p: fixtureProposal(app.StatusDraft), m: assign(contactNoPrimary), check: wantTax(0, app.TaxUndefined, "")},
		{name: "primary location outside the table", p: fixtureProposal(app.StatusDraft), m: assign(contactForeign), check: wantTax(locOntario, app.TaxUnavailable, "")},
		{name: "replaces a contact and its location", p: fixtureProposalWithContact(app.StatusDraft, contactOnePrimary, locNY), m: assign(contactNoLocation),
			check: func(t *testing.T, got *app.Proposal) {
				if got.Customer.ID != contactNoLocation {
					t.Errorf("customer %d, want %d", got.Customer.ID, contactNoLocation)
				}
				wantTax(0, app.TaxUndefined, "")(t, got)
			}},
		{name: "dealer-location tax ignores the contact's", p: dealerTaxed, m: assign(contactNoLocation),
			check: func(t *testing.T, got *app.Proposal) {
				if got.Customer.Location != nil {
					t.Errorf("customer location %+v, want none", got.Customer.Location)
				}
				if tl := got.Tax.TaxLocation; tl == nil || tl.StateAbbrev != "MN" || got.Tax.Status != app.TaxOK || got.Tax.Parts.Rate != app.MustRate("6.875") {
					t.Errorf("tax %s at %s in %+v, want Ok at MN's 6.875", got.Tax.Status, got.Tax.Parts.Rate, tl)
				}
			}},
		{name: "viewer", actor: &fixtureViewer, p: fixtureProposal(app.StatusDraft), m: assign(contactOnePrimary), want: app.KindPermissionDenied},
		{name: "no proposal", m: assign(contactOnePrimary), want: app.KindNotFound},
		{name: "unknown contact", p: fixtureProposal(app.StatusDraft), m: assign(missingID), want: app.KindNotFound},
		{name: "no directory", env: func(e *app.Env) { e.Directory = nil }, p: fixtureProposal(app.StatusDraft), m: assign(contactOnePrimary), want: app.KindNotFound},
		{name: "no contact ID", p: fixtureProposal(app.StatusDraft), m: assign(0), want: app.KindValidationFailed, field: "ContactId"},
	})
}

func TestAssignLocation(t *testing.T) {
	withContact := func(contact int64) *app.Proposal {
		return fixtureProposalWithContact(app.StatusSubmitted, contact, 0)
	}
	assign := func(loc int64) app.Mutation { return &app.AssignLocation{ID: fixtureProposalID, LocationID: loc} }
	manual := withContact(contactOnePrimary)
	manual.Tax.Method = app.TaxManual
	manual.Tax.Parts = app.TaxRates{Rate: app.MustRate("5.5"), Name: "Manual"}
	manual.Tax.Status = app.TaxOK
	exempt := withContact(contactOnePrimary)
	exempt.Tax.ApplyTo = []app.ApplyTo{app.ApplyNone}
	runMutationCases(t, []mutationCase{
		{name: "contact's other location", p: fixtureProposalWithContact(app.StatusDraft, contactOnePrimary, locCA), m: assign(locNY),
			check: wantTax(locNY, app.TaxOK, "4")},
		{name: "second primary of a contact with two", p: withContact(contactTwoPrimaries), m: assign(locMN),
			check: wantTax(locMN, app.TaxOK, "6.875")},
		{name: "state given by full name only", p: withContact(contactNoPrimary), m: assign(locOregonFar),
			check: wantTax(locOregonFar, app.TaxOK, "0")},
		{name: "state outside the table", p: withContact(contactForeign), m: assign(locOntario),
			check: wantTax(locOntario, app.TaxUnavailable, "")},
		{name: "manual rates stay", p: manual, m: assign(locNY), check: wantTax(locNY, app.TaxOK, "5.5")},
		{name: "nothing taxed is exempt", p: exempt, m: assign(locNY), check: wantTax(locNY, app.TaxExempt, "")},
		{name: "viewer", actor: &fixtureViewer, p: withContact(contactOnePrimary), m: assign(locNY), want: app.KindPermissionDenied},
		{name: "no proposal", m: assign(locNY), want: app.KindNotFound},
		{name: "unknown location", p: withContact(contactOnePrimary), m: assign(missingID), want: app.KindNotFound},
		{name: "location of another contact", p: withContact(contactOnePrimary), m: assign(locTX), want: app.KindNotFound},
		{name: "no contact assigned", p: fixtureProposal(app.StatusDraft), m: assign(locNY), want: app.KindNoContactAssigned},
		{name: "no location ID", p: withContact(contactOnePrimary), m: assign(0), want: app.KindValidationFailed, field: "LocationId"},
	})
}

func TestChangeStatus(t *testing.T) {
	move := func(s app.Status) app.Mutation { return &app.ChangeStatus{ID: fixtureProposalID, Status: s} }
	wantStatus := func(s app.Status, date func(*app.Proposal) app.Time) func(*testing.T, *app.Proposal) {
		return func(t *testing.T, got *app.Proposal) {
			if got.Status != s {
				t.Errorf("Status = %q, want %q", got.Status, s)
			}
			if date != nil && !date(got).Equal(fixtureStamp.Time) {
				t.Errorf("status date = %v, want %v", date(got), fixtureStamp)
			}
		}
	}
	submitted := func(p *app.Proposal) app.Time { return p.LastSubmittedDate }
	decided := func(p *app.Proposal) app.Time { return p.ClientLastDecisionDate }
	completed := func(p *app.Proposal) app.Time { return p.LastCompletedDate }
	runMutationCases(t, []mutationCase{
		{name: "submit", p: fixtureProposal(app.StatusDraft), m: move(app.StatusSubmitted), check: wantStatus(app.StatusSubmitted, submitted)},
		{name: "accept", p: fixtureProposal(app.StatusViewedByClient), m: move(app.StatusAccepted), check: wantStatus(app.StatusAccepted, decided)},
		{name: "decline", p: fixtureProposal(app.StatusExpired), m: move(app.StatusDeclined), check: wantStatus(app.StatusDeclined, decided)},
		{name: "complete", p: fixtureProposal(app.StatusAccepted), m: move(app.StatusCompleted), check: wantStatus(app.StatusCompleted, completed)},
		{name: "reopen", p: fixtureProposal(app.StatusAccepted), m: move(app.StatusDraft), check: wantStatus(app.StatusDraft, nil)},
		{name: "status in any letter case", p: fixtureProposal(app.StatusDraft), m: move("submitted"), check: wantStatus(app.StatusSubmitted, submitted)},
		{name: "status with spaces", p: fixtureProposal(app.StatusSubmitted), m: move(" DRAFT "), check: wantStatus(app.StatusDraft, nil)},
		{name: "viewer", actor: &fixtureViewer, p: fixtureProposal(app.StatusDraft), m: move(app.StatusSubmitted), want: app.KindPermissionDenied},
		{name: "no proposal", m: move(app.StatusSubmitted), want: app.KindNotFound},
		{name: "disallowed", p: fixtureProposal(app.StatusDraft), m: move(app.StatusAccepted), want: app.KindInvalidTransition},
		{name: "to the same status", p: fixtureProposal(app.StatusDraft), m: move(app.StatusDraft), want: app.KindInvalidTransition},
		{name: "to Undefined", p: fixtureProposal(app.StatusSubmitted), m: move(app.StatusUndefined), want: app.KindInvalidTransition},
		{name: "unknown status", p: fixtureProposal(app.StatusDraft), m: move("Bogus"), want: app.KindValidationFailed, field: "Status"},
		{name: "empty status", p: fixtureProposal(app.StatusDraft), m: move(""), want: app.KindValidationFailed, field: "Status"},
	})
}

// TestApplyPermissions: every mutation needs the edit permission, which
// Sales and Admin have and Viewer lacks, in every status.
func TestApplyPermissions(t *testing.T) {
	for _, m := range fixtureMutations() {
		for _, u := range []app.User{fixtureAdmin, fixtureSales, fixtureViewer} {
			t.Run(string(m.Kind())+"/"+string(u.Role), func(t *testing.T) {
				_, err := app.Apply(fixtureTarget(m, app.StatusDraft), m, fixtureEnv(u))
				if u.Role == app.RoleViewer {
					if k := app.KindOf(err); k != app.KindPermissionDenied {
						t.Errorf("viewer: kind %s (%v), want PermissionDenied", k, err)
					}
				} else if err != nil {
					t.Errorf("%s: %v", u.Role, err)
				}
			})
		}
	}
}

// TestApplyStampsDates: mutations that touch one option stamp only that
// option, and the proposal's created date never moves.
func TestApplyStampsDates(t *testing.T) {
	for _, m := range fixtureMutations() {
		t.Run(string(m.Kind()), func(t *testing.T) {
			p := fixtureTarget(m, app.StatusDraft)
			got, err := app.Apply(p, m, fixtureEnv(fixtureSales))
			if err != nil {
				t.Fatal(err)
			}
			if p == nil || got.ID != p.ID { // a create or a copy
				return
			}
			if !got.CreatedDate.Equal(fixtureCreated.Time) {
				t.Errorf("CreatedDate moved to %v", got.CreatedDate)
			}
			if o, _ := got.Option(theaterOption1); !o.LastModifiedDate.Equal(fixtureCreated.Time) {
				t.Errorf("untouched option stamped %v", o.LastModifiedDate)
			}
		})
	}
}

// TestApplyRepeatedly: successive writes each add one to the version and
// build on the previous result.
func TestApplyRepeatedly(t *testing.T) {
	env := fixtureEnv(fixtureSales)
	p, err := app.Apply(nil, &app.CreateProposal{SalesPersonID: fixtureSales.ID}, env)
	if err != nil {
		t.Fatal(err)
	}
	steps := []app.Mutation{
		&app.CreateArea{ID: p.ID, Name: "Kitchen"},
		&app.CreateArea{ID: p.ID, Name: "Garage"},
		&app.AssignContact{ID: p.ID, ContactID: contactTwoPrimaries},
		&app.AssignLocation{ID: p.ID, LocationID: locTX},
		&app.ChangeStatus{ID: p.ID, Status: app.StatusSubmitted},
	}
	for i, m := range steps {
		if p, err = app.Apply(p, m, env); err != nil {
			t.Fatalf("step %d (%s): %v", i, m.Kind(), err)
		}
		if p.Version != int64(i+2) {
			t.Fatalf("after step %d version %d, want %d", i, p.Version, i+2)
		}
	}
	ids := map[int64]bool{p.ID: true}
	for _, a := range p.Areas {
		for _, id := range []int64{a.ID, a.Options[0].ID} {
			if ids[id] {
				t.Errorf("ID %d allocated twice", id)
			}
			ids[id] = true
		}
	}
	if p.Tax.Status != app.TaxOK || p.Tax.Parts.Rate != app.MustRate("6.25") || p.Status != app.StatusSubmitted {
		t.Errorf("tax %s at %s, status %s", p.Tax.Status, p.Tax.Parts.Rate, p.Status)
	}
}

// goldenMutations are the mutations of testdata/mutations-encoding.jsonl,
// line by line: every kind once, then the desktop's temporary IDs.
func goldenMutations() []app.Mutation {
	all := fixtureMutations()
	out := append(all[:firstVersionKinds:firstVersionKinds],
		&app.CreateProposal{ID: -1, SalesPersonID: 2},
		&app.CreateArea{ID: -1, Name: "Café \"Nook\"", AreaID: -2, OptionID: -3},
		&app.CreateOption{ID: 500, AreaID: 600, OptionID: -4},
	)
	return append(append(out, all[firstVersionKinds:]...),
		&app.AddItem{ID: -1, OptionID: -3, CatalogItemID: ptr(int64(77)), ParentID: ptr(int64(-5)), ItemID: -6},
		&app.CopyProposal{ID: 500, NewIDs: []int64{-7, -8, -9}},
	)
}

func readGolden(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			lines = append(lines, append([]byte(nil), sc.Bytes()...))
		}
	}
	return lines
}

// TestMutationEncodingGolden holds the encoding of every mutation to the
// golden file: a desktop's outbox keeps mutations in it across upgrades.
// -update rewrites the file from goldenMutations; a line that changes is
// an outbox entry an older desktop wrote that the new one must still
// decode, so keep the old line's decoding working too.
func TestMutationEncodingGolden(t *testing.T) {
	const path = "testdata/mutations-encoding.jsonl"
	ms := goldenMutations()
	if *app.UpdateGolden {
		var out bytes.Buffer
		for _, m := range ms {
			enc, err := app.EncodeMutation(m)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(enc)
			out.WriteByte('\n')
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines := readGolden(t, path)
	if len(lines) != len(ms) {
		t.Fatalf("golden file has %d lines, want %d", len(lines), len(ms))
	}
	for i, m := range ms {
		t.Run(string(m.Kind()), func(t *testing.T) {
			enc, err := app.EncodeMutation(m)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc, lines[i]) {
				t.Errorf("encoding changed\n got  %s\n want %s", enc, lines[i])
			}
			again, _ := app.EncodeMutation(m)
			if !bytes.Equal(enc, again) {
				t.Errorf("encoding is not stable: %s then %s", enc, again)
			}
			dec, err := app.DecodeMutation(lines[i])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(dec, m) {
				t.Errorf("decoded %#v, want %#v", dec, m)
			}
			if dec.Kind() != m.Kind() || dec.Operation() != m.Operation() || dec.ProposalID() != m.ProposalID() {
				t.Errorf("decoded kind %s op %s proposal %d", dec.Kind(), dec.Operation(), dec.ProposalID())
			}
		})
	}
}

// TestMutationKindsCovered: the fixtures hold every mutation kind exactly
// once, so the tests above that loop over them cover every kind.
func TestMutationKindsCovered(t *testing.T) {
	want := app.MutationKinds()
	var got []app.MutationKind
	for _, m := range fixtureMutations() {
		got = append(got, m.Kind())
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("fixture kinds %v, want %v", got, want)
	}
	seen := map[app.MutationKind]bool{}
	for _, k := range want {
		if seen[k] {
			t.Errorf("kind %q used twice", k)
		}
		seen[k] = true
	}
}

func TestDecodeMutationErrors(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"unknown kind", `{"kind":"deleteEverything","mutation":{"proposalId":1}}`},
		{"kind in another case", `{"kind":"CreateArea","mutation":{"proposalId":1,"name":"A"}}`},
		{"no kind", `{"mutation":{"proposalId":1}}`},
		{"no mutation", `{"kind":"createArea"}`},
		{"wrong field type", `{"kind":"createArea","mutation":{"proposalId":"one","name":"A"}}`},
		{"mutation not an object", `{"kind":"assignContact","mutation":[1,2]}`},
		{"malformed", `{"kind":"createArea","mutation":`},
		{"not an object", `"createArea"`},
		{"empty", ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := app.DecodeMutation([]byte(tc.data))
			if err == nil {
				t.Errorf("DecodeMutation(%s) = %#v, want an error", tc.data, m)
			}
		})
	}
}
