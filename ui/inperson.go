package ui

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The desktop's side of an acceptance taken in person on this laptop
// (the present screen takes it; localstore keeps it): the signed PDF
// made here, offline, and the card Review shows when the server refused
// it because the proposal changed after the client signed.

// laptopSignedPDFLabel names the action on a proposal accepted in person
// on this laptop.
const laptopSignedPDFLabel = "Signed PDF…"

// laptopSignedPDFName is the file name of the laptop's copy, apart from
// the server's (proposal-1001-signed.pdf is the server's).
func laptopSignedPDFName(p *app.Proposal) string {
	if p == nil || p.Number == 0 {
		return "proposal-new-signed-on-laptop.pdf"
	}
	return fmt.Sprintf("proposal-%d-signed-on-laptop.pdf", p.Number)
}

// writeLaptopSignedPDF writes the signed PDF of the acceptance taken on
// this laptop of proposal id to target: what the client saw, their
// choices and the certificate page, from the local store alone. It is
// the client's own document (no costs), so any user of the laptop may
// make it.
func writeLaptopSignedPDF(st *localstore.Store, id int64, target string) error {
	acc, ok, err := st.AcceptanceOf(id)
	if err != nil {
		return err
	}
	if !ok {
		return app.Errorf(app.KindNotFound, "This proposal was not accepted in person on this computer.")
	}
	return writeAcceptancePDF(&acc.Acceptance, target)
}

// writeAcceptancePDF writes the signed PDF of one acceptance taken here
// to target.
func writeAcceptancePDF(acc *localstore.Acceptance, target string) error {
	a, err := createAtomic(target)
	if err != nil {
		return err
	}
	defer a.abort()
	if err := acc.SignedPDF(a.f); err != nil {
		return err
	}
	return a.commit()
}

// OpenLaptopSignedPDF writes the open proposal's signed PDF, as this
// laptop took the acceptance, into the data folder and opens it with the
// system's viewer: at once, with no network.
func (d *Desktop) OpenLaptopSignedPDF() {
	v := d.detail
	s := d.sess
	if s == nil || v == nil || v.p == nil {
		return
	}
	dir := filepath.Join(d.opts.DataDir, "signed")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		d.showError("Cannot make the signed PDF", err)
		return
	}
	path := filepath.Join(dir, laptopSignedPDFName(v.p))
	if err := writeLaptopSignedPDF(s.st, v.id, path); err != nil {
		d.showError("Cannot make the signed PDF", err)
		return
	}
	d.lastSignedPDF = path
	if err := d.app.OpenURL(&url.URL{Scheme: "file", Path: path}); err != nil {
		d.showError("Cannot open the signed PDF", fmt.Errorf("saved as %s, but: %w", path, err))
	}
}

// acceptedHere reports whether the proposal has an acceptance taken on
// this laptop that is not refused: the signed PDF can be made.
func acceptedHere(st *localstore.Store, id int64) bool {
	acc, ok, err := st.AcceptanceOf(id)
	return err == nil && ok && (acc.State == localstore.AcceptanceQueued || acc.State == localstore.AcceptanceRecorded)
}

// exportLaptopSignedPDF saves the open proposal's laptop signed PDF in
// the export folder.
func (e *exportDialog) exportLaptopSignedPDF() {
	d := e.d
	p := d.detail.p
	if p == nil || d.sess == nil {
		return
	}
	st, id, name := d.sess.st, p.ID, laptopSignedPDFName(p)
	e.confirmReplace([]string{name}, func() {
		d.runExport("Saving the signed PDF", func(ctx context.Context, progress func(done, total int)) (string, error) {
			path := filepath.Join(e.folder, name)
			if err := writeLaptopSignedPDF(st, id, path); err != nil {
				return "", err
			}
			progress(1, 1)
			return "Signed PDF written to\n" + path, nil
		})
	})
}

// laptopSignedPDFRow is the export dialog's row for the laptop's signed
// PDF, nil when the open proposal was not accepted in person here.
func (e *exportDialog) laptopSignedPDFRow(p *app.Proposal) fyne.CanvasObject {
	if p == nil || e.d.sess == nil || !acceptedHere(e.d.sess.st, p.ID) {
		return nil
	}
	note := wrapLabel("Accepted in person on this computer: the signed PDF made here, before the sync.")
	return container.NewVBox(note, container.NewHBox(widget.NewButton(laptopSignedPDFLabel, e.exportLaptopSignedPDF)))
}

