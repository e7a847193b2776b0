package apiserver

import (
	"encoding/base64"
	"maps"
	"net/http"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
	"proposaldesk/internal/sigtest"
)

// inPersonSignature is a real 1×1 PNG in base64, as a drawn signature.
const inPersonSignature = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="

// inPersonBody is the acceptance a laptop sends for the client view it
// showed of p, choosing option in area.
func inPersonBody(t *testing.T, p *app.Proposal, area, option int64) map[string]any {
	t.Helper()
	hash, err := app.ClientViewHash(p)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"SignerName": "Ann Client", "SignatureImage": inPersonSignature, "SnapshotHash": hash,
		"SignedAt": "2019-03-01T10:00:00+01:00", // the laptop's clock is years behind
		"DeviceId": "laptop-7", "Options": []map[string]int64{{"AreaId": area, "AreaOptionId": option}},
	}
}

// TestAcceptInPersonOverAPI: an acceptance signed on the laptop over the
// server's current client view is taken, with the evidence chained and
// the signed PDF's certificate; one signed over a view the server no
// longer gives is 409 ProposalChanged and changes nothing.
func TestAcceptInPersonOverAPI(t *testing.T) {
	e := newEnv(t)
	a := e.main
	id := sendable(e, a)
	p := e.load(a, id)
	p = e.apply(a, p, &app.CreateOption{ID: id, AreaID: a.area, ClientDescription: "Premium speakers"})
	second := p.Areas[0].Options[1].ID
	e.apply(a, p, &app.AddItem{ID: id, OptionID: second, ItemType: ptrTo(app.ItemLabor), Name: ptrTo("Premium install"),
		SellPrice: ptrTo(app.MustMoney("250.00"))})
	path := pathf("/public/proposals/%d/accept-in-person", id)

	// The laptop showed the proposal; meanwhile the office changed the
	// terms on the server.
	shown := e.load(a, id)
	body := inPersonBody(t, shown, a.area, second)
	e.apply(a, shown, &app.UpdateProposal{ID: id, Name: ptrTo("Renamed by the office")})
	wantError(t, e.postJSON(a.sales, path, body), http.StatusConflict, app.KindProposalChanged)
	if got := e.load(a, id); got.Status == app.StatusAccepted {
		t.Fatalf("a refused acceptance accepted the proposal")
	}
	var events []app.Event
	e.get(a.viewer, pathf("/public/proposals/%d/events", id)).json(t, &events)
	if len(events) != 0 {
		t.Errorf("a refused acceptance left events: %+v", events)
	}

	// A viewer cannot take it; the declared limits hold at the API.
	current := e.load(a, id)
	body = inPersonBody(t, current, a.area, second)
	over := maps.Clone(body)
	over["SignatureImage"] = base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, app.MaxSignatureBytes)...))
	wantField(t, e.postJSON(a.sales, path, over), "SignatureImage")
	// A PNG whose header declares 100000×100000 pixels in 200 KiB: the
	// bytes are within the bound, the decoded image would not be.
	over = maps.Clone(body)
	over["SignatureImage"] = base64.StdEncoding.EncodeToString(sigtest.Hostile(100000, 100000, app.MaxSignatureBytes))
	wantField(t, e.postJSON(a.sales, path, over), "SignatureImage")
	over = maps.Clone(body)
	over["Options"] = "610:612"
	wantField(t, e.postJSON(a.sales, path, over), "Options")
	over = maps.Clone(body)
	over["SignedAt"] = "yesterday"
	wantField(t, e.postJSON(a.sales, path, over), "SignedAt")
	wantError(t, e.postJSON(a.viewer, path, body), http.StatusForbidden, app.KindPermissionDenied)

	// Signed over the current view: accepted.
	r := e.postJSON(a.sales, path, body)
	if r.status != http.StatusOK {
		t.Fatalf("accept in person: %d %s", r.status, r.body)
	}
	d := detail(t, r)
	if d.Status != app.StatusAccepted {
		t.Errorf("status %s, want Accepted", d.Status)
	}
	stored := e.load(a, id)
	for _, o := range stored.Areas[0].Options {
		want := app.OptionDeclined
		if o.ID == second {
			want = app.OptionSelected
		}
		if o.Status != want {
			t.Errorf("option %d is %s, want %s", o.ID, o.Status, want)
		}
	}

	e.get(a.viewer, pathf("/public/proposals/%d/events", id)).json(t, &events)
	if err := app.VerifyEvents(id, events); err != nil {
		t.Error(err)
	}
	if len(events) != 1 || events[0].Type != app.EventAcceptedInPerson {
		t.Fatalf("events %+v, want one AcceptedInPerson", events)
	}
	ev := events[0]
	if ev.Data["deviceTime"] != "2019-03-01T10:00:00+01:00" || ev.Data["deviceId"] != "laptop-7" ||
		ev.Data["receivedAt"] == "" || ev.IP != "127.0.0.1" || ev.Data["signerName"] != "Ann Client" ||
		ev.Data["signaturePng"] != inPersonSignature || ev.Data["viewHash"] != body["SnapshotHash"] {
		t.Errorf("the evidence event: %+v", ev)
	}
	if ev.At.Year() < 2026 {
		t.Errorf("the event's time %v is the laptop's, want the server's", ev.At)
	}

	pdf := e.get(a.viewer, pathf("/public/proposals/%d/signed.pdf", id))
	if pdf.status != http.StatusOK {
		t.Fatalf("signed.pdf: %d %s", pdf.status, pdf.body)
	}
	text := pdfText(t, pdf.body)
	for _, want := range []string{"Certificate of acceptance", "Ann Client", ev.Hash, ev.SnapshotHash, "127.0.0.1",
		"laptop-7", "2019-03-01T10:00:00+01:00", "Premium install", "Total $250.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("the signed PDF lacks %q", want)
		}
	}
	// The drawn signature is on the certificate, from the event.
	if n := pdftext.Images(t, pdf.body); n != 1 || !strings.Contains(text, "Signed by Ann Client") {
		t.Errorf("the signed PDF has %d images (want the signature's 1), says Signed by: %v", n, strings.Contains(text, "Signed by Ann Client"))
	}
	if strings.Contains(text, "INSTALLER-ONLY") {
		t.Error("the signed PDF holds the installer notes")
	}

	// Accepted, it is locked: the same acceptance again is refused.
	wantError(t, e.postJSON(a.sales, path, body), http.StatusConflict, app.KindProposalLocked)
}

