package ui

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// statusBar shows sync as it happens: online or offline, unsent edits,
// the last sync time, progress while syncing, "Sync now", and buttons to
// the failed edits and conflicts.
type statusBar struct {
	d         *Desktop
	state     syncer.State
	online    *widget.Label
	pending   *widget.Label
	last      *widget.Label
	problems  *widget.Button
	errText   *widget.Label
	progress  *widget.ProgressBar
	syncNow   *widget.Button
	signAgain *widget.Button
	content   *fyne.Container
}

func newStatusBar(d *Desktop) *statusBar {
	b := &statusBar{d: d}
	b.online = widget.NewLabel("")
	b.pending = widget.NewLabel("")
	b.last = widget.NewLabel("")
	b.errText = widget.NewLabel("")
	b.errText.Truncation = fyne.TextTruncateEllipsis
	b.errText.Importance = widget.WarningImportance
	b.progress = widget.NewProgressBar()
	b.progress.Hide()
	b.problems = widget.NewButton("", d.ShowOutbox)
	b.problems.Importance = widget.DangerImportance
	b.problems.Hide()
	b.syncNow = widget.NewButton("Sync now", d.SyncNow)
	b.signAgain = widget.NewButton("Sign in again", d.SignOut)
	b.signAgain.Hide()
	left := container.NewHBox(b.online, widget.NewSeparator(), b.pending, widget.NewSeparator(), b.last, b.problems)
	right := container.NewHBox(container.NewGridWrap(fyne.NewSize(160, b.progress.MinSize().Height), b.progress), b.signAgain, b.syncNow)
	b.content = container.NewBorder(widget.NewSeparator(), nil, left, right, b.errText)
	return b
}

func (b *statusBar) show(st syncer.State) {
	if b.step(st) {
		return
	}
	b.state = st
	b.pending.Text = "" // shown again below, with the layout
	b.online.Text, b.online.Importance = connectionWords(st)
	b.online.Refresh()
	b.showPending()
	b.last.SetText("Last sync " + formatWhen(st.LastSync, time.Now()))
	var parts []string
	if st.Failed > 0 {
		parts = append(parts, plural(st.Failed, "failed edit", "failed edits"))
	}
	if st.Conflicts > 0 {
		parts = append(parts, plural(st.Conflicts, "conflict", "conflicts"))
	}
	if len(parts) > 0 {
		text := parts[0]
		if len(parts) > 1 {
			text += " · " + parts[1]
		}
		b.problems.SetText(text + " — review")
		b.problems.Show()
	} else {
		b.problems.Hide()
	}
	if st.Syncing {
		b.progress.Show()
		if st.Total > 0 {
			b.progress.Max = float64(st.Total)
			b.progress.SetValue(float64(st.Done))
		} else {
			b.progress.Max = 1
			b.progress.SetValue(0)
		}
		b.syncNow.Disable()
	} else {
		b.progress.Hide()
		b.syncNow.Enable()
	}
	msg := ""
	expired := false
	if st.LastError != nil {
		switch app.KindOf(st.LastError) {
		case app.KindAPIKeyRevoked, app.KindInvalidCredentials, app.KindCredentialsMissing:
			msg, expired = "Your sign-in is no longer valid on the server. Sign in again to send your changes; they are kept on this computer.", true
		default:
			if errors.Is(st.LastError, syncer.ErrUnreachable) {
				msg = "Working offline: changes are kept on this computer and sent when the server can be reached."
			} else {
				msg = sentence(syncer.Explain(st.LastError))
			}
		}
	}
	b.errText.SetText(msg)
	if expired {
		b.signAgain.Show()
	} else {
		b.signAgain.Hide()
	}
	b.content.Refresh() // lay out again: texts and buttons changed size
}

// showPending says what is not on the server yet: unsent edits, then a
// value the open proposal shows as not saved, then refused and
// conflicting edits, then typing not saved yet. "All changes sent" only
// when there is none of these.
func (b *statusBar) showPending() {
	if b == nil || b.pending == nil {
		return
	}
	st := b.state
	var refused, typing bool
	if b.d != nil {
		refused, typing = b.d.detail.unsaved()
		// The engine's counts reach the bar a moment after an edit;
		// the open proposal's own are read from the store at once.
		if v := b.d.detail; b.d.sess != nil && v != nil && v.id != 0 {
			if it, ok := b.d.sess.st.Item(v.id); ok {
				st.Pending = max(st.Pending, it.Pending)
				st.Failed = max(st.Failed, it.Failed)
				st.Conflicts = max(st.Conflicts, it.Conflicts)
			}
		}
	}
	text, imp := "", widget.MediumImportance
	switch {
	case st.Pending > 0:
		text = plural(st.Pending, "unsent change", "unsent changes")
	case refused:
		text, imp = "A change is not saved", widget.DangerImportance
	case st.Failed+st.Conflicts > 0:
		text, imp = plural(st.Failed+st.Conflicts, "change not sent", "changes not sent"), widget.DangerImportance
	case typing:
		text, imp = "Typing · not saved yet", widget.WarningImportance
	default:
		text = "All changes sent"
	}
	if b.pending.Text != text || b.pending.Importance != imp {
		b.pending.Importance = imp
		b.pending.SetText(text)
		if b.content != nil {
			b.content.Refresh()
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// step shows a state that differs from the one shown only in how far
// the sync is (Done): a first sync reports thousands, and refreshing
// every label for each was most of the app's CPU while it ran (18 of
// 37 CPU-seconds). The bar moves when the percentage it shows
// changes.
func (b *statusBar) step(st syncer.State) bool {
	prev := b.state
	if !prev.Syncing || !st.Syncing || prev.Online != st.Online || prev.Phase != st.Phase || prev.Total != st.Total ||
		prev.Pending != st.Pending || prev.Blocked != st.Blocked || prev.Failed != st.Failed || prev.Conflicts != st.Conflicts ||
		!prev.LastSync.Equal(st.LastSync) || !sameError(prev.LastError, st.LastError) {
		return false
	}
	b.state = st
	if percent(prev) != percent(st) {
		b.progress.SetValue(float64(st.Done))
		if firstSync(st) {
			// The words follow the bar (not every item: see above).
			b.online.Text, _ = connectionWords(st)
			b.online.Refresh()
			b.content.Refresh()
		}
	}
	return true
}

func percent(st syncer.State) int {
	if st.Total <= 0 {
		return -1
	}
	return st.Done * 100 / st.Total
}

// sameError reports whether a and b are the same error value (without
// comparing values whose type cannot be compared).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}
