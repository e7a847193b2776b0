package ui

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// Present to client: the open proposal shown to the client on this
// laptop, full screen, as the client's web page shows it (app's client
// view: no costs, no installer or internal notes, nothing else of the
// workspace), with the options to choose, the totals app computes for
// the choice, the terms, and the acceptance: full name, a drawn
// signature and the consent. Accepting is an app.AcceptInPerson edit,
// applied locally and queued like every edit, so it works offline. The
// workspace's menus and shortcuts are off while presenting; leaving
// (Esc or Leave) asks the salesperson first, so the client cannot
// wander into the workspace.

// presentShortcutKey with Ctrl+Shift (Cmd+Shift on macOS) presents the
// open proposal.
const presentShortcutKey = fyne.KeyP

func presentShortcut() *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: presentShortcutKey, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
}

const presentTip = "Shows the proposal to the client on this screen, full screen, to choose options and accept with a drawn signature; works offline (Ctrl+Shift+P)"

// presentRefusal is why a proposal cannot be presented for acceptance,
// in words; "" when it can. The rules are app's: the edit's permission
// and lock, and an offer to accept (an area with an option).
func presentRefusal(u app.User, readOnly bool, p *app.Proposal) string {
	switch {
	case p == nil:
		return "Open a proposal first, then present it to the client."
	case !u.Role.Can(app.OpAcceptInPerson.Permission()):
		return fmt.Sprintf("Your role (%s) cannot take a client's acceptance, so the proposal cannot be presented for signing.", u.Role)
	case readOnly:
		return "The server locked this proposal while you had unsent edits, so the client cannot accept it here. Sync and review the refused edits first."
	case app.OpAcceptInPerson.LockedIn(p.Status):
		return fmt.Sprintf("This proposal is %s: the decision is taken, so there is nothing for the client to accept. Move it back to Draft if the offer should change.", p.Status.Label())
	case app.CheckOffersOption(p) != nil:
		return "This proposal has no options yet, so there is nothing for the client to accept. Add an area with an option and items first."
	}
	return ""
}

// presentMode is the client's screen while it is shown.
type presentMode struct {
	d  *Desktop
	id int64
	// view is app's client view of the proposal as presented, and hash
	// its ClientViewHash: the acceptance says the client saw exactly it.
	view *app.Proposal
	hash string
	// choices is the option shown as chosen in each area that offers
	// several.
	choices map[int64]int64
	cards   map[int64][]*optionCard
	cur     app.Currency
	totals  *fyne.Container
	// totalsSection holds totals under its heading (a row of page).
	totalsSection fyne.CanvasObject

	name    *plainEntry
	pad     *signaturePad
	consent *escCheck
	accept  *escButton
	missing *widget.Label // what Accept still needs, or why it failed
	body    *fyne.Container
	page    *cullBox
	culling bool // in cull
	scroll  *container.Scroll
	leave   *escButton
	signer  string // set once accepted
	// changed: a sync changed the proposal since it was shown, so the
	// client would accept what they did not see (see checkChanged).
	changed bool

	// What leaving restores.
	prevContent fyne.CanvasObject
	prevFull    bool
}

// PresentToClient shows the open proposal to the client, full screen;
// when it cannot be presented, a dialog says why.
func (d *Desktop) PresentToClient() {
	v := d.detail
	if d.sess == nil || v == nil || d.present != nil {
		return
	}
	v.flush() // typing not saved yet is part of what the client sees
	var p *app.Proposal
	readOnly := false
	if v.rec != nil {
		p, readOnly = v.p, v.rec.ReadOnly
	}
	if why := presentRefusal(d.sess.user, readOnly, p); why != "" {
		d.showError("Cannot present to the client", errors.New(why))
		return
	}
	hash, err := app.ClientViewHash(p)
	if err != nil {
		d.showError("Cannot present to the client", err)
		return
	}
	pm := &presentMode{d: d, id: v.id, view: app.ClientView(p), hash: hash, choices: map[int64]int64{}}
	for _, a := range pm.view.Areas {
		if len(a.Options) > 1 {
			if o := app.CountedOption(&a); o != nil {
				pm.choices[a.ID] = o.ID
			} else {
				pm.choices[a.ID] = a.Options[0].ID
			}
		}
	}
	d.closeDialog()
	pm.prevContent, pm.prevFull = d.win.Content(), d.win.FullScreen()
	d.present = pm
	// No menu while presenting: nothing of the workspace is in reach.
	d.win.SetMainMenu(nil)
	d.win.SetContent(pm.build())
	d.win.SetFullScreen(true)
}

// presenting reports whether the client's screen is shown; the
// workspace's shortcuts do nothing then.
func (d *Desktop) presenting() bool { return d.present != nil }

// escape is Esc while presenting: it closes a dialog, else asks to
// leave.
func (pm *presentMode) escape() {
	if pm.d.dlg != nil {
		pm.d.closeDialog()
		return
	}
	pm.askLeave()
}

// escape is Esc in the window or a field: while presenting it closes a
// dialog or asks to leave, else it closes the open dialog.
func (d *Desktop) escape() {
	if d.present != nil {
		d.present.escape()
		return
	}
	d.closeDialog()
}

// askLeave asks the salesperson before the client's screen closes.
func (pm *presentMode) askLeave() {
	d := pm.d
	msg := widget.NewLabel("The client's view will close.")
	dl := dialog.NewCustomConfirm("Return to the proposal?", "Return to the proposal", "Stay", msg, func(ok bool) {
		if ok {
			pm.close()
		}
	}, d.win)
	d.showDialog(dl)
}