// wantField checks a 400 ValidationFailed that names field.
func wantField(t *testing.T, r tres, field string) {
	t.Helper()
	b := wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
	for _, f := range b.ResponseStatus.Errors {
		if f.FieldName == field {
			return
		}
	}
	t.Errorf("the 400 does not name %s: %.300s", field, r.body)
}

// An acceptance in person reaches subscribers once, as
// proposal.accepted (not also as a status change).
func TestAcceptInPersonWebhookOnce(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	a := h.main
	id := sendable(h.tenv, a) // its edits come before the subscription
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.accepted,proposal.status_changed,proposal.updated")
	rcv.secret.Store(sub.SecretKey)
	body := inPersonBody(t, h.load(a, id), a.area, a.option)
	if r := h.postJSON(a.sales, pathf("/public/proposals/%d/accept-in-person", id), body); r.status != http.StatusOK {
		t.Fatalf("accept in person: %d %s", r.status, r.body)
	}
	if n := h.run(); n != 1 {
		t.Fatalf("worker attempted %d deliveries, want 1", n)
	}
	for _, r := range rcv.requests() {
		if r.event != "proposal.accepted" || r.verifyErr != nil || r.proposal != id {
			t.Errorf("delivered %s about %d: %v", r.event, r.proposal, r.verifyErr)
		}
	}
}
