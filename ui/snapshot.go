package ui

import "time"

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
	// FormMessage is the open form dialog's refusal, if any.
	FormMessage string    `json:"formMessage,omitempty"`
	LastSync    time.Time `json:"lastSync"`
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
	if d.detail != nil && d.detail.p != nil {
		s.Open = d.detail.p.Name
		if d.detail.name != nil && d.win.Canvas().Focused() == d.detail.name {
			s.Focus = "name"
		}
	}
	return s
}

// OpenFirst opens the first proposal of the list (the smoke test's
// screenshot shows a proposal).
func (d *Desktop) OpenFirst() {
	if d.list != nil && len(d.list.rows) > 0 {
		d.list.list.Select(0)
	}
}