// close restores the workspace as it was, showing the proposal as it
// is now (accepted, when the client signed).
func (pm *presentMode) close() {
	d := pm.d
	if d.present != pm {
		return
	}
	d.present = nil
	d.win.SetFullScreen(pm.prevFull)
	d.installMenu()
	d.win.SetContent(pm.prevContent)
	if d.detail != nil && d.detail.p != nil && pm.signer != "" {
		d.detail.open(d.detail.id)
	}
}

// changedWords is what the client's screen says when a sync changed the
// proposal while it was shown.
const changedWords = "This proposal has just been changed by the dealer's office, so it cannot be accepted as shown. " +
	"The salesperson will leave and present it again."

// checkChanged compares, after a sync, the proposal on the laptop with
// the view shown: when they differ the client is told at once, and
// Accept stays off (app would refuse it too, as ProposalChanged).
func (pm *presentMode) checkChanged() {
	if pm.signer != "" || pm.changed || pm.d.sess == nil {
		return
	}
	rec, err := pm.d.sess.st.Record(pm.id)
	if err != nil {
		return
	}
	if h, err := app.ClientViewHash(rec.Local); err == nil && h != pm.hash {
		pm.changed = true
		pm.refreshAccept()
	}
}

// ready reports whether Accept may be pressed, and else what is missing
// in words.
func (pm *presentMode) ready() (bool, string) {
	if pm.changed {
		return false, changedWords
	}
	var need []string
	if strings.TrimSpace(pm.name.Text) == "" {
		need = append(need, "type your full name")
	}
	if pm.pad.empty() {
		need = append(need, "sign in the box")
	}
	if !pm.consent.Checked {
		need = append(need, "tick the box to agree")
	}
	if len(need) == 0 {
		return true, ""
	}
	return false, "To accept, " + joinWords(need) + "."
}

// joinWords is "a", "a and b", "a, b and c".
func joinWords(w []string) string {
	if len(w) <= 1 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

func (pm *presentMode) refreshAccept() {
	ok, why := pm.ready()
	if ok {
		pm.accept.Enable()
	} else {
		pm.accept.Disable()
	}
	pm.missing.Importance = widget.LowImportance
	if pm.changed {
		pm.missing.Importance = widget.DangerImportance
	}
	pm.missing.SetText(why)
}

// acceptance is the edit the client's acceptance makes.
func (pm *presentMode) acceptance(now time.Time) (*app.AcceptInPerson, error) {
	sig, err := pm.pad.PNG()
	if err != nil {
		return nil, err
	}
	dev, err := pm.d.sess.st.DeviceID(context.Background())
	if err != nil {
		return nil, err
	}
	m := &app.AcceptInPerson{ID: pm.id, SignerName: strings.TrimSpace(pm.name.Text),
		SignatureImage: base64.StdEncoding.EncodeToString(sig), SnapshotHash: pm.hash,
		SignedAt: now.Format(time.RFC3339), DeviceID: dev}
	for _, a := range pm.view.Areas {
		if id, ok := pm.choices[a.ID]; ok {
			m.Options = append(m.Options, app.OptionChoice{AreaID: a.ID, OptionID: id})
		}
	}
	return m, nil
}

// acceptNow records the acceptance through the proposal's edit path
// (local store and outbox) and thanks the signer; a refusal is shown
// under the button in words.
func (pm *presentMode) acceptNow() {
	if ok, _ := pm.ready(); !ok {
		return
	}
	m, err := pm.acceptance(pm.d.now())
	if err == nil {
		err = pm.d.detail.edit(m)
	}
	if err != nil {
		pm.missing.Importance = widget.DangerImportance
		pm.missing.SetText("Not accepted: " + explainField(err))
		return
	}
	pm.signer = m.SignerName
	pm.thankYou()
}

// thankYou replaces the decision with the thanks; the screen stays the
// client's until the salesperson leaves.
func (pm *presentMode) thankYou() {
	d := app.DetailView(app.WithChoices(pm.view, pm.choices), app.ViewOptions{})
	title := widget.NewLabelWithStyle("Accepted — signed by "+pm.signer, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	dealer := d.Dealer.CompanyName
	if dealer == "" {
		dealer = "The dealer"
	}
	text := widget.NewLabel(fmt.Sprintf("Thank you. %s has your acceptance of proposal %s for %s, with your signature. "+
		"It is kept on this laptop and reaches %s's office at the next connection; the signed proposal follows from there.",
		dealer, app.FormatID(d.Number), app.FormatMoney(d.FinancialSummary.ProposalTotal, d.FinancialSummary.Currency), dealer))
	text.Wrapping = fyne.TextWrapWord
	text.Alignment = fyne.TextAlignCenter
	mark := container.NewCenter(container.NewGridWrap(fyne.NewSize(64, 64), widget.NewIcon(theme.ConfirmIcon())))
	pm.body.Objects = []fyne.CanvasObject{container.NewVBox(mark, title, text)}
	pm.page = nil
	pm.body.Refresh()
	pm.scroll.ScrollToTop()
}

// presentRow is the proposal screen's Present to client button, its tip
// (or why it is disabled) in a line beside it.
func (v *proposalView) presentRow() fyne.CanvasObject {
	hint := v.hint("")
	b := newTipButton("Present to client", theme.ComputerIcon(), presentTip, hint, v.d.PresentToClient)
	readOnly := v.rec != nil && v.rec.ReadOnly
	if why := presentRefusal(v.d.sess.user, readOnly, v.p); why != "" {
		b.disable(why)
	}
	return container.NewBorder(nil, nil, b, nil, hint)
}
