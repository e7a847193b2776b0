package ui

import (
	"context"
	"fmt"
	"slices"
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

// outboxPanel lists the edits that need the user: conflicts (mine and
// theirs side by side per field, keep mine or keep theirs), edits the
// server refused (its reason, discard, or edit and retry) and edits
// that cannot be sent at all (why, discard). Under each are the edits
// waiting for it.
type outboxPanel struct {
	d    *Desktop
	body *fyne.Container
}

// ShowOutbox opens the conflicts and failed edits panel.
func (d *Desktop) ShowOutbox() {
	if d.sess == nil {
		return
	}
	p := &outboxPanel{d: d, body: container.NewVBox()}
	p.refresh()
	dl := dialog.NewCustom("Conflicts and failed edits", "Close",
		container.New(layout.NewGridWrapLayout(fyne.NewSize(860, 520)), container.NewVScroll(p.body)), d.win)
	d.showDialog(dl)
}

func (p *outboxPanel) refresh() {
	st := p.d.sess.st
	entries, err := st.Entries()
	var objs []fyne.CanvasObject
	if err != nil {
		objs = append(objs, widget.NewLabel(explain(err)))
	}
	records := map[int64]*localstore.Record{}
	record := func(id int64) *localstore.Record {
		if r, ok := records[id]; ok {
			return r
		}
		r, _ := st.Record(id)
		records[id] = r
		return r
	}
	waiting := map[uint64][]*localstore.Entry{}
	for i := range entries {
		if e := &entries[i]; e.Blocked && e.BlockedBy != 0 {
			waiting[e.BlockedBy] = append(waiting[e.BlockedBy], e)
		}
	}
	for i := range entries {
		e := &entries[i]
		switch e.State {
		case localstore.StateConflict:
			objs = append(objs, p.conflictCard(e, record(e.ProposalID), waiting[e.Seq]))
		case localstore.StateFailed:
			if acc, ok := changedAcceptance(st, e); ok { // inperson.go
				objs = append(objs, p.inPersonCard(acc, record(e.ProposalID), waiting[e.Seq]))
				continue
			}
			objs = append(objs, p.failedCard(e, record(e.ProposalID), waiting[e.Seq]))
		}
	}
	if len(objs) == 0 {
		objs = append(objs, widget.NewLabel("Nothing needs your attention: every edit was sent or is waiting to be sent."))
	}
	p.body.Objects = objs
	p.body.Refresh()
}

func proposalName(r *localstore.Record) string {
	if r == nil || r.Local == nil {
		return "a proposal no longer on this computer"
	}
	if r.ID == 0 {
		// Older versions made this record for an edit of a copy
		// that had no ID yet.
		return "a proposal that does not exist"
	}
	if app.IsTemporaryID(r.ID) {
		return fmt.Sprintf("%q (new)", r.Local.Name)
	}
	return fmt.Sprintf("#%d %q", r.Local.Number, r.Local.Name)
}

func (p *outboxPanel) conflictCard(e *localstore.Entry, r *localstore.Record, waiting []*localstore.Entry) fyne.CanvasObject {
	box := container.NewVBox()
	fields := e.Fields()
	header := container.New(&columns{weights: []float32{0.2, 0.4, 0.4}},
		boldLabel("Field"), boldLabel("Mine (this computer)"), boldLabel("Theirs (the server)"))
	box.Add(header)
	if r != nil {
		for _, c := range r.Conflicts {
			if !slices.Contains(fields, c.Field) {
				continue
			}
			box.Add(container.New(&columns{weights: []float32{0.2, 0.4, 0.4}},
				wrapLabel(app.FieldLabel(c.Field)), wrapLabel(shown(c.Mine)), wrapLabel(shown(c.Theirs))))
		}
	}
	addWaiting(box, waiting)
	mine := widget.NewButton("Keep mine", func() { p.resolve(e.Seq, true) })
	theirs := widget.NewButton("Keep theirs", func() { p.resolve(e.Seq, false) })
	box.Add(container.NewHBox(layout.NewSpacer(), theirs, mine))
	return newCard("Conflict in "+proposalName(r), "Someone changed this on the server while you edited it offline.", box)
}

func (p *outboxPanel) resolve(seq uint64, keepMine bool) {
	if err := p.d.sess.eng.ResolveConflict(context.Background(), seq, keepMine); err != nil {
		p.d.showError("Could not resolve the conflict", err)
		return
	}
	p.after()
}

func (p *outboxPanel) after() {
	p.refresh()
	p.d.list.refresh()
	p.d.detail.reloadIfChanged()
}

func (p *outboxPanel) failedCard(e *localstore.Entry, r *localstore.Record, waiting []*localstore.Entry) fyne.CanvasObject {
	var server *app.Proposal
	var events []app.Event
	if r != nil {
		server = r.Server
		events, _ = p.d.sess.st.ClientEvents(r.ID)
	}
	why, title := refusalWords(e, server, events, time.Local), "Refused edit in "
	if e.Unsendable {
		// Found on this computer: the server never saw it.
		why, title = sentence(e.ErrorMessage), "Edit that cannot be sent, in "
	}
	reason := widget.NewLabel(why)
	reason.Wrapping = fyne.TextWrapWord
	reason.Importance = widget.DangerImportance
	box := container.NewVBox(wrapLabel(describeEntry(e)), reason)
	addWaiting(box, waiting)
	label := "Discard this edit"
	if len(waiting) > 0 {
		label += fmt.Sprintf(" and the %d waiting for it", len(waiting))
	}
	discard := widget.NewButton(label, func() {
		if err := p.d.sess.eng.Discard(context.Background(), e.Seq); err != nil {
			p.d.showError("Could not discard the edit", err)
			return
		}
		p.after()
	})
	var retry *widget.Button
	if e.Unsendable {
		// Sent again it would fail again: only discarding helps.
		box.Add(container.NewHBox(layout.NewSpacer(), discard))
		return newCard(title+proposalName(r), "", box)
	}
	if text, ok := editableText(e); ok {
		fix := newPlainEntry(p.d)
		fix.MultiLine = strings.Contains(text, "\n") || len(text) > 60
		fix.SetText(text)
		box.Add(fix)
		retry = widget.NewButton("Edit and retry", func() { p.editAndRetry(e, fix.Text) })
	} else {
		retry = widget.NewButton("Retry", func() {
			if err := p.d.sess.eng.Retry(context.Background(), e.Seq); err != nil {
				p.d.showError("Could not retry the edit", err)
				return
			}
			p.after()
		})
	}
	box.Add(container.NewHBox(layout.NewSpacer(), discard, retry))
	return newCard(title+proposalName(r), "", box)
}

// addWaiting lists the edits that wait for the one a card shows: they
// are sent once it is settled, and discarded with it.
func addWaiting(box *fyne.Container, waiting []*localstore.Entry) {
	if len(waiting) == 0 {
		return
	}
	box.Add(wrapLabel(plural(len(waiting), "edit waits", "edits wait") + " for this one and will not be sent until it is settled:"))
	for _, w := range waiting {
		box.Add(wrapLabel("• " + describeEntry(w)))
	}
}

// editAndRetry replaces a refused text edit with the corrected text: the
// old entry goes, a new edit is made (and checked by the rules now).
func (p *outboxPanel) editAndRetry(e *localstore.Entry, text string) {
	m, err := e.Decode()
	if err != nil {
		p.d.showError("Could not retry the edit", err)
		return
	}
	next, err := app.Copy(m)
	if err != nil {
		p.d.showError("Could not retry the edit", err)
		return
	}
	if _, set, ok := app.Text(next); ok {
		set(text)
	}
	eng := p.d.sess.eng
	ctx := context.Background()
	if err := eng.Discard(ctx, e.Seq); err != nil {
		p.d.showError("Could not retry the edit", err)
		return
	}
	if _, err := eng.Edit(ctx, e.ProposalID, next); err != nil {
		p.d.showError("The corrected edit was not accepted", err)
	}
	p.after()
}

// editableText is the text a refused text edit carried.
func editableText(e *localstore.Entry) (string, bool) {
	m, err := e.Decode()
	if err != nil {
		return "", false
	}
	text, _, ok := app.Text(m)
	return text, ok
}

// describeEntry says what an edit was, in words.
func describeEntry(e *localstore.Entry) string {
	switch e.Kind {
	case localstore.EntryContact:
		if e.Contact != nil {
			return "Create contact " + strings.TrimSpace(e.Contact.FirstName+" "+e.Contact.LastName)
		}
		return "Create a contact"
	case localstore.EntryLocation:
		if e.Location != nil {
			return "Add location " + e.Location.Street
		}
		return "Add a location"
	}
	if e.Kind == localstore.EntrySend {
		if e.Send != nil && e.Send.To != "" {
			return "Send to the client (" + e.Send.To + ")"
		}
		return "Send to the client"
	}
	m, err := e.Decode()
	if err != nil {
		return "An edit this version cannot read"
	}
	return m.Describe()
}

func shown(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

func boldLabel(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

func wrapLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}
