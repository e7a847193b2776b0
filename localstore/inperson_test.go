package localstore

import (
	"bytes"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
)

// A 1×1 PNG, as a drawn signature.
const testSignature = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="

// An acceptance taken here is kept beside its edit, in the same write:
// not at all when the rules refuse it, across a restart when they take
// it, under the server's IDs once its parts made offline are synced, and
// its signed PDF can be made from the store alone, before and after.
func TestAcceptanceKeptBesideTheEdit(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Kitchen table")
	local, err := s.Edit(ctx, p.ID, &app.CreateArea{ID: p.ID, Name: "Den"}, envAt(1, sales))
	if err != nil {
		t.Fatal(err)
	}
	option := local.Areas[0].Options[0].ID
	if !app.IsTemporaryID(option) {
		t.Fatalf("option made offline has ID %d", option)
	}
	hash, err := app.ClientViewHash(local)
	if err != nil {
		t.Fatal(err)
	}
	m := &app.AcceptInPerson{ID: p.ID, SignerName: "Ann Lee", SignatureImage: testSignature, SnapshotHash: strings.Repeat("0", 64),
		SignedAt: "2019-01-01T09:00:00+01:00", DeviceID: "laptop-3", Options: []app.OptionChoice{{AreaID: local.Areas[0].ID, OptionID: option}}}
	before := dump(t, s)
	if _, err := s.Edit(ctx, p.ID, m, envAt(2, sales)); app.KindOf(err) != app.KindProposalChanged {
		t.Fatalf("signed over another view: %v, want ProposalChanged", err)
	}
	if _, ok, _ := s.AcceptanceOf(p.ID); ok {
		t.Fatal("a refused acceptance was kept")
	}
	if after := dump(t, s); len(after) != len(before) {
		t.Fatalf("a refused acceptance wrote %d keys", len(after)-len(before))
	}

	m.SnapshotHash = hash
	if _, err := s.Edit(ctx, p.ID, m, envAt(2, sales)); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	acc, ok, err := s.AcceptanceOf(p.ID)
	if err != nil || !ok || acc.State != AcceptanceQueued || acc.SignatureImage() != testSignature || acc.Seen == nil {
		t.Fatalf("after a restart: %v %v %+v", ok, err, acc.State)
	}
	pdf := func() string {
		var b bytes.Buffer
		if err := acc.SignedPDF(&b); err != nil {
			t.Fatal(err)
		}
		// The drawn signature is on the laptop's certificate too.
		if n := pdftext.Images(t, b.Bytes()); n != 1 {
			t.Errorf("the laptop's signed PDF has %d images, want the signature's 1", n)
		}
		return strings.Join(strings.Fields(pdftext.Text(t, b.Bytes())), " ")
	}
	if text := pdf(); !strings.Contains(text, "Made on the laptop before sync") || !strings.Contains(text, "In person on device laptop-3") ||
		!strings.Contains(text, "Signed by Ann Lee") {
		t.Fatalf("laptop's signed PDF:\n%s", text)
	}

	f.drain(t, s)
	acc, ok, err = s.AcceptanceOf(p.ID)
	if err != nil || !ok || acc.State != AcceptanceRecorded {
		t.Fatalf("after the sync: %v %v %s", ok, err, acc.State)
	}
	if _, ok := acc.Seen.Option(acc.Decision.Choices[acc.Seen.Areas[0].ID]); !ok {
		t.Errorf("after the sync the choice %v names no option of what the client saw", acc.Decision.Choices)
	}
	if f.props[p.ID].Status != app.StatusAccepted {
		t.Errorf("server status %s", f.props[p.ID].Status)
	}
	if text := pdf(); !strings.Contains(text, "Ann Lee") {
		t.Fatalf("signed PDF after the sync:\n%s", text)
	}
	if err := s.DismissAcceptance(ctx, acc.Seq); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcceptanceOf(p.ID); ok {
		t.Fatal("dismissed, yet kept")
	}
}

