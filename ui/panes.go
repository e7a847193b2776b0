package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/localstore"
)

// The workspace's two panes: the proposal list and the open proposal.
// On a small laptop screen the list can be collapsed so the proposal
// gets the whole width; the choice is kept in the user's settings.

// listKey toggles the list pane (with Ctrl or Cmd), as Ctrl+B toggles
// the side bar in editors and mail clients.
const listKey = fyne.KeyB

// Words for the pane's button and menu item.
const (
	hideListLabel = "◀ Hide list"
	showListLabel = "▶ Show list"
)

// panes holds the list and the proposal side by side, or the proposal
// alone while the list is hidden.
type panes struct {
	d      *Desktop
	split  *container.Split
	box    *fyne.Container
	toggle *widget.Button
	hidden bool
}

func newPanes(d *Desktop, list, detail fyne.CanvasObject) *panes {
	p := &panes{d: d}
	p.split = container.NewHSplit(list, detail)
	p.split.Offset = 0.4
	p.box = container.NewStack(p.split)
	p.toggle = widget.NewButton(hideListLabel, p.flip)
	return p
}

func (p *panes) flip() { p.setHidden(!p.hidden, true) }

// setHidden shows the proposal alone (hidden) or beside the list, and
// keeps the choice when remember is set.
func (p *panes) setHidden(hidden, remember bool) {
	p.hidden = hidden
	if hidden {
		p.box.Objects = []fyne.CanvasObject{p.split.Trailing}
		p.toggle.SetText(showListLabel)
	} else {
		p.box.Objects = []fyne.CanvasObject{p.split}
		p.toggle.SetText(hideListLabel)
	}
	p.box.Refresh()
	p.split.Refresh()
	if p.d.detail != nil {
		p.d.detail.cull(nil) // the page's width changed: rows come into view
	}
	if s := p.d.sess; remember && s != nil {
		_ = s.st.UpdateSettings(context.Background(), func(set *localstore.Settings) { set.ListHidden = hidden })
	}
}

// ToggleList hides the proposal list, or shows it again (Ctrl+B).
func (d *Desktop) ToggleList() {
	if d.panes != nil {
		d.panes.flip()
	}
}

// listShortcut is the list pane's key with Ctrl (Cmd on macOS).
func listShortcut() *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: listKey, Modifier: fyne.KeyModifierShortcutDefault}
}
