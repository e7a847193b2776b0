package localstore

import (
	"testing"

	"proposaldesk/app"
)

// A queued send outlives a restart, stays out of the replay of the
// proposal's edits (an edit queued after it is applied and acknowledged
// as usual), replaces a newer request while it waits, and AckSend keeps
// the link and the server's copy.
func TestQueuedSend(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Kitchen")
	if _, err := s.QueueSend(ctx, p.ID, SendRequest{}, envAt(1, sales)); app.KindOf(err) != app.KindNoContactAssigned {
		t.Fatalf("send without a customer: %v", err)
	}
	if _, err := s.Edit(ctx, p.ID, &app.AssignContact{ID: p.ID, ContactID: acme.ID}, envAt(2, sales)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.QueueSend(ctx, p.ID, SendRequest{To: "ann at example"}, envAt(3, sales)); app.KindOf(err) != app.KindValidationFailed {
		t.Fatalf("send to a bad address: %v", err)
	}
	first, err := s.QueueSend(ctx, p.ID, SendRequest{Message: "first"}, envAt(3, sales))
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.QueueSend(ctx, p.ID, SendRequest{Message: "second"}, envAt(4, sales))
	if err != nil || again.Seq != first.Seq {
		t.Fatalf("second send while the first waits: seq %d (first %d), %v", again.Seq, first.Seq, err)
	}
	name := "Kitchen and den"
	if _, err := s.Edit(ctx, p.ID, &app.UpdateProposal{ID: p.ID, Name: &name}, envAt(5, sales)); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	e, ok, err := s.QueuedSend(p.ID)
	if err != nil || !ok || e.Send.Message != "second" || e.State != StatePending {
		t.Fatalf("after a restart: %+v %v %v", e, ok, err)
	}
	rec, err := s.Record(p.ID)
	if err != nil || rec.Local.Name != name {
		t.Fatalf("local view %v %v", rec, err)
	}

	// The server acknowledges the edits, then the send.
	pend, err := s.Pending(0)
	if err != nil {
		t.Fatal(err)
	}
	var sendSeq uint64
	for _, e := range pend {
		if e.Kind == EntrySend {
			sendSeq = e.Seq
			continue
		}
		if err := f.send(t, s, e); err != nil {
			t.Fatal(err)
		}
	}
	sp := f.props[p.ID].Clone()
	sp.Status = app.StatusSubmitted
	sp.Version++
	sp.ClientLink = &app.ClientLink{ID: "link1", SentTo: []string{acme.ContactEmail}, Mail: app.MailNotSent}
	if err := s.AckSend(ctx, sendSeq, sp, "https://desk.test/c/1.2.secret", t0); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.QueuedSend(p.ID); ok {
		t.Fatal("the send is still queued after its acknowledgement")
	}
	l, ok, err := s.SavedLink(p.ID)
	if err != nil || !ok || l.URL != "https://desk.test/c/1.2.secret" || l.LinkID != "link1" {
		t.Fatalf("saved link %+v %v %v", l, ok, err)
	}
	rec, err = s.Record(p.ID)
	if err != nil || rec.Local.Status != app.StatusSubmitted || rec.Local.Name != name {
		t.Fatalf("after the send: %+v %v", rec.Local, err)
	}
	if c, err := s.Counts(); err != nil || c.Pending != 0 {
		t.Fatalf("counts %+v %v", c, err)
	}
}
