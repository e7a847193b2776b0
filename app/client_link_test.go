package app

import (
	"strings"
	"testing"
	"time"
)

func TestStateOfLink(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	link := &ClientLink{ID: "L1", ExpiresOn: At(now.Add(time.Hour))}
	expired := &ClientLink{ID: "L1", ExpiresOn: At(now)}
	for _, tc := range []struct {
		name   string
		status Status
		link   *ClientLink
		linkID string
		want   LinkState
	}{
		{"fresh", StatusSubmitted, link, "L1", LinkOpen},
		{"viewed", StatusViewedByClient, link, "L1", LinkOpen},
		{"mail refused, link copied by hand", StatusEmailFailed, link, "L1", LinkOpen},
		{"another link now", StatusSubmitted, link, "L0", LinkReplaced},
		{"no link at all", StatusSubmitted, nil, "L1", LinkReplaced},
		{"replaced wins over decided", StatusAccepted, link, "L0", LinkReplaced},
		{"accepted", StatusAccepted, link, "L1", LinkAccepted},
		{"accepted stays after the date", StatusAccepted, expired, "L1", LinkAccepted},
		{"declined", StatusDeclined, link, "L1", LinkDeclined},
		{"expired by the scheduler", StatusExpired, link, "L1", LinkExpired},
		{"expired before the scheduler ran", StatusViewedByClient, expired, "L1", LinkExpired},
		{"office moved it back to draft", StatusDraft, link, "L1", LinkClosed},
		{"delayed", StatusDelayed, link, "L1", LinkClosed},
		{"completed", StatusCompleted, link, "L1", LinkClosed},
	} {
		p := &Proposal{Document: Document{Status: tc.status}, ClientLink: tc.link}
		if got := StateOfLink(p, tc.linkID, now); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestExpiryDue(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		status  Status
		expires time.Time
		want    bool
	}{
		{"past, undecided", StatusSubmitted, now.Add(-time.Second), true},
		{"exactly now", StatusViewedByClient, now, true},
		{"mail failed, past", StatusEmailFailed, now.Add(-time.Hour), true},
		{"not yet", StatusSubmitted, now.Add(time.Second), false},
		{"accepted", StatusAccepted, now.Add(-time.Hour), false},
		{"declined", StatusDeclined, now.Add(-time.Hour), false},
		{"already expired: runs once", StatusExpired, now.Add(-time.Hour), false},
		{"back in draft", StatusDraft, now.Add(-time.Hour), false},
	} {
		p := &Proposal{Document: Document{Status: tc.status}, ClientLink: &ClientLink{ID: "x", ExpiresOn: At(tc.expires)}}
		if got := ExpiryDue(p, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if ExpiryDue(&Proposal{Document: Document{Status: StatusSubmitted}}, now) {
		t.Error("a proposal never sent is due to expire")
	}
}

func TestCheckSend(t *testing.T) {
	for _, st := range []Status{StatusDraft, StatusSubmitted, StatusViewedByClient, StatusDelayed, StatusEmailFailed, StatusExpired} {
		p := richProposal()
		p.Status = st
		if err := CheckSend(p); err != nil {
			t.Errorf("%s: %v", st, err)
		}
	}
	for _, st := range []Status{StatusAccepted, StatusDeclined, StatusCompleted, StatusUndefined} {
		p := richProposal()
		p.Status = st
		if KindOf(CheckSend(p)) != KindInvalidTransition {
			t.Errorf("%s: sent", st)
		}
	}
	p := richProposal()
	p.Customer = nil
	if KindOf(CheckSend(p)) != KindNoContactAssigned {
		t.Error("sent without a customer")
	}
}

func TestClientSnapshotHidesDealerOnly(t *testing.T) {
	p := richProposal()
	p.InternalNotes = "SECRET-INTERNAL"
	p.Areas[0].Options[0].InstallerDescription = "SECRET-INSTALLER"
	doc, hash, err := ClientSnapshotJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"SECRET-INTERNAL", "SECRET-INSTALLER", `"cost":1`, `"cost":2`, `"cost":0`} {
		if strings.Contains(string(doc), bad) {
			t.Errorf("snapshot holds %s", bad)
		}
	}
	if p.InternalNotes != "SECRET-INTERNAL" {
		t.Error("the snapshot changed the proposal")
	}
	back, err := ReadClientSnapshot(doc, hash)
	if err != nil {
		t.Fatal(err)
	}
	if back.Name != p.Name || len(back.Areas) != len(p.Areas) {
		t.Errorf("snapshot read back as %q with %d areas", back.Name, len(back.Areas))
	}
	doc[len(doc)-2] ^= 1
	if _, err := ReadClientSnapshot(doc, hash); err == nil {
		t.Error("a changed snapshot was read")
	}
	_, again, _ := ClientSnapshotJSON(p)
	if again != hash {
		t.Error("the same proposal froze to another hash")
	}
}

func TestChoicesMoveTheTotal(t *testing.T) {
	snap := ClientSnapshot(richProposal())
	before := Summarize(&WithChoices(snap, nil).Document).Total
	after := Summarize(&WithChoices(snap, map[int64]int64{11: 22}).Document).Total
	if before == after {
		t.Errorf("choosing the other option kept the total at %v", before)
	}
	if got := Summarize(&WithChoices(snap, map[int64]int64{11: 999}).Document).Total; got != before {
		t.Errorf("a choice of no option of the area changed the total to %v", got)
	}
	if CheckChoice(snap, 11, 22) != nil || CheckChoice(snap, 11, 23) == nil || CheckChoice(snap, 99, 22) == nil {
		t.Error("CheckChoice accepts other areas' options or refuses the area's own")
	}
}

func TestClientAcceptedSelectsChosen(t *testing.T) {
	p := richProposal()
	snap := ClientSnapshot(p)
	now := time.Date(2026, 11, 20, 14, 2, 0, 0, time.UTC)
	ClientAccepted(p, snap, map[int64]int64{11: 22}, now)
	if p.Status != StatusAccepted || !p.ClientLastDecisionDate.Equal(now) {
		t.Errorf("status %s at %v", p.Status, p.ClientLastDecisionDate)
	}
	want := map[int64]OptionStatus{21: OptionDeclined, 22: OptionSelected, 23: OptionSelected}
	for id, st := range want {
		if o, _ := p.Option(id); o.Status != st {
			t.Errorf("option %d is %s, want %s", id, o.Status, st)
		}
	}
}

func TestEventChain(t *testing.T) {
	at := time.Date(2026, 11, 20, 14, 2, 0, 0, time.UTC)
	var events []Event
	for i, typ := range []EventType{EventSent, EventOpened, EventAccepted} {
		var prev *Event
		if i > 0 {
			prev = &events[i-1]
		}
		e, err := ChainEvent(7, prev, Event{Type: typ, At: At(at.Add(time.Duration(i) * time.Minute)), Actor: ActorClient,
			Data: map[string]string{"linkId": "L1"}})
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	if err := VerifyEvents(7, events); err != nil {
		t.Fatalf("a fresh chain: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func([]Event) []Event
	}{
		{"edited data", func(es []Event) []Event { es[1].Data["linkId"] = "L2"; return es }},
		{"edited time", func(es []Event) []Event { es[0].At = At(es[0].At.Add(time.Second)); return es }},
		{"removed", func(es []Event) []Event { return append(es[:1], es[2:]...) }},
		{"last removed and rehashed is not caught, first removed is", func(es []Event) []Event { return es[1:] }},
		{"rehashed after an edit", func(es []Event) []Event {
			es[1].IP = "10.0.0.1"
			es[1].Hash, _ = EventHash(7, es[1])
			return es
		}},
	} {
		c := make([]Event, len(events))
		for i, e := range events {
			e.Data = map[string]string{"linkId": e.Data["linkId"]}
			c[i] = e
		}
		if err := VerifyEvents(7, tc.change(c)); err == nil {
			t.Errorf("%s: the chain still verifies", tc.name)
		}
	}
	if VerifyEvents(8, events) == nil {
		t.Error("another proposal's chain verifies as this one's")
	}
}

func TestOpenToRecord(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		status Status
		last   time.Time
		want   bool
	}{
		{"never opened", StatusViewedByClient, time.Time{}, true},
		{"first open moves Submitted", StatusSubmitted, now.Add(-time.Second), true},
		{"reload a second later", StatusViewedByClient, now.Add(-time.Second), false},
		{"just under a minute", StatusViewedByClient, now.Add(-OpenCoalesce + time.Millisecond), false},
		{"a minute later", StatusViewedByClient, now.Add(-OpenCoalesce), true},
		{"a day later, decided", StatusAccepted, now.AddDate(0, 0, -1), true},
		{"clock went back", StatusViewedByClient, now.Add(time.Hour), true},
	} {
		p := &Proposal{Document: Document{Status: tc.status, ClientLastOpenedDate: At(tc.last)}}
		if got := OpenToRecord(p, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
