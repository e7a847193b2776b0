package apiserver

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

// TestSyncProposalsRoute: the proposals asked for come back as stored,
// in the order asked, costs hidden from a Viewer; another account's
// proposal and an unknown ID are missing, never included.
func TestSyncProposalsRoute(t *testing.T) {
	e := newEnv(t)
	a, o := e.main, e.other
	path := pathf("/public/sync/proposals?ids=%d,%d,%d,999999&ids=%d", a.locked, o.draft, a.draft, a.locked)
	hidden := func(p *app.Proposal) *app.Proposal { p.HideCosts(); return p }
	tests := []struct {
		name string
		u    *tuser
		want func(*app.Proposal) *app.Proposal
	}{
		{"admin sees costs", a.admin, func(p *app.Proposal) *app.Proposal { return p }},
		{"sales sees costs", a.sales, func(p *app.Proposal) *app.Proposal { return p }},
		{"viewer does not", a.viewer, hidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.get(tc.u, path)
			wantStatus(t, r, 200)
			var got app.SyncProposals
			r.json(t, &got)
			if got.StoreID != e.st.StoreID() {
				t.Errorf("storeId %q, want %q", got.StoreID, e.st.StoreID())
			}
			if len(got.Proposals) != 2 || !slices.Equal(got.Missing, []int64{o.draft, 999999}) {
				t.Fatalf("%d proposals, missing %v", len(got.Proposals), got.Missing)
			}
			for i, id := range []int64{a.locked, a.draft} {
				if want := tc.want(e.load(a, id)); !reflect.DeepEqual(&got.Proposals[i], want) {
					t.Errorf("proposal %d:\n got %+v\nwant %+v", id, &got.Proposals[i], want)
				}
			}
			// The draft's speaker costs 40.00: a Viewer's body never says so
			// (PostgreSQL's text has a space after the colon).
			if leaked := costRE.Match(r.body); leaked == (tc.u == a.viewer) {
				t.Errorf("the body names the cost: %v", leaked)
			}
		})
	}
	// A lapsed subscription still syncs; the parameter's name is any case.
	var got app.SyncProposals
	e.get(e.lapsed.viewer, pathf("/public/sync/proposals?IDS=%d", e.lapsed.draft)).json(t, &got)
	if len(got.Proposals) != 1 || got.Proposals[0].ID != e.lapsed.draft || len(got.Missing) != 0 {
		t.Errorf("lapsed account: %+v", got)
	}
}

var costRE = regexp.MustCompile(`"cost": ?40`)

func TestSyncProposalsBadIDs(t *testing.T) {
	e := newEnv(t)
	many := make([]string, app.MaxSyncProposals+1)
	for i := range many {
		many[i] = fmt.Sprint(i + 1)
	}
	for _, q := range []string{"", "?ids=", "?ids=abc", "?ids=0", "?ids=-4", "?ids=1,,2", "?ids=" + strings.Join(many, ",")} {
		t.Run(q, func(t *testing.T) {
			body := wantError(t, e.get(e.main.sales, "/public/sync/proposals"+q), 400, app.KindValidationFailed)
			if errs := body.ResponseStatus.Errors; len(errs) != 1 || errs[0].FieldName != "ids" {
				t.Errorf("errors %+v, want one naming ids", body.ResponseStatus.Errors)
			}
		})
	}
	// Exactly the most is fine.
	wantStatus(t, e.get(e.main.sales, "/public/sync/proposals?ids="+strings.Join(many[:app.MaxSyncProposals], ",")), 200)
}
