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
	if err := s.DismissAcceptance(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcceptanceOf(p.ID); ok {
		t.Fatal("dismissed, yet kept")
	}
}
