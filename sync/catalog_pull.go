package syncer

import (
	"context"
	"fmt"

	"proposaldesk/app"
)

// PhaseCatalog is a sync downloading catalog changes: Done of Total items
// (Total is the catalog's size on a first download, what has arrived so
// far on later ones).
const PhaseCatalog Phase = "catalog"

// CatalogPage is how many catalog changes a sync downloads and commits at
// a time (the server's largest page): each page is one local transaction
// and moves the cursor, so a sync stopped midway goes on from the last
// page.
const CatalogPage = 5000

// catalogPage is one page of the feed as the download loop hands it to
// the store: restart says the server's data was replaced and the pages
// start over from the beginning.
type catalogPage struct {
	ch      app.CatalogChanges
	first   bool // the feed's first page (ItemCount is the catalog's size)
	restart bool
	err     error
}

// pullCatalog follows the server's catalog changes feed from the local
// cursor to its end. A first download (no cursor, or the server's data
// was replaced) pages through the whole catalog with progress. The next
// page is downloaded while the last one is stored (at most two pages in
// memory), so the network and the server's work overlap the laptop's.
func (e *Engine) pullCatalog(ctx context.Context) error {
	storeID, cursor, err := e.st.CatalogCursor()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan catalogPage)
	go e.fetchCatalog(ctx, storeID, cursor, pages)
	done, total := 0, 0
	for p := range pages {
		if p.err != nil {
			return p.err
		}
		if p.restart {
			done = 0
		}
		if p.first {
			total = p.ch.ItemCount
		}
		if err := e.st.ApplyCatalogChanges(ctx, p.ch); err != nil {
			return err
		}
		done += len(p.ch.Items) + len(p.ch.DeletedIDs)
		e.progress(PhaseCatalog, done, max(total, done))
	}
	return nil
}

// fetchCatalog downloads the feed's pages from cursor and sends them in
// order, then closes pages; it stops at the first error (sent) or when
// ctx ends.
func (e *Engine) fetchCatalog(ctx context.Context, storeID, cursor string, pages chan<- catalogPage) {
	defer close(pages)
	restart := false
	for {
		ch, err := e.c.CatalogChanges(ctx, cursor, CatalogPage)
		if err != nil {
			select {
			case pages <- catalogPage{err: fmt.Errorf("catalog changes: %w", err)}:
			case <-ctx.Done():
			}
			return
		}
		if storeID != "" && ch.StoreID != storeID && cursor != "" {
			// The server's data was replaced: download it all again
			// (ApplyCatalogChanges empties the old one).
			storeID, cursor, restart = ch.StoreID, "", true
			continue
		}
		p := catalogPage{ch: ch, first: cursor == "", restart: restart}
		select {
		case pages <- p:
		case <-ctx.Done():
			return
		}
		storeID, cursor, restart = ch.StoreID, ch.Cursor, false
		if !ch.HasMore {
			return
		}
	}
}
