package ui

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

// Sending a proposal to the client, and what the client did with it.
// Send to client… (menu, Ctrl+Shift+S, the proposal's Client card)
// queues the send and syncs at once: online it goes out now and the
// answer shows the link and whether mail went out; offline it waits in
// the outbox for the next sync. Copy client link copies the last link
// this laptop saw (the server shows a link's URL only once). The card
// says what the last sync learned: viewed, accepted or declined, by
// whom and when, and opens the signed PDF.

// sendForm is the open Send to client… dialog.
type sendForm struct {
	id                  int64
	to, message, expiry *widget.Entry
	dlg                 *dialog.ConfirmDialog
}

// sendShortcutKey with Ctrl+Shift (Cmd+Shift on macOS) opens Send to client….
const sendShortcutKey = fyne.KeyS

// SendToClient opens the Send to client… dialog for the open proposal.
func (d *Desktop) SendToClient() {
	v := d.detail
	if d.sess == nil || v == nil || v.p == nil {
		return
	}
	v.flush()
	p := v.p
	if err := app.CheckSend(p); err != nil {
		d.showError("Cannot send", err)
		return
	}
	f := &sendForm{id: v.id}
	f.to = widget.NewEntry()
	f.to.SetText(p.Customer.ContactEmail)
	f.to.SetPlaceHolder("client@example.com, another@example.com")
	f.message = widget.NewMultiLineEntry()
	f.message.SetMinRowsVisible(4)
	f.message.Wrapping = fyne.TextWrapWord
	f.message.SetPlaceHolder("A few words for the client (optional)")
	f.expiry = widget.NewEntry()
	f.expiry.SetText(defaultExpiry(d.now()))
	form := widget.NewForm(
		widget.NewFormItem("To", f.to),
		widget.NewFormItem("Message", f.message),
		widget.NewFormItem("Link expires on", f.expiry),
	)
	form.Items[0].HintText = "The customer's email; separate several with commas"
	form.Items[2].HintText = "YYYY-MM-DD; the client can decide through the whole day"
	body := container.NewGridWrap(fyne.NewSize(480, form.MinSize().Height), form)
	f.dlg = dialog.NewCustomConfirm(fmt.Sprintf("Send proposal #%d to the client", p.Number), "Send", "Cancel", body,
		func(ok bool) {
			if ok {
				d.sendNow(f)
			}
		}, d.win)
	// Enter in a one-line field sends, as the dialog's main button.
	f.to.OnSubmitted = func(string) { f.dlg.Confirm() }
	f.expiry.OnSubmitted = f.to.OnSubmitted
	d.sendDlg = f
	d.showDialogThen(f.dlg, func() {
		if d.sendDlg == f {
			d.sendDlg = nil
		}
	})
	// The address is filled in; the message is what is left to type.
	d.win.Canvas().Focus(f.message)
}

// defaultExpiry is the date the dialog proposes: 30 days from today,
// as the server's default.
func defaultExpiry(now time.Time) string {
	return now.UTC().AddDate(0, 0, app.DefaultLinkDays).Format(time.DateOnly)
}

// now is the laptop's clock (tests change it through the engine).
func (d *Desktop) now() time.Time { return time.Now() }

// sendNow queues the send and syncs in the background; the answer is
// shown when it is known.
func (d *Desktop) sendNow(f *sendForm) {
	s := d.sess
	req := localstore.SendRequest{To: strings.TrimSpace(f.to.Text), Message: f.message.Text, ExpiresOn: strings.TrimSpace(f.expiry.Text)}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		out, err := s.eng.SendToClient(context.Background(), f.id, req)
		d.opts.Do(func() { d.showSendOutcome(out, err) })
	}()
}

// sendOutcomeWords is what the answer to a send says.
func sendOutcomeWords(out syncer.SendOutcome) (title, text string) {
	if out.Queued {
		return "Send queued", "The server cannot be reached now. The send is saved and goes out at the next sync; the link will be shown then, and Copy client link copies it."
	}
	text = "The client's link: " + out.URL
	switch out.Mail {
	case app.MailNotSent:
		text += "\n\n" + sentence(out.MailNote)
	case app.MailFailed:
		text += "\n\nThe mail was refused: " + sentence(out.MailNote)
	default:
		text += "\n\nThe link is on its way to the client by mail."
	}
	if out.URL == "" {
		text = "Sent. This laptop did not get the link's address (a repeated answer); send again to make a new link."
	}
	return "Sent to the client", text
}

// showSendOutcome shows what became of a send.
func (d *Desktop) showSendOutcome(out syncer.SendOutcome, err error) {
	if err != nil {
		d.showError("Not sent", err)
		return
	}
	title, text := sendOutcomeWords(out)
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	content := fyne.CanvasObject(msg)
	if out.URL != "" {
		link := out.URL
		content = container.NewVBox(msg, widget.NewButtonWithIcon("Copy client link", theme.ContentCopyIcon(), func() {
			d.app.Clipboard().SetContent(link)
		}))
	}
	msg.Resize(fyne.NewSize(480, 0)) // so that MinSize is the wrapped text's
	d.showDialog(dialog.NewCustom(title, "Close", container.NewGridWrap(fyne.NewSize(480, content.MinSize().Height+40), content), d.win))
	if d.detail != nil {
		d.detail.refreshClient()
	}
}

