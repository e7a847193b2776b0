package apiserver

import (
	"net/url"
	"slices"
	"testing"

	"proposaldesk/app"
)

// peopleFeed follows the people feed of u from cursor to its end, limit
// contacts a page, and returns the contacts' IDs, their locations' IDs
// and the last cursor.
func (e *tenv) peopleFeed(u *tuser, cursor, limit string) (ids []int64, locs map[int64][]int64, next string, pages int) {
	e.t.Helper()
	locs = map[int64][]int64{}
	for {
		var ch app.PeopleChanges
		e.get(u, "/public/people/changes?Limit="+limit+"&since="+url.QueryEscape(cursor)).json(e.t, &ch)
		if ch.StoreID != e.st.StoreID() {
			e.t.Fatalf("storeId %q, want %q", ch.StoreID, e.st.StoreID())
		}
		pages++
		for _, p := range ch.People {
			ids = append(ids, p.ID)
			for _, l := range p.Locations {
				locs[p.ID] = append(locs[p.ID], l.ID)
			}
		}
		cursor = ch.Cursor
		if !ch.HasMore {
			return ids, locs, cursor, pages
		}
	}
}

func TestPeopleChangesRoute(t *testing.T) {
	e := newEnv(t)
	a, o := e.main, e.other
	// The setup wrote Ann, then Bare Co, then Ann's two locations.
	ids, locs, cursor, pages := e.peopleFeed(a.viewer, "", "1")
	if !slices.Equal(ids, []int64{a.bare, a.contact}) || !slices.Equal(locs[a.contact], []int64{a.loc, a.loc2}) || len(locs[a.bare]) != 0 || pages != 2 {
		t.Fatalf("first download: %v %v in %d pages", ids, locs, pages)
	}
	// Nothing changed: one request, nothing in it.
	if ids, _, next, pages := e.peopleFeed(a.sales, cursor, "500"); len(ids) != 0 || next != cursor || pages != 1 {
		t.Errorf("nothing changed: %v, cursor %q in %d pages", ids, next, pages)
	}
	// A new location is a change of its contact, in its account only.
	var loc app.ContactLocation
	e.postJSON(a.sales, pathf("/public/people/%d/location", a.bare), map[string]any{"Street": "2 Elm", "State": "TX"}).json(t, &loc)
	ids, locs, _, _ = e.peopleFeed(a.viewer, cursor, "500")
	if !slices.Equal(ids, []int64{a.bare}) || !slices.Equal(locs[a.bare], []int64{loc.ID}) {
		t.Errorf("after a new location: %v %v", ids, locs)
	}
	if ids, _, _, _ := e.peopleFeed(o.viewer, "", "500"); !slices.Equal(ids, []int64{o.bare, o.contact}) {
		t.Errorf("the other account's feed: %v", ids)
	}
	// A lapsed subscription still syncs.
	if ids, _, _, _ := e.peopleFeed(e.lapsed.viewer, "", "500"); len(ids) != 2 {
		t.Errorf("lapsed account's feed: %v", ids)
	}
	wantError(t, e.get(a.sales, "/public/people/changes?Limit=0"), 400, app.KindInvalidPaging)
	wantError(t, e.get(a.sales, pathf("/public/people/changes?Limit=%d", app.MaxPeopleChangesLimit+1)), 400, app.KindInvalidPaging)
	wantError(t, e.get(a.sales, "/public/people/changes?since=abc"), 400, app.KindValidationFailed)
}
