package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// lockedStillEditable is what a locked proposal still lets people change,
// as app's rules say (Operation.LockedIn): the proposal's installer
// notes, not an option's (the contract locks those with the option's
// items), the customer and the location.
const lockedStillEditable = "The proposal's installer notes, the customer and the location can still be changed; each option's installer notes are locked with its items."

// moveStatus makes a status move. A decisive one (Accepted, Declined,
// Completed: app's Status.Decisive) asks first and lists what is missing
// (app.MoveWarnings); cancel calls undo so the picker shows no choice.
func (v *proposalView) moveStatus(to app.Status, undo func()) {
	move := func() { v.editAndRebuild(&app.ChangeStatus{ID: v.p.ID, Status: to}) }
	if !to.Decisive() {
		move()
		return
	}
	v.flush()
	text := fmt.Sprintf("Mark proposal %q as %s? It becomes read-only. %s", v.p.Name, to.Label(), lockedStillEditable)
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(msg)
	w := app.MoveWarnings(v.p)
	if len(w) > 0 {
		warn := widget.NewLabel("⚠ " + strings.Join(w, "\n⚠ "))
		warn.Importance = widget.WarningImportance
		warn.Wrapping = fyne.TextWrapWord
		box.Add(warn)
	}
	confirmed := false
	dl := dialog.NewCustomConfirm("Mark as "+to.Label()+"?", "Mark as "+to.Label(), "Cancel",
		container.NewGridWrap(fyne.NewSize(460, 110+30*float32(len(w))), box), func(ok bool) {
			confirmed = ok
		}, v.d.win)
	v.d.showDialogThen(dl, func() {
		if confirmed {
			move()
		} else if undo != nil {
			undo()
		}
	})
}