// CopyClientLink copies the open proposal's last link to the
// clipboard.
func (d *Desktop) CopyClientLink() {
	v := d.detail
	if d.sess == nil || v == nil || v.p == nil {
		return
	}
	l, ok, err := d.sess.st.SavedLink(v.id)
	switch {
	case err != nil:
		d.showError("Cannot copy the link", err)
	case !ok:
		d.showInfo("No client link", "This laptop has not seen a link for this proposal: the server shows a link only to the send that made it. Send to client… makes a new one.")
	default:
		d.app.Clipboard().SetContent(l.URL)
		words := "Copied: " + l.URL
		if cl := v.p.ClientLink; cl != nil && cl.ID != l.LinkID {
			words += "\n\nA later send (from another computer) replaced this link: the client's page says so. Send again for a link that works."
		}
		d.showInfo("Client link copied", words)
	}
}

// OpenSignedPDF downloads the proposal's signed PDF into the data
// folder and opens it with the system's viewer.
func (d *Desktop) OpenSignedPDF() {
	v := d.detail
	s := d.sess
	if s == nil || v == nil || v.p == nil {
		return
	}
	id, dir := v.id, filepath.Join(d.opts.DataDir, "signed")
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		path, err := s.eng.SignedPDF(context.Background(), id, dir)
		d.opts.Do(func() {
			if err != nil {
				d.showError("Cannot open the signed PDF", err)
				return
			}
			d.lastSignedPDF = path
			if err := d.app.OpenURL(&url.URL{Scheme: "file", Path: path}); err != nil {
				d.showError("Cannot open the signed PDF", fmt.Errorf("saved as %s, but: %w", path, err))
			}
		})
	}()
}

// clientDecision is the client's last decision in events: the
// Accepted or Declined event, or nil.
func clientDecision(events []app.Event) *app.Event {
	for i := len(events) - 1; i >= 0; i-- {
		switch events[i].Type {
		case app.EventAccepted, app.EventAcceptedInPerson, app.EventDeclined:
			return &events[i]
		}
	}
	return nil
}

// agoWords says how long ago t was, in words: "just now", "5 minutes
// ago", "2 hours ago", "3 days ago".
func agoWords(t, now time.Time) string {
	d := now.Sub(t)
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, unit)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return plural(int(d/time.Hour), "hour")
	default:
		return plural(int(d/(24*time.Hour)), "day")
	}
}

// viewedWords is "Viewed by the client 2 hours ago", or "" when the
// client has not opened the proposal.
func viewedWords(opened app.Time, now time.Time) string {
	if opened.IsZero() {
		return ""
	}
	return "Viewed by the client " + agoWords(opened.Time, now)
}

// clockWords is a time as the card shows it, in the laptop's zone:
// "26 Nov 2026 at 14:02".
func clockWords(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2 Jan 2006 at 15:04")
}

// clientLines is what the Client card says: the queued send, the link
// and its mail, the client's opens, and the decision, taken on the
// client's page or in person (the server's record once synced, this
// laptop's own until then: here is the acceptance this laptop took, nil
// for none).
func clientLines(p *app.Proposal, events []app.Event, queued *localstore.Entry, here *localstore.AcceptanceStatus, now time.Time, loc *time.Location) []string {
	var out []string
	if queued != nil {
		out = append(out, "Send to the client queued: it goes out at the next sync.")
		if queued.State == localstore.StateFailed {
			out[len(out)-1] = "The queued send was refused: " + sentence(queued.ErrorMessage)
		}
	}
	decision := clientDecision(events)
	if cl := p.ClientLink; cl != nil {
		out = append(out, linkLines(cl, loc)...)
		if w := viewedWords(p.ClientLastOpenedDate, now); w != "" {
			out = append(out, w+".")
		}
	} else if queued == nil && decision == nil && here == nil {
		return append(out, "Not sent to the client yet.")
	}
	switch {
	case decision != nil:
		out = append(out, decisionWords(decision, loc))
	case here != nil && here.State == localstore.AcceptanceQueued:
		out = append(out, fmt.Sprintf("Accepted in person by %s on %s, on this laptop; the server records it at the next sync.",
			here.Signer(), clockWords(here.Taken, loc)))
	case here != nil && here.State == localstore.AcceptanceRecorded:
		// The server took it; its evidence is read at the next sync.
		out = append(out, fmt.Sprintf("Accepted in person by %s on %s; the server recorded it.",
			here.Signer(), clockWords(here.Taken, loc)))
	case p.ClientLink != nil && p.Status == app.StatusExpired:
		out = append(out, "The link expired before the client decided.")
	}
	return out
}

