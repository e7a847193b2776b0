package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
	"proposaldesk/localstore"
)

// A 1×1 PNG, as a drawn signature.
const testSignaturePNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="

// acceptHere takes the client's acceptance of proposal id on this
// laptop, as the present screen does, without syncing.
func acceptHere(t *testing.T, d *Desktop, id int64) {
	t.Helper()
	acceptHereAs(t, d, id, "Ann Lee")
}

// acceptHereAs is acceptHere signed by signer.
func acceptHereAs(t *testing.T, d *Desktop, id int64, signer string) {
	t.Helper()
	p, err := d.sess.st.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := app.ClientViewHash(p)
	if err != nil {
		t.Fatal(err)
	}
	m := &app.AcceptInPerson{ID: id, SignerName: signer, SignatureImage: testSignaturePNG, SnapshotHash: hash}
	for _, a := range p.Areas {
		m.Options = append(m.Options, app.OptionChoice{AreaID: a.ID, OptionID: a.Options[0].ID})
	}
	if _, err := d.sess.eng.AcceptInPerson(context.Background(), m); err != nil {
		t.Fatalf("accept in person: %v", err)
	}
}

// Accepted in person here, then the server's proposal changed before the
// sync: Review says so in words, with who signed, what differs between
// what the client signed and the server's proposal now, and keeps the
// signature until the salesperson dismisses it.
func TestInPersonChangedShownInReview(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := "Signed at the table " + time.Now().Format("150405.000")
	id, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Update(id, &app.CreateArea{ID: id, Name: "Patio"}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	acceptHere(t, d, id)
	if _, err := h.srv.Update(id, &app.SetDescription{ID: id, Description: "Weatherproof speakers"}); err != nil {
		t.Fatal(err)
	}
	h.sync()

	if p, _ := h.srv.Proposal(id); p.Status == app.StatusAccepted {
		t.Fatal("accepted on the server though the client did not see this proposal")
	}
	d.ShowOutbox()
	content := d.win.Canvas().Overlays().Top()
	got := texts(content)
	for _, want := range []string{
		"The proposal changed on the server after the client signed: review the changes and ask the client again",
		"Signed by Ann Lee", "Chosen: Patio", "kept on this computer until you dismiss",
		"What the client signed", "The server's proposal now", "Description: Weatherproof speakers",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("Review lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "The server said") || findButton(content, "Retry") != nil {
		t.Fatalf("shown as an ordinary refused edit:\n%s", got)
	}
	if acc, ok, _ := d.sess.st.AcceptanceOf(id); !ok || acc.SignatureImage() != testSignaturePNG {
		t.Fatal("the signature is not kept on the laptop")
	}

	dismiss := findButton(content, "Dismiss the signature")
	if dismiss == nil {
		t.Fatalf("no Dismiss:\n%s", got)
	}
	dismiss.OnTapped()
	confirm := d.win.Canvas().Overlays().Top()
	findButton(confirm, "Dismiss").OnTapped()
	h.drain()
	if _, ok, _ := d.sess.st.AcceptanceOf(id); ok {
		t.Fatal("dismissed, yet the acceptance is kept")
	}
	if st := d.sess.eng.State(); st.Failed != 0 {
		t.Fatalf("after dismissing: %+v", st)
	}
}

// The client signed, the server refused it, the client signed the
// proposal as it was then, and the server refused that too: Review has a
// card for each, and dismissing one leaves the other with its signature.
func TestInPersonTwoRefusalsEachShown(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := "Signed twice " + time.Now().Format("150405.000")
	id, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Update(id, &app.CreateArea{ID: id, Name: "Den"}); err != nil { // something to accept
		t.Fatal(err)
	}
	h.sync()
	for i, signer := range []string{"Ann Lee", "Bob Lee"} {
		acceptHereAs(t, d, id, signer)
		if _, err := h.srv.Update(id, &app.SetDescription{ID: id, Description: fmt.Sprintf("Changed %d", i+1)}); err != nil {
			t.Fatal(err)
		}
		h.sync()
	}
	all, err := d.sess.st.Acceptances()
	if err != nil || len(all) != 2 {
		t.Fatalf("%d acceptances kept (%v), want both", len(all), err)
	}
	d.ShowOutbox()
	content := d.win.Canvas().Overlays().Top()
	got := texts(content)
	for _, want := range []string{"Signed by Ann Lee", "Signed by Bob Lee"} {
		if !strings.Contains(got, want) {
			t.Fatalf("Review lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "The proposal changed on the server after the client signed"); n != 2 {
		t.Fatalf("%d refused acceptances shown, want 2:\n%s", n, got)
	}

	// The first card is the first signature's.
	findButton(content, "Dismiss the signature").OnTapped()
	findButton(d.win.Canvas().Overlays().Top(), "Dismiss").OnTapped()
	h.drain()
	got = texts(content)
	if strings.Contains(got, "Signed by Ann Lee") || !strings.Contains(got, "Signed by Bob Lee") {
		t.Fatalf("after dismissing Ann's, Review shows:\n%s", got)
	}
	acc, ok, _ := d.sess.st.AcceptanceOf(id)
	if !ok || acc.Signer() != "Bob Lee" || acc.State != localstore.AcceptanceChanged || acc.SignatureImage() != testSignaturePNG {
		t.Fatalf("after dismissing Ann's: %v %q %s", ok, acc.Signer(), acc.State)
	}
}

// Right after an acceptance in person, with the server unreachable, the
// Client card offers the signed PDF, and it is made from the laptop
// alone: the client's document and the certificate, marked as the
// laptop's copy.
func TestInPersonSignedPDFOffline(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := "PDF at the table " + time.Now().Format("150405.000")
	id, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Update(id, &app.CreateArea{ID: id, Name: "Den"}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	h.gate.down.Store(true)
	acceptHere(t, d, id)
	v := h.openByName(name)
	if v.laptopPDF == nil || !v.laptopPDF.Visible() || v.laptopPDF.Text != laptopSignedPDFLabel {
		t.Fatal("the Client card does not offer the signed PDF after an acceptance here")
	}
	path := filepath.Join(t.TempDir(), laptopSignedPDFName(v.p))
	if err := writeLaptopSignedPDF(d.sess.st, id, path); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(pdftext.File(t, path)), " ")
	for _, want := range []string{name, "Certificate of acceptance", "Ann Lee", "In person on device", "Made on the laptop before sync"} {
		if !strings.Contains(text, want) {
			t.Errorf("signed PDF lacks %q:\n%s", want, text)
		}
	}
	if acc, ok, _ := d.sess.st.AcceptanceOf(id); !ok || acc.State != localstore.AcceptanceQueued {
		t.Fatalf("acceptance %v %s, want queued", ok, acc.State)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == filepath.Base(path) }) {
		t.Fatalf("no file %s", path)
	}
}
