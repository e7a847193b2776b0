package app

import "testing"

func TestEvidenceEventWebhook(t *testing.T) {
	want := map[EventType]WebhookEventType{
		EventSent:             EventProposalSent,
		EventOpened:           EventProposalViewed,
		EventAccepted:         EventProposalAccepted,
		EventAcceptedInPerson: EventProposalAccepted,
		EventDeclined:         EventProposalDeclined,
		EventExpired:          EventProposalExpired,
		EventEmailFailed:      EventProposalEmailFailed,
	}
	for _, e := range EventTypes {
		got, ok := e.Webhook()
		w, wantOK := want[e]
		if ok != wantOK || got != w {
			t.Errorf("%s.Webhook() = %q, %v; want %q, %v", e, got, ok, w, wantOK)
		}
	}
}
