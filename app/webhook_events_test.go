package app_test

import (
	"slices"
	"testing"

	"proposaldesk/app"
)

// TestEveryKindSaysItsEvents walks every registered kind of edit: each
// says in its own file which webhook events it causes, and only known
// ones, so a new kind cannot be added without deciding.
func TestEveryKindSaysItsEvents(t *testing.T) {
	for _, k := range app.MutationKinds() {
		m, _ := app.NewMutation(k)
		c, ok := m.(app.EventCauser)
		if !ok {
			t.Errorf("%s does not say which events it causes (app.EventCauser)", k)
			continue
		}
		if len(c.Events()) == 0 {
			t.Errorf("%s causes no event: a committed edit must be seen by subscribers", k)
		}
		for _, e := range c.Events() {
			if !slices.Contains(app.WebhookEventTypes, e) {
				t.Errorf("%s causes unknown event %q", k, e)
			}
		}
	}
	if got := app.EventsOf(&app.CreateProposal{}); !slices.Equal(got, []app.WebhookEventType{app.EventProposalCreated}) {
		t.Errorf("create causes %v", got)
	}
	if got := app.EventsOf(&app.ChangeStatus{}); !slices.Equal(got, []app.WebhookEventType{app.EventProposalStatusChanged}) {
		t.Errorf("status change causes %v", got)
	}
}

func TestParseEventTypes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []app.WebhookEventType
		bad  bool
	}{
		{"proposal.created", []app.WebhookEventType{app.EventProposalCreated}, false},
		{" Proposal.Updated , proposal.created,proposal.created", []app.WebhookEventType{app.EventProposalCreated, app.EventProposalUpdated}, false},
		{"proposal.accepted,changeorder.status_changed", []app.WebhookEventType{app.EventProposalAccepted, app.EventChangeOrderStatus}, false},
		{"", nil, true},
		{" , ", nil, true},
		{"proposal.deleted", nil, true},
		{"proposal.created,nope", nil, true},
	} {
		got, err := app.ParseEventTypes("Events", c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: error %v, want error %v", c.in, err, c.bad)
			continue
		}
		if err != nil {
			if app.KindOf(err) != app.KindValidationFailed {
				t.Errorf("%q: error kind %v", c.in, app.KindOf(err))
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.in, got, c.want)
		}
	}
}
