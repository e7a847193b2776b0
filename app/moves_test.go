package app_test

import (
	"testing"

	"proposaldesk/app"
)

func TestDecisiveMoves(t *testing.T) {
	for _, s := range app.Statuses {
		want := s == app.StatusAccepted || s == app.StatusDeclined || s == app.StatusCompleted
		if s.Decisive() != want {
			t.Errorf("%s: Decisive %v", s, s.Decisive())
		}
	}
}

func TestMoveWarnings(t *testing.T) {
	bare := fixtureProposal(app.StatusSubmitted)
	bare.Customer = nil
	bare.Areas = nil
	if got := app.MoveWarnings(bare); len(got) != 2 || got[0] != "It has no customer." || got[1] != "Its total is zero." {
		t.Errorf("bare proposal: %q", got)
	}
	full := fixtureProposalWithContact(app.StatusSubmitted, contactOnePrimary, locCA)
	if got := app.MoveWarnings(full); len(got) != 0 {
		t.Errorf("full proposal: %q", got)
	}
	noLoc := fixtureProposalWithContact(app.StatusSubmitted, contactNoLocation, 0)
	if got := app.MoveWarnings(noLoc); len(got) != 1 {
		t.Errorf("no location: %q", got)
	}
}
