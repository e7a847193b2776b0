package syncer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

// detailCopy is what the sync engine made of a proposal before the bulk
// route: its detail GET, converted, with each change order from its own
// detail GET.
func detailCopy(t *testing.T, c *Client, id int64) *app.Proposal {
	t.Helper()
	got, err := c.GetProposal(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	sp := ProposalFromDetail(got.Proposal)
	var full []app.ChangeOrder
	for _, co := range sp.ChangeOrders {
		d, err := c.GetChangeOrder(bg, id, co.ID)
		if err != nil {
			t.Fatal(err)
		}
		full = append(full, ChangeOrderFromDetail(d.ChangeOrder))
	}
	WithChangeOrders(sp, full)
	return sp
}

func encoded(t *testing.T, p *app.Proposal) []byte {
	t.Helper()
	b, err := p.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// GET /public/sync/proposals gives the sync engine, for every proposal
// of the demo account, byte for byte the copy the detail GETs gave it:
// for a Sales user and for a Viewer, whose costs are hidden. The JSON
// kept as it is decodes to that copy too.
func TestSyncProposalsEqualDetailGETs(t *testing.T) {
	d := startDemo(t, 0)
	for _, role := range []app.Role{app.RoleSales, app.RoleViewer} {
		t.Run(string(role), func(t *testing.T) {
			c, _ := d.signedIn(t, role)
			ids, storeID, _ := serverIDs(t, c)
			page, err := c.SyncProposals(bg, ids)
			if err != nil {
				t.Fatal(err)
			}
			if page.StoreID != storeID || len(page.Proposals) != len(ids) || len(page.Missing) != 0 {
				t.Fatalf("store %q (feed %q), %d proposals of %d, missing %v", page.StoreID, storeID, len(page.Proposals), len(ids), page.Missing)
			}
			var kept, costs, changeOrders int
			for i, raw := range page.Proposals {
				p, err := pulledFrom(raw)
				if err != nil {
					t.Fatal(err)
				}
				if p.p.ID != ids[i] {
					t.Fatalf("proposal %d in the place of %d", p.p.ID, ids[i])
				}
				want := encoded(t, detailCopy(t, c, ids[i]))
				if got := encoded(t, p.p); !bytes.Equal(got, want) {
					t.Errorf("proposal %d from the bulk route\n%s\nfrom the detail GETs\n%s", ids[i], got, want)
				}
				if p.raw != nil {
					kept++
					var q app.Proposal
					if err := json.Unmarshal(p.raw, &q); err != nil {
						t.Fatal(err)
					}
					if got := encoded(t, &q); !bytes.Equal(got, want) {
						t.Errorf("proposal %d: the JSON kept decodes to\n%s\nnot\n%s", ids[i], got, want)
					}
				}
				costs += bytes.Count(want, []byte(`"cost":`)) - bytes.Count(want, []byte(`"cost":null`))
				changeOrders += len(p.p.ChangeOrders)
			}
			t.Logf("%d proposals, %d kept as sent, %d costs, %d change orders", len(ids), kept, costs, changeOrders)
			// Both ways of storing were taken, change orders came in
			// full, and costs are there for Sales only.
			if kept == 0 || kept == len(ids) || changeOrders == 0 || (costs > 0) != (role == app.RoleSales) {
				t.Errorf("%d of %d kept as sent, %d change orders, %d costs", kept, len(ids), changeOrders, costs)
			}
		})
	}
}

// A server store replaced between the changes feed and the download
// fails the pull before anything of it is kept (the cursor stays); the
// next pull downloads everything.
func TestPullStopsWhenTheStoreChangesMidway(t *testing.T) {
	s := startReal(t)
	serverDraft(t, s, "Mid-pull")
	front := s.restorable(t)
	d := s.newDesk(t, front.URL, app.RoleSales, nil, nil)
	front.midPull.Store(true)
	if err := d.eng.SyncOnce(bg); err == nil || !strings.Contains(err.Error(), "store changed during the pull") {
		t.Fatalf("sync with the store replaced midway: %v", err)
	}
	if id, cur, _ := d.st.Cursor(); id != "" || cur != "" {
		t.Errorf("the cursor moved: %q %q", id, cur)
	}
	if got := localIDs(t, d.st); len(got) != 0 {
		t.Errorf("%d proposals kept from the failed pull", len(got))
	}
	front.midPull.Store(false)
	d.sync(t)
	want, _, _ := serverIDs(t, d.c)
	if got := localIDs(t, d.st); !slices.Equal(got, want) {
		t.Errorf("after the next sync: %v", symmetricDiff(got, want))
	}
}

// A proposal the changes feed names and the account does not have (the
// sync route lists it as missing) is removed from the laptop; the rest
// is pulled as usual.
func TestPullRemovesWhatTheServerNoLongerHas(t *testing.T) {
	s := startReal(t)
	kept := serverDraft(t, s, "Still there")
	const gone = 987654321
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !strings.EqualFold(req.URL.Path, "/public/changes") {
			s.Handler.ServeHTTP(w, req)
			return
		}
		rec := httptest.NewRecorder()
		s.Handler.ServeHTTP(rec, req)
		var ch map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &ch); err != nil {
			t.Error(err)
		}
		ch["proposalIds"] = append(ch["proposalIds"].([]any), gone)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(ch)
	}))
	t.Cleanup(front.Close)
	d := s.newDesk(t, front.URL, app.RoleSales, nil, nil)
	// The laptop holds a copy of it from before.
	old := &app.Proposal{}
	old.ID, old.Name, old.Status = gone, "Gone since", app.StatusDraft
	if err := d.st.PutServerCopy(bg, old); err != nil {
		t.Fatal(err)
	}
	d.sync(t)
	if _, err := d.st.Record(gone); err == nil {
		t.Error("the proposal the server no longer has is still on the laptop")
	}
	if rec, err := d.st.Record(kept.ID); err != nil || rec.Server == nil || rec.Server.Name != kept.Name {
		t.Errorf("proposal %d after the pull: %v", kept.ID, err)
	}
}
