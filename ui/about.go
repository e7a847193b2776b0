package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

const aboutLabel = "About Proposal Desk"

// About shows the app's version and where its data is: what support
// asks first, and what tells a salesperson whether an update arrived.
func (d *Desktop) About() {
	version := d.opts.Version
	if version == "" {
		version = "(development build)"
	}
	title := widget.NewLabelWithStyle("Proposal Desk "+version, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	data := widget.NewLabel(fmt.Sprintf("Data folder: %s", d.opts.DataDir))
	data.Wrapping = fyne.TextWrapBreak
	body := container.NewVBox(title, widget.NewLabel("Offline-first sales proposals."), data)
	d.showDialog(dialog.NewCustom(aboutLabel, "Close", container.NewGridWrap(fyne.NewSize(420, 110), body), d.win))
}