// linkLines say when the link went out, to whom, until when, and what
// became of its mail.
func linkLines(cl *app.ClientLink, loc *time.Location) []string {
	// ExpiresOn is the midnight (UTC) after the last day the link
	// decides: the sender chose that day.
	lastDay := cl.ExpiresOn.Add(-time.Second).UTC().Format("2 Jan 2006")
	out := []string{fmt.Sprintf("Sent %s to %s; the link works through %s.", clockWords(cl.SentDate.Time, loc),
		strings.Join(cl.SentTo, ", "), lastDay)}
	switch cl.Mail {
	case app.MailNotSent:
		out = append(out, "No mail went out: copy the link and send it to the client yourself.")
	case app.MailFailed:
		out = append(out, "The mail was refused: "+sentence(cl.MailNote))
	case app.MailQueued:
		out = append(out, "The mail is on its way.")
	case app.MailAccepted:
		out = append(out, "The mail was delivered to the client's mail server.")
	}
	return out
}

// decisionWords say the client's decision as the server recorded it.
func decisionWords(ev *app.Event, loc *time.Location) string {
	who := ev.Data["signerName"]
	switch ev.Type {
	case app.EventDeclined:
		line := "Declined by the client on " + clockWords(ev.At.Time, loc) + "."
		if r := ev.Data["reason"]; r != "" {
			line += " Reason: " + r
		}
		return line
	case app.EventAcceptedInPerson:
		return fmt.Sprintf("Accepted in person by %s on %s.", who, clockWords(ev.At.Time, loc))
	default:
		return fmt.Sprintf("Accepted by %s on %s.", who, clockWords(ev.At.Time, loc))
	}
}

// refusalWords are the words Review shows for a refused edit. An edit
// refused because the client decided meanwhile says so, with the time
// of the decision: "The client accepted this proposal at 14:02; your
// change was not applied." Any other refusal is the server's message.
func refusalWords(e *localstore.Entry, server *app.Proposal, events []app.Event, loc *time.Location) string {
	if e.ErrorKind == app.KindProposalLocked && server != nil {
		if ev := clientDecision(events); ev != nil && (server.Status == app.StatusAccepted || server.Status == app.StatusDeclined) {
			verb := "accepted"
			if ev.Type == app.EventDeclined {
				verb = "declined"
			}
			return fmt.Sprintf("The client %s this proposal at %s; your change was not applied.", verb, ev.At.In(loc).Format("15:04"))
		}
	}
	return "The server said: " + sentence(e.ErrorMessage)
}

// clientCard is the proposal's Client card: its lines and the send,
// copy and signed PDF buttons.
func (v *proposalView) clientCard() fyne.CanvasObject {
	v.clientText = widget.NewLabel("")
	v.clientText.Wrapping = fyne.TextWrapWord
	send := widget.NewButtonWithIcon("Send to client…", theme.MailSendIcon(), v.d.SendToClient)
	copyLink := widget.NewButtonWithIcon("Copy client link", theme.ContentCopyIcon(), v.d.CopyClientLink)
	v.signedPDF = widget.NewButtonWithIcon("Open signed PDF", theme.DocumentIcon(), v.d.OpenSignedPDF)
	v.laptopPDF = widget.NewButtonWithIcon(laptopSignedPDFLabel, theme.DocumentIcon(), v.d.OpenLaptopSignedPDF)
	if err := app.CheckSend(v.p); err != nil || !v.d.sess.user.Role.Can(app.PermEditProposals) {
		send.Disable()
	}
	v.refreshClient()
	return newCard("Client", "", container.NewVBox(v.clientText, container.NewHBox(send, copyLink, v.signedPDF, v.laptopPDF), v.presentRow()))
}

// refreshClient shows what the last sync learned of the client.
func (v *proposalView) refreshClient() {
	if v.clientText == nil || v.p == nil || v.d.sess == nil {
		return
	}
	st := v.d.sess.st
	events, _ := st.ClientEvents(v.id)
	var queued *localstore.Entry
	if e, ok, _ := st.QueuedSend(v.id); ok {
		queued = &e
	}
	var here *localstore.AcceptanceStatus
	if acc, ok, err := st.AcceptanceOf(v.id); err == nil && ok {
		here = &acc
	}
	text := strings.Join(clientLines(v.p, events, queued, here, time.Now(), time.Local), "\n")
	if v.clientText.Text != text {
		v.clientText.SetText(text)
	}
	if clientDecision(events) != nil {
		v.signedPDF.Show()
	} else {
		v.signedPDF.Hide()
	}
	if here != nil && (here.State == localstore.AcceptanceQueued || here.State == localstore.AcceptanceRecorded) {
		v.laptopPDF.Show()
	} else {
		v.laptopPDF.Hide()
	}
}

// sendShortcut is Send to client…'s shortcut.
func sendShortcut() *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: sendShortcutKey, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
}
