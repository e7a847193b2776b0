package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// newCard is widget.NewCard with a content that skips the refresh the
// card makes while its renderer is created: widget.Card refreshes its
// content then (applyTheme), so with cards inside cards (areas, their
// options) each inner card's content was refreshed once per level of
// nesting while a screen was built, before anything was drawn. Later
// refreshes (a title set, a theme change) pass through.
func newCard(title, subtitle string, content fyne.CanvasObject) *widget.Card {
	return widget.NewCard(title, subtitle, newCardBody(content))
}

type cardBody struct {
	widget.BaseWidget
	content fyne.CanvasObject
	made    bool
}

func newCardBody(content fyne.CanvasObject) *cardBody {
	b := &cardBody{content: content}
	b.ExtendBaseWidget(b)
	return b
}

func (b *cardBody) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(b.content) }

func (b *cardBody) Refresh() {
	if !b.made { // the card's own, at its creation: nothing drawn yet
		b.made = true
		return
	}
	b.content.Refresh()
}
