package syncer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
	"proposaldesk/internal/sigtest"
	"proposaldesk/localstore"
	"proposaldesk/localstore/legacytest"
)

// drawnSignature is an 800×240 PNG with one drawn stroke, as the
// present screen's signature pad makes, in base64.
func drawnSignature(testing.TB) string { return sigtest.DrawnBase64(800, 240) }

// acceptOnLaptop takes the client's acceptance of p (the laptop's local
// view) in person: the hash of what the client sees, the only option of
// each area chosen.
func acceptOnLaptop(t testing.TB, d *desk, p *app.Proposal, signature string) *app.Proposal {
	t.Helper()
	hash, err := app.ClientViewHash(p)
	if err != nil {
		t.Fatal(err)
	}
	m := &app.AcceptInPerson{ID: p.ID, SignerName: "Ann Lee", SignatureImage: signature, SnapshotHash: hash}
	for _, a := range p.Areas {
		m.Options = append(m.Options, app.OptionChoice{AreaID: a.ID, OptionID: a.Options[len(a.Options)-1].ID})
	}
	got, err := d.eng.AcceptInPerson(bg, m)
	if err != nil {
		t.Fatalf("accept in person: %v", err)
	}
	if got.Status != app.StatusAccepted {
		t.Fatalf("local status after the acceptance %s, want Accepted", got.Status)
	}
	return got
}

