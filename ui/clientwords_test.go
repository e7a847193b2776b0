package ui

import (
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

func TestAgoWords(t *testing.T) {
	now := time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{
		{10 * time.Second, "just now"},
		{time.Minute, "1 minute ago"},
		{59 * time.Minute, "59 minutes ago"},
		{2*time.Hour + 59*time.Minute, "2 hours ago"},
		{25 * time.Hour, "1 day ago"},
		{72 * time.Hour, "3 days ago"},
	} {
		if got := agoWords(now.Add(-c.ago), now); got != c.want {
			t.Errorf("%v ago: %q, want %q", c.ago, got, c.want)
		}
	}
	if got := viewedWords(app.Time{}, now); got != "" {
		t.Errorf("never opened: %q", got)
	}
}

func TestRefusalWords(t *testing.T) {
	at := time.Date(2026, 11, 26, 14, 2, 30, 0, time.UTC)
	accepted := []app.Event{{Type: app.EventSent}, {Type: app.EventOpened}, {Type: app.EventAccepted, At: app.At(at)}}
	declined := []app.Event{{Type: app.EventDeclined, At: app.At(at)}}
	locked := &localstore.Entry{ErrorKind: app.KindProposalLocked, ErrorMessage: "proposal 7 is Accepted and can no longer be edited"}
	other := &localstore.Entry{ErrorKind: app.KindValidationFailed, ErrorMessage: "Name is too long"}
	acc := &app.Proposal{}
	acc.Status = app.StatusAccepted
	dec := &app.Proposal{}
	dec.Status = app.StatusDeclined
	for _, c := range []struct {
		name   string
		e      *localstore.Entry
		server *app.Proposal
		events []app.Event
		want   string
	}{
		{"client accepted", locked, acc, accepted, "The client accepted this proposal at 14:02; your change was not applied."},
		{"client declined", locked, dec, declined, "The client declined this proposal at 14:02; your change was not applied."},
		{"accepted in the office", locked, acc, nil, "The server said: Proposal 7 is Accepted and can no longer be edited."},
		{"another refusal", other, acc, accepted, "The server said: Name is too long."},
		{"no server copy", locked, nil, accepted, "The server said: Proposal 7 is Accepted and can no longer be edited."},
	} {
		if got := refusalWords(c.e, c.server, c.events, time.UTC); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
