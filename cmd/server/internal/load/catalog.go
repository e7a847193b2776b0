package load

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// catalogTyping is what salespeople type into the catalog picker: each
// request is one keystroke of one of these (a prefix of two or more
// characters), so short, broad prefixes weigh as much as they do in use.
var catalogTyping = []string{
	"sonos amp", "origin in-ceiling 8", "samsung 85", "cat6 1000", "araknis switch 24",
	"lutron dimmer", "installation labor", "trip charge", "u7 pro", "denon avr", "hdmi fiber 50",
	"control4 core", "wattbox ups", "sony projector", "luma camera",
}

// catalog sends one catalog search: a random prefix of a random typed
// text, sometimes filtered by item type, first page of the default size.
func (w *worker) catalog(ctx context.Context) (int, []byte, error) {
	text := catalogTyping[w.r.IntN(len(catalogTyping))]
	text = text[:2+w.r.IntN(len(text)-1)]
	q := url.Values{"SearchText": {text}}
	if w.r.IntN(5) == 0 {
		q.Set("ItemType", "Part")
	}
	return w.do(ctx, http.MethodGet, "/public/catalog?"+q.Encode(), nil)
}

// warmCatalog sends one search before the run: the server builds an
// account's search index on the first search after a start or an
// import, and that one-off is not what the run measures.
func warmCatalog(ctx context.Context, c *client) error {
	status, body, err := c.do(ctx, http.MethodGet, "/public/catalog?SearchText=a", nil)
	if err != nil {
		return fmt.Errorf("catalog warm-up: %w", err)
	}
	if status != http.StatusOK {
		return fmt.Errorf("catalog warm-up: HTTP %d: %s", status, truncate(body))
	}
	return nil
}
