package app_test

import (
	"errors"
	"testing"

	"proposaldesk/app"
)

// failingDirectory is the fixture directory with one lookup that fails to
// read, as a database that timed out does.
type failingDirectory struct {
	*fixtureDirectory
	fail string // the method that fails
	err  error
}

func (d *failingDirectory) User(id int64) (app.User, bool, error) {
	if d.fail == "User" {
		return app.User{}, false, d.err
	}
	return d.fixtureDirectory.User(id)
}

func (d *failingDirectory) Contact(id int64) (app.Contact, bool, error) {
	if d.fail == "Contact" {
		return app.Contact{}, false, d.err
	}
	return d.fixtureDirectory.Contact(id)
}

func (d *failingDirectory) Location(id int64) (app.ContactLocation, bool, error) {
	if d.fail == "Location" {
		return app.ContactLocation{}, false, d.err
	}
	return d.fixtureDirectory.Location(id)
}

func (d *failingDirectory) ContactLocations(contactID int64) ([]app.ContactLocation, error) {
	if d.fail == "ContactLocations" {
		return nil, d.err
	}
	return d.fixtureDirectory.ContactLocations(contactID)
}

// A directory that cannot be read makes the edit fail with that error,
// not with NotFound: the client retries the one and records the other
// as a refusal for good.
func TestApplyPassesDirectoryErrorsOn(t *testing.T) {
	sp := int64(fixtureAdmin.ID)
	cases := []struct {
		fail string
		m    app.Mutation
	}{
		{"User", &app.CreateProposal{SalesPersonID: fixtureSales.ID}},
		{"User", &app.UpdateProposal{ID: fixtureProposalID, SalesPersonID: &sp}},
		{"Contact", &app.AssignContact{ID: fixtureProposalID, ContactID: contactOnePrimary}},
		{"ContactLocations", &app.AssignContact{ID: fixtureProposalID, ContactID: contactOnePrimary}},
		{"Location", &app.AssignLocation{ID: fixtureProposalID, LocationID: locNY}},
	}
	for _, tc := range cases {
		t.Run(string(tc.m.Kind())+"/"+tc.fail, func(t *testing.T) {
			cause := app.Errorf(app.KindUnavailable, "the database is unavailable")
			env := fixtureEnv(fixtureSales)
			env.Directory = &failingDirectory{fixtureDirectory: newFixtureDirectory(), fail: tc.fail, err: cause}
			got, err := app.Apply(fixtureTarget(tc.m, app.StatusDraft), tc.m, env)
			if !errors.Is(err, cause) || app.KindOf(err) != app.KindUnavailable {
				t.Fatalf("Apply = %v (kind %s), want the directory's error (kind %s)", err, app.KindOf(err), app.KindUnavailable)
			}
			if got != nil {
				t.Errorf("Apply returned a proposal beside its error")
			}
		})
	}
}
