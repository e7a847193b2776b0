package syncer

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

// ProposalFromDetail inverts app.DetailView: over every proposal of the
// demo data (every status, change orders, bundles, recurring services,
// tax-exempt parts, discounts, payment schedules), the detail of the
// rebuilt model is the detail it was built from, byte for byte.
func TestProposalFromDetailRoundTrips(t *testing.T) {
	ctx := context.Background()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "demo.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := demo.Seed(ctx, st, demo.Options{Now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	accts, err := st.Auth().Accounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	opts := app.ViewOptions{ViewCosts: true}
	n, cos := 0, 0
	for _, a := range accts {
		err := st.View(ctx, a.ID, func(tx store.Tx) error {
			ids, err := tx.ProposalIDs()
			if err != nil {
				return err
			}
			for _, id := range ids {
				p, err := tx.Proposal(id)
				if err != nil {
					return err
				}
				want := app.DetailView(p, opts)
				got := ProposalFromDetail(roundJSON(t, want))
				var full []app.ChangeOrder
				for i := range p.ChangeOrders {
					cv := app.ChangeOrderDetailView(&p.ChangeOrders[i], opts)
					co := ChangeOrderFromDetail(roundJSON(t, cv))
					mustSameJSON(t, "change order", app.ChangeOrderDetailView(&co, opts), cv)
					full = append(full, co)
					cos++
				}
				WithChangeOrders(got, full)
				mustSameJSON(t, "proposal", app.DetailView(got, opts), want)
				if got.Version != p.Version || got.Archived != p.Archived {
					t.Fatalf("proposal %d: version %d archived %v, want %d %v", id, got.Version, got.Archived, p.Version, p.Archived)
				}
				n++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 30 || cos < 2 {
		t.Fatalf("checked %d proposals and %d change orders", n, cos)
	}
}

// roundJSON sends a view through JSON, as it travels.
func roundJSON[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustSameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Fatalf("%s differs after the round trip:\n got %s\nwant %s", what, g, w)
	}
}