// The client signs again after a refusal: both acceptances are kept,
// each under its own outbox entry, the proposal's signed PDF is the
// newer one's, and dismissing the refused one leaves the other queued.
func TestSecondAcceptanceKeepsTheFirst(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Kitchen table")
	p, err := f.apply(&app.CreateArea{ID: p.ID, Name: "Den"}, t0, sales) // something to accept
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutServerCopy(ctx, p); err != nil {
		t.Fatal(err)
	}
	accept := func(signer string) uint64 {
		t.Helper()
		local, err := s.Proposal(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := app.ClientViewHash(local)
		if err != nil {
			t.Fatal(err)
		}
		m := &app.AcceptInPerson{ID: p.ID, SignerName: signer, SignatureImage: testSignature, SnapshotHash: hash,
			SignedAt: "2026-11-26T14:05:00+01:00", DeviceID: "laptop-3"}
		if _, err := s.Edit(ctx, p.ID, m, envAt(2, sales)); err != nil {
			t.Fatal(err)
		}
		acc, ok, err := s.AcceptanceOf(p.ID)
		if err != nil || !ok || acc.Signer() != signer {
			t.Fatalf("after %s signed: %v %v %q", signer, ok, err, acc.Signer())
		}
		return acc.Seq
	}

	// Ann signs; the office renames the proposal before the sync, so the
	// server refuses it; the laptop pulls the renamed proposal.
	first := accept("Ann Lee")
	if _, err := f.apply(&app.UpdateProposal{ID: p.ID, Name: strp("Renamed by the office")}, t0, sales); err != nil {
		t.Fatal(err)
	}
	f.drain(t, s)
	if err := s.PutServerCopy(ctx, f.props[p.ID].Clone()); err != nil {
		t.Fatal(err)
	}
	// Before the first is dismissed, Bob signs the proposal as it is now.
	second := accept("Bob Lee")

	all, err := s.Acceptances()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Seq != second || all[1].Seq != first {
		t.Fatalf("kept %d acceptances, want both, newest first: %+v", len(all), all)
	}
	if all[1].State != AcceptanceChanged || all[1].Signer() != "Ann Lee" || all[1].SignatureImage() != testSignature {
		t.Errorf("the first: %s by %q", all[1].State, all[1].Signer())
	}
	if all[0].State != AcceptanceQueued || all[0].Signer() != "Bob Lee" {
		t.Errorf("the second: %s by %q", all[0].State, all[0].Signer())
	}
	if acc, ok, _ := s.AcceptanceSentBy(first); !ok || acc.Signer() != "Ann Lee" || acc.Entry == nil {
		t.Errorf("the first by its entry: %v %q", ok, acc.Signer())
	}

	if err := s.DismissAcceptance(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcceptanceSentBy(first); ok {
		t.Error("dismissed, yet kept")
	}
	if _, err := s.Entry(first); app.KindOf(err) != app.KindNotFound {
		t.Errorf("dismissed, yet its failed entry is there: %v", err)
	}
	acc, ok, err := s.AcceptanceOf(p.ID)
	if err != nil || !ok || acc.Seq != second || acc.State != AcceptanceQueued || acc.Signer() != "Bob Lee" {
		t.Fatalf("the second after dismissing the first: %v %v seq %d %s", ok, err, acc.Seq, acc.State)
	}
	f.drain(t, s)
	if acc, _, _ := s.AcceptanceOf(p.ID); acc.State != AcceptanceRecorded || f.props[p.ID].Status != app.StatusAccepted {
		t.Errorf("the second after the sync: %s, server %s", acc.State, f.props[p.ID].Status)
	}
}

// A proposal made offline and accepted in person before any sync: once
// the server gives it an ID, its acceptance is found under that ID.
func TestAcceptanceOfProposalMadeOffline(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p, err := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID, Name: strp("Made offline")}, envAt(1, sales))
	if err != nil {
		t.Fatal(err)
	}
	if !app.IsTemporaryID(p.ID) {
		t.Fatalf("made offline with ID %d", p.ID)
	}
	if p, err = s.Edit(ctx, p.ID, &app.CreateArea{ID: p.ID, Name: "Den"}, envAt(1, sales)); err != nil { // something to accept
		t.Fatal(err)
	}
	hash, err := app.ClientViewHash(p)
	if err != nil {
		t.Fatal(err)
	}
	m := &app.AcceptInPerson{ID: p.ID, SignerName: "Ann Lee", SignatureImage: testSignature, SnapshotHash: hash,
		SignedAt: "2026-11-26T14:05:00+01:00", DeviceID: "laptop-3"}
	if _, err := s.Edit(ctx, p.ID, m, envAt(2, sales)); err != nil {
		t.Fatal(err)
	}
	f.drain(t, s)
	var real int64
	for id := range f.props {
		real = id
	}
	acc, ok, err := s.AcceptanceOf(real)
	if err != nil || !ok || acc.ProposalID != real || acc.State != AcceptanceRecorded {
		t.Fatalf("under the server's ID %d: %v %v %+v", real, ok, err, acc.Acceptance.ProposalID)
	}
}
