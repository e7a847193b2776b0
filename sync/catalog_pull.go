package syncer

import (
	"context"
	"fmt"
)

// PhaseCatalog is a sync downloading catalog changes: Done of Total items
// (Total is the catalog's size on a first download, what has arrived so
// far on later ones).
const PhaseCatalog Phase = "catalog"

// CatalogPage is how many catalog changes a sync downloads and commits at
// a time: each page is one local transaction and moves the cursor, so a
// sync stopped midway goes on from the last page.
const CatalogPage = 2000

// pullCatalog follows the server's catalog changes feed from the local
// cursor to its end. A first download (no cursor, or the server's data
// was replaced) pages through the whole catalog with progress.
func (e *Engine) pullCatalog(ctx context.Context) error {
	storeID, cursor, err := e.st.CatalogCursor()
	if err != nil {
		return err
	}
	done, total := 0, 0
	for {
		ch, err := e.c.CatalogChanges(ctx, cursor, CatalogPage)
		if err != nil {
			return fmt.Errorf("catalog changes: %w", err)
		}
		if storeID != "" && ch.StoreID != storeID && cursor != "" {
			// The server's data was replaced: download it all again
			// (ApplyCatalogChanges empties the old one).
			storeID, cursor, done = ch.StoreID, "", 0
			continue
		}
		if cursor == "" {
			total = ch.ItemCount
		}
		if err := e.st.ApplyCatalogChanges(ctx, ch); err != nil {
			return err
		}
		storeID, cursor = ch.StoreID, ch.Cursor
		done += len(ch.Items) + len(ch.DeletedIDs)
		e.progress(PhaseCatalog, done, max(total, done))
		if !ch.HasMore {
			return nil
		}
	}
}
