package syncer

import (
	"context"
	"fmt"
)

// PhasePeople is a sync downloading contact changes: Done of Total
// contacts (Total is the account's contacts on a first download, what
// has arrived so far on later ones).
const PhasePeople Phase = "people"

// PeoplePage is how many changed contacts (with their locations) a sync
// downloads and commits at a time: each page is one local transaction
// and moves the cursor, so a sync stopped midway goes on from the last
// page.
const PeoplePage = 1000

// pullPeople follows the server's people changes feed from the local
// cursor to its end, as pullCatalog follows the catalog's: a sync with
// nothing changed is one request, whatever the number of contacts.
func (e *Engine) pullPeople(ctx context.Context) error {
	storeID, cursor, err := e.st.PeopleCursor()
	if err != nil {
		return err
	}
	done, total := 0, 0
	for {
		ch, err := e.c.PeopleChanges(ctx, cursor, PeoplePage)
		if err != nil {
			return fmt.Errorf("people changes: %w", err)
		}
		if storeID != "" && ch.StoreID != storeID && cursor != "" {
			// The server's data was replaced: download them all again
			// (ApplyPeopleChanges drops the old ones).
			storeID, cursor, done = ch.StoreID, "", 0
			continue
		}
		if cursor == "" {
			total = ch.PeopleCount
		}
		if err := e.st.ApplyPeopleChanges(ctx, ch); err != nil {
			return err
		}
		storeID, cursor = ch.StoreID, ch.Cursor
		done += len(ch.People)
		e.progress(PhasePeople, done, max(total, done))
		if !ch.HasMore {
			return nil
		}
	}
}