// Accepted offline on laptop A, on a proposal whose parts A made
// offline too (temporary IDs), with A's clock three years off; then
// synced: the server has the acceptance with its evidence (the device
// time as A's clock gave it, beside the receipt time), laptop B sees the
// proposal accepted after its own sync, and A can make the signed PDF
// offline at any time.
func TestInPersonAcceptedOfflineThenSynced(t *testing.T) {
	s := startReal(t)
	skew := -3 * 365 * 24 * time.Hour
	clock := WithEngineClock(func() time.Time { return time.Now().Add(skew) })
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil, clock)
	b := s.newDesk(t, s.URL, app.RoleAdmin, nil, nil)
	// The salesperson as the server knows them (as the desktop's
	// sign-in gives them): the proposal names them, and the client
	// sees it.
	me := s.appUser(t, app.RoleSales)
	users, err := a.c.ListUsers(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.ID == me.ID {
			me.FirstName, me.LastName = u.FirstName, u.LastName
		}
	}
	a.eng = NewEngine(a.st, a.c, me, clock)
	a.sync(t)

	p := a.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Kitchen table deal")})
	p = a.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Living room"})
	p = a.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: p.Areas[0].ID, ClientDescription: "Premium"})
	p = a.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: p.Areas[0].Options[1].ID, ItemType: ptrTo(app.ItemPart),
		Name: strp("Soundbar"), SellPrice: money("899.00"), Cost: money("500.00")})
	premium := p.Areas[0].Options[1].ID
	if !app.IsTemporaryID(premium) || !app.IsTemporaryID(p.ID) {
		t.Fatalf("made offline, yet proposal %d and option %d are not temporary", p.ID, premium)
	}
	sig := drawnSignature(t)
	acceptOnLaptop(t, a, p, sig)

	acc, ok, err := a.st.AcceptanceOf(p.ID)
	if err != nil || !ok || acc.State != localstore.AcceptanceQueued || acc.Entry == nil {
		t.Fatalf("acceptance on the laptop: %+v, %v, %v; want queued", acc.State, ok, err)
	}
	entryJSON, err := json.Marshal(acc.Entry)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outbox entry %d bytes, waiting for %d creates", len(entryJSON), len(acc.Entry.DependsOn))

	// Offline: the signed PDF from what the laptop holds.
	var pdf bytes.Buffer
	if err := acc.SignedPDF(&pdf); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(pdftext.Text(t, pdf.Bytes())), " ")
	for _, want := range []string{"Certificate of acceptance", "Ann Lee", "Made on the laptop before sync", "Soundbar", acc.ViewHash()[:16]} {
		if !strings.Contains(text, want) {
			t.Errorf("the laptop's signed PDF lacks %q:\n%s", want, text)
		}
	}

	a.sync(t)
	acc, ok, err = a.st.AcceptanceOf(p.ID)
	if err != nil || !ok {
		t.Fatalf("acceptance after the sync: %v %v", ok, err)
	}
	if acc.State != localstore.AcceptanceRecorded || app.IsTemporaryID(acc.ProposalID) {
		t.Fatalf("after the sync the acceptance is %s of proposal %d (entry %+v), want recorded under the server's ID",
			acc.State, acc.ProposalID, acc.Entry)
	}
	id := acc.ProposalID
	got, err := s.admin(t).GetProposal(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Proposal.Status != app.StatusAccepted {
		t.Fatalf("server status %s, want Accepted", got.Proposal.Status)
	}
	events, err := s.admin(t).ClientEvents(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	var ev *app.Event
	for i := range events {
		if events[i].Type == app.EventAcceptedInPerson {
			ev = &events[i]
		}
	}
	if ev == nil {
		t.Fatalf("no AcceptedInPerson event on the server: %+v", events)
	}
	device, err := time.Parse(time.RFC3339, ev.Data["deviceTime"])
	if err != nil {
		t.Fatalf("device time %q: %v", ev.Data["deviceTime"], err)
	}
	if lag := ev.At.Sub(device); lag < -skew-time.Hour || lag > -skew+time.Hour {
		t.Errorf("device time %s, received %s: want the laptop's clock as it was (%s behind)", device, ev.At.Time, -skew)
	}
	if ev.Data["signerName"] != "Ann Lee" || ev.Data["signaturePng"] != sig || ev.Data["deviceId"] != DeviceName() {
		t.Errorf("evidence %v", ev.Data)
	}
	serverPDF, err := s.admin(t).SignedPDF(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	if st := pdftext.Text(t, serverPDF); !strings.Contains(st, "In person on device") {
		t.Errorf("server's signed PDF: %s", st)
	}

	b.sync(t)
	rec, err := b.st.Record(id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Local.Status != app.StatusAccepted {
		t.Errorf("laptop B sees status %s, want Accepted", rec.Local.Status)
	}
	// The acceptance taken on A is kept there, for the PDF later.
	pdf.Reset()
	if err := acc.SignedPDF(&pdf); err != nil || pdf.Len() == 0 {
		t.Errorf("signed PDF after the sync: %v", err)
	}
}

// The proposal changed on the server while laptop A, offline, took the
// client's acceptance (laptop B edited it and synced first): A's sync
// meets ProposalChanged. Nothing is accepted on the server; A's proposal
// returns to the server's version; the acceptance is kept, signature and
// all, beside the server's proposal, until the salesperson dismisses it.
func TestInPersonProposalChangedMeanwhile(t *testing.T) {
	s := startReal(t)
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	b := s.newDesk(t, s.URL, app.RoleAdmin, nil, nil)
	a.sync(t)
	me := s.appUser(t, app.RoleSales)
	p := a.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Changed meanwhile")})
	p = a.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Patio"})
	a.sync(t)
	id := a.st.Resolve(p.ID)
	b.sync(t)

	// A, offline: the client signs what A shows.
	local, err := a.st.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	sig := drawnSignature(t)
	acceptOnLaptop(t, a, local, sig)
	measureAcceptance(t, a, id, sig)
	// Meanwhile B changes what the client would see, and syncs first.
	b.edit(t, id, &app.SetDescription{ID: id, Description: "Patio speakers, weatherproof"})
	b.sync(t)

	a.sync(t)
	acc, ok, err := a.st.AcceptanceOf(id)
	if err != nil || !ok {
		t.Fatalf("the acceptance is gone from laptop A: %v %v", ok, err)
	}
	if acc.State != localstore.AcceptanceChanged {
		t.Fatalf("acceptance state %s (entry %+v), want changed", acc.State, acc.Entry)
	}
	if acc.SignatureImage() != sig || acc.Signer() != "Ann Lee" || len(acc.Decision.Choices) != 1 {
		t.Errorf("the signature, signer or choice was lost: %+v", acc.Decision.Choices)
	}
	if acc.Server == nil || acc.Server.ProjectDescription != "Patio speakers, weatherproof" || acc.Seen.ProjectDescription != "" {
		t.Errorf("both versions: the client saw %+v, the server has %+v", acc.Seen, acc.Server)
	}
	back, err := a.st.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if back.Status == app.StatusAccepted || back.ProjectDescription != "Patio speakers, weatherproof" {
		t.Errorf("laptop A's proposal is %s with %q, want the server's version", back.Status, back.ProjectDescription)
	}
	got, err := s.admin(t).GetProposal(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Proposal.Status == app.StatusAccepted {
		t.Fatal("accepted on the server though the client did not see this proposal")
	}
	events, err := s.admin(t).ClientEvents(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Type == app.EventAcceptedInPerson {
			t.Fatalf("the server recorded an acceptance: %+v", e)
		}
	}
	// A second sync does not lose it either.
	a.sync(t)
	if acc, ok, _ := a.st.AcceptanceOf(id); !ok || acc.State != localstore.AcceptanceChanged {
		t.Fatalf("after a second sync: %v %s", ok, acc.State)
	}

	if err := a.eng.DismissAcceptance(bg, acc.Seq); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := a.st.AcceptanceOf(id); ok {
		t.Error("dismissed, yet the acceptance is still there")
	}
	if _, err := a.st.Entry(acc.Seq); app.KindOf(err) != app.KindNotFound {
		t.Errorf("dismissed, yet its outbox entry is there: %v", err)
	}
}

// measureAcceptance logs the queued acceptance's size: the drawn PNG,
// the request body the sync sends and the outbox entry the laptop keeps.
func measureAcceptance(t testing.TB, d *desk, id int64, sig string) {
	t.Helper()
	acc, ok, err := d.st.AcceptanceOf(id)
	if err != nil || !ok || acc.State != localstore.AcceptanceQueued || acc.Entry == nil {
		t.Fatalf("acceptance on the laptop: %s, %v, %v; want queued", acc.State, ok, err)
	}
	entryJSON, err := json.Marshal(acc.Entry)
	if err != nil {
		t.Fatal(err)
	}
	m, err := acc.Entry.Decode()
	if err != nil {
		t.Fatal(err)
	}
	_, _, body, err := app.Request(m)
	if err != nil {
		t.Fatal(err)
	}
	png, _ := base64.StdEncoding.DecodeString(sig)
	t.Logf("signature PNG %d bytes; request body %d bytes; outbox entry %d bytes", len(png), len(body), len(entryJSON))
	if len(body) > 2*len(sig) {
		t.Errorf("request body %d bytes for a %d-byte signature", len(body), len(sig))
	}
}

// The server itself answers 409 ProposalChanged (the entry went out
// without If-Match, as one queued before its proposal's server version
// was known does): the acceptance settles as refused with the signature
// kept, and the round goes on, so an edit queued after it, of another
// proposal, reaches the server.
func TestInPersonProposalChangedByTheServer(t *testing.T) {
	s := startReal(t)
	path := filepath.Join(t.TempDir(), "desk.db")
	d := s.newDesk(t, s.URL, app.RoleSales, openLocal(t, path), nil)
	d.sync(t)
	me := s.appUser(t, app.RoleSales)
	p := d.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Refused by the server")})
	q := d.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Edited after it")})
	d.sync(t)
	id, other := d.st.Resolve(p.ID), d.st.Resolve(q.ID)
	d.st.Close()

	// Signed over a view the server does not give (another hash).
	sig := drawnSignature(t)
	m := &app.AcceptInPerson{ID: id, SignerName: "Ann Lee", SignatureImage: sig, SnapshotHash: strings.Repeat("0", 64),
		SignedAt: time.Now().Format(time.RFC3339), DeviceID: "laptop-9"}
	if _, err := legacytest.AddEdit(path, id, m, me); err != nil {
		t.Fatal(err)
	}
	d = s.newDesk(t, s.URL, app.RoleSales, openLocal(t, path), nil)
	d.edit(t, other, &app.SetDescription{ID: other, Description: "Sent after the refusal"})
	d.sync(t)

	got, err := s.admin(t).GetProposal(bg, other)
	if err != nil || got.Proposal.ProjectDescription != "Sent after the refusal" {
		t.Fatalf("the edit after the refused acceptance: %q %v", got.Proposal.ProjectDescription, err)
	}
	entries, err := d.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].State != localstore.StateFailed || entries[0].ErrorKind != app.KindProposalChanged {
		t.Fatalf("outbox %+v, want the acceptance failed with ProposalChanged", entries)
	}
	kept, err := entries[0].Decode()
	if err != nil || kept.(*app.AcceptInPerson).SignatureImage != sig {
		t.Fatalf("the refused acceptance lost its signature: %v", err)
	}
	if sp, err := s.admin(t).GetProposal(bg, id); err != nil || sp.Proposal.Status == app.StatusAccepted {
		t.Fatalf("server: %s %v", sp.Proposal.Status, err)
	}
}
