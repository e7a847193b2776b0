package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Fyne refreshes a whole subtree when a container or a card is
// refreshed: every label and entry lays its text out again. A screen
// built anew (a proposal opened, an edit that changes its structure)
// needs none of that, only a layout, yet the card refreshes its content
// when its renderer is made, and the page's container when the page is
// put in place; with cards inside cards (areas, their options) the
// inner ones were laid out once per level, and a 500-item proposal's
// 2,000 fields each several times. newBody skips that first refresh.

// newCard is widget.NewCard whose content skips the refresh made while
// the card's renderer is created. Later refreshes (a title set, a theme
// change) pass through.
func newCard(title, subtitle string, content fyne.CanvasObject) *widget.Card {
	return widget.NewCard(title, subtitle, newBody(content))
}

// body holds freshly built content and skips its first refresh.
type body struct {
	widget.BaseWidget
	content fyne.CanvasObject
	placed  bool
}

func newBody(content fyne.CanvasObject) *body {
	b := &body{content: content}
	b.ExtendBaseWidget(b)
	return b
}

func (b *body) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(b.content) }

func (b *body) Refresh() {
	if !b.placed { // the first, as it is put in place: nothing drawn yet
		b.placed = true
		return
	}
	b.content.Refresh()
}