// inPersonCard is Review's card for an acceptance the server did not
// record because the proposal changed after the client signed: the words,
// who signed and what they chose, what differs between what they signed
// and the server's proposal now, and Dismiss. The signature stays on
// this computer until then. Each refused acceptance has its own card,
// several for one proposal when the client signed again meanwhile.
func (p *outboxPanel) inPersonCard(acc localstore.AcceptanceStatus, r *localstore.Record, waiting []*localstore.Entry) fyne.CanvasObject {
	why := widget.NewLabel(localstore.ProposalChangedWords)
	why.Wrapping = fyne.TextWrapWord
	why.Importance = widget.DangerImportance
	box := container.NewVBox(why, wrapLabel(signedWords(acc, time.Local)))
	signed, now := offerLines(acc.Seen), offerLines(acc.Server)
	onlySigned, onlyNow := changedLines(signed, now)
	cols := func(a, b fyne.CanvasObject) fyne.CanvasObject {
		return container.New(&columns{weights: []float32{0.5, 0.5}}, a, b)
	}
	box.Add(cols(boldLabel("What the client signed"), boldLabel("The server's proposal now")))
	for i := 0; i < max(len(onlySigned), len(onlyNow)); i++ {
		box.Add(cols(wrapLabel(lineAt(onlySigned, i)), wrapLabel(lineAt(onlyNow, i))))
	}
	addWaiting(box, waiting)
	pdf := widget.NewButton("What the client signed (PDF)…", func() {
		dir := filepath.Join(p.d.opts.DataDir, "signed")
		path := filepath.Join(dir, fmt.Sprintf("not-recorded-%d-%s", acc.Seq, laptopSignedPDFName(acc.Seen)))
		err := os.MkdirAll(dir, 0o700)
		if err == nil {
			err = writeAcceptancePDF(&acc.Acceptance, path)
		}
		if err == nil {
			p.d.lastSignedPDF = path
			err = p.d.app.OpenURL(&url.URL{Scheme: "file", Path: path})
		}
		if err != nil {
			p.d.showError("Cannot open the signed PDF", err)
		}
	})
	dismiss := widget.NewButton("Dismiss the signature", func() {
		c := dialog.NewConfirm("Dismiss the signature?",
			"The client's signature and choices are deleted from this computer. Ask the client to sign the proposal as it is now.",
			func(ok bool) {
				if !ok {
					return
				}
				if err := p.d.sess.eng.DismissAcceptance(context.Background(), acc.Seq); err != nil {
					p.d.showError("Could not dismiss the acceptance", err)
					return
				}
				p.after()
			}, p.d.win)
		c.SetConfirmText("Dismiss")
		p.d.showDialog(c)
	})
	box.Add(container.NewHBox(layout.NewSpacer(), pdf, dismiss))
	return newCard("Acceptance in person not recorded, in "+proposalName(r), "", box)
}

// signedWords say who signed, when by the laptop's clock, and that the
// signature is kept.
func signedWords(acc localstore.AcceptanceStatus, loc *time.Location) string {
	when := acc.DeviceTime()
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		when = t.In(loc).Format("2006-01-02 15:04")
	}
	var chose []string
	if acc.Seen != nil {
		for _, a := range acc.Seen.Areas {
			chosen, ok := acc.Decision.Choices[a.ID]
			if !ok {
				continue
			}
			for i, o := range a.Options {
				if o.ID == chosen {
					chose = append(chose, fmt.Sprintf("%s: %s", a.Name, optionName(o, i)))
				}
			}
		}
	}
	s := fmt.Sprintf("Signed by %s on %s (this computer's clock).", acc.Signer(), when)
	if len(chose) > 0 {
		s += " Chosen: " + strings.Join(chose, "; ") + "."
	}
	return s + " The signature and the choices are kept on this computer until you dismiss them."
}

func optionName(o app.Option, i int) string {
	if d := strings.TrimSpace(o.ClientDescription); d != "" {
		return d
	}
	return fmt.Sprintf("option %d", i+1)
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// offerLines are the lines of a proposal as its client reads them (its
// client view: no costs, no installer notes), one per thing the client
// would notice changed: name, description, terms, each option and item,
// the total.
func offerLines(p *app.Proposal) []string {
	if p == nil {
		return nil
	}
	v := app.ClientView(p)
	out := []string{"Name: " + v.Name}
	if v.ProjectDescription != "" {
		out = append(out, "Description: "+v.ProjectDescription)
	}
	if v.ProjectTerms != "" {
		out = append(out, "Terms: "+v.ProjectTerms)
	}
	for _, a := range v.Areas {
		for i, o := range a.Options {
			where := a.Name
			if len(a.Options) > 1 {
				where += " · " + optionName(o, i)
			} else if o.ClientDescription != "" {
				out = append(out, where+": "+o.ClientDescription)
			}
			for _, it := range o.Items {
				out = append(out, fmt.Sprintf("%s: %s × %s at %s", where, offerItemName(it), it.Quantity,
					app.FormatMoney(it.SellPrice, v.Currency)))
			}
		}
	}
	s := app.Summarize(&v.Document)
	return append(out, "Total: "+app.FormatMoney(s.Total, v.Currency))
}

func offerItemName(it app.Item) string {
	for _, s := range []string{it.Name, it.Model, it.Description} {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return "an item"
}

// changedLines are the lines of a not in b and those of b not in a, each
// in its order, counting repeats.
func changedLines(a, b []string) (onlyA, onlyB []string) {
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
			continue
		}
		onlyA = append(onlyA, l)
	}
	count = map[string]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		if count[l] > 0 {
			count[l]--
			continue
		}
		onlyB = append(onlyB, l)
	}
	return onlyA, onlyB
}

// changedAcceptance is the acceptance e sends when the server refused it
// because the proposal changed after the client signed.
func changedAcceptance(st *localstore.Store, e *localstore.Entry) (localstore.AcceptanceStatus, bool) {
	if e.ErrorKind != app.KindProposalChanged || e.Kind != localstore.EntryProposal {
		return localstore.AcceptanceStatus{}, false
	}
	acc, ok, err := st.AcceptanceSentBy(e.Seq)
	if err != nil || !ok || acc.State != localstore.AcceptanceChanged {
		return localstore.AcceptanceStatus{}, false
	}
	return acc, true
}
