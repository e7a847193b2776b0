package ui

import (
	"context"
	"time"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// Snapshot is what the window shows, in words, for the smoke test of
// the real binary (cmd/desktop writes it when PD_SMOKE_REPORT is set).
type Snapshot struct {
	SignedIn bool `json:"signedIn"`
	// SignInMessage is the sign-in form's message (an error or progress).
	SignInMessage string `json:"signInMessage,omitempty"`
	Rows          int    `json:"rows"`
	// Synced: a sync has completed.
	Synced bool `json:"synced"`
	// StatusError is the status bar's error line.
	StatusError string `json:"statusError,omitempty"`
	// Open is the name of the open proposal.
	Open string `json:"open,omitempty"`
	// ExportOpen: the export dialog is open.
	ExportOpen bool `json:"exportOpen,omitempty"`
	// Focus is "name" when the open proposal's name has the focus.
	Focus string `json:"focus,omitempty"`
	// NameField is what the open proposal's name field shows.
	NameField string `json:"nameField,omitempty"`
	// Picker is the open catalog picker's status line.
	Picker string `json:"picker,omitempty"`
	// FormMessage is the open form dialog's refusal, if any.
	FormMessage string    `json:"formMessage,omitempty"`
	LastSync    time.Time `json:"lastSync"`

	// Presenting: the client's screen (Present to client) is shown.
	Presenting bool `json:"presenting,omitempty"`
}

// Snapshot describes the window (UI goroutine).
func (d *Desktop) Snapshot() Snapshot {
	var s Snapshot
	if d.signin != nil {
		s.SignInMessage = d.signin.message.Text
	}
	if d.sess == nil {
		return s
	}
	s.SignedIn = true
	st := d.sess.eng.State()
	s.LastSync, s.Synced = st.LastSync, !st.LastSync.IsZero() && !st.Syncing
	if d.list != nil {
		s.Rows = len(d.list.rows)
	}
	if d.status != nil {
		s.StatusError = d.status.errText.Text
	}
	s.ExportOpen = d.export != nil && d.dlg == d.export.dlg
	if d.form != nil {
		s.FormMessage = d.form.msg.Text
	}
	s.Presenting = d.present != nil
	if d.detail != nil && d.detail.ct != nil {
		if p := d.detail.ct.picker; p != nil && d.dlg == p.dlg {
			s.Picker = p.status.Text
		}
	}
	if d.detail != nil && d.detail.p != nil {
		s.Open = d.detail.p.Name
		if d.detail.name != nil {
			s.NameField = d.detail.name.Text
			if d.win.Canvas().Focused() == d.detail.name {
				s.Focus = "name"
			}
		}
	}
	return s
}

// OpenFirst opens the first proposal of the list (the smoke test's
// screenshot shows a proposal).
func (d *Desktop) OpenFirst() { d.OpenRow(0) }

// OpenRow opens the proposal of the list's row i, as a click does; false
// when there is no such row.
func (d *Desktop) OpenRow(i int) bool {
	if d.list == nil || i < 0 || i >= len(d.list.rows) {
		return false
	}
	d.list.list.Select(i)
	return true
}

// Search puts text in the list's search box, as typing does: the list
// follows at once (the startup log times it).
func (d *Desktop) Search(text string) {
	if d.list != nil {
		d.list.search.SetText(text)
	}
}

// SmokeRemoteRename is the smoke run's remote change: with the open
// proposal's name focused, the proposal is renamed on the server (as a
// colleague would, not through this computer's store), then synced, so
// the screenshot shows the focused field taking the new name.
func (d *Desktop) SmokeRemoteRename(name string) {
	v := d.detail
	if d.sess == nil || v == nil || v.p == nil || v.name == nil || v.id <= 0 {
		return
	}
	d.win.Canvas().Focus(v.name)
	c, id := d.sess.client, v.id
	go func() {
		if _, err := c.Do(context.Background(), &app.UpdateProposal{ID: id, Name: &name}, syncer.WriteOptions{}); err != nil {
			d.opts.Do(func() { d.showError("Smoke: the remote rename failed", err) })
			return
		}
		d.opts.Do(d.SyncNow)
	}()
}
