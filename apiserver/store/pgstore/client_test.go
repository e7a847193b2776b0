package pgstore

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// TestClientEventsAppendOnly: the database itself refuses to change or
// remove an evidence event.
func TestClientEventsAppendOnly(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	s := f.S.(*Store)
	if err := s.Update(ctx, f.A, func(tx store.Tx) error {
		_, err := tx.AppendClientEvent(f.ProposalA, app.Event{Type: app.EventSent, Actor: app.ActorSystem})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"UPDATE client_events SET doc = '{}'::bytea",
		"DELETE FROM client_events",
	} {
		if _, err := s.pool.Exec(ctx, sql); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v", sql, err)
		}
	}
}

// openReplicas opens two stores on one fresh database, as two server
// replicas do.
func openReplicas(t *testing.T) (*Store, *Store) {
	t.Helper()
	s1, url := openTest(t)
	s2, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s2.Close() })
	return s1, s2
}

// TestExpiryRunsOnceAcrossReplicas: two replicas run the expiry at the
// same moment over the same due links; each proposal expires once, with
// one Expired event.
func TestExpiryRunsOnceAcrossReplicas(t *testing.T) {
	s1, s2 := openReplicas(t)
	acct, err := s1.Auth().CreateAccount(ctx, store.Account{Name: "a", SubscriptionExpiry: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	var ids []int64
	for range 20 {
		if err := s1.Update(ctx, acct.ID, func(tx store.Tx) error {
			p := storetest.NewProposal(tx, "sent", nil)
			p.Status = app.StatusViewedByClient
			p.ClientLink = &app.ClientLink{ID: "L", ExpiresOn: app.At(past)}
			ids = append(ids, p.ID)
			if err := tx.PutProposal(p); err != nil {
				return err
			}
			return tx.SetClientExpiry(p.ID, past)
		}); err != nil {
			t.Fatal(err)
		}
	}
	servers := []*apiserver.Server{apiserver.New(apiserver.Config{}, s1), apiserver.New(apiserver.Config{}, s2)}
	var wg sync.WaitGroup
	moved := make([]int, len(servers))
	for i, srv := range servers {
		wg.Go(func() {
			n, err := srv.ExpireDue(ctx)
			if err != nil {
				t.Error(err)
			}
			moved[i] = n
		})
	}
	wg.Wait()
	if moved[0]+moved[1] != len(ids) {
		t.Errorf("replicas moved %v, want %d in all", moved, len(ids))
	}
	for _, id := range ids {
		if err := s2.View(ctx, acct.ID, func(tx store.Tx) error {
			p, err := tx.Proposal(id)
			if err != nil {
				return err
			}
			events, err := tx.ClientEvents(id)
			if err != nil {
				return err
			}
			if p.Status != app.StatusExpired || len(events) != 1 || events[0].Type != app.EventExpired {
				t.Errorf("proposal %d: %s with %d events", id, p.Status, len(events))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if due, _ := s1.DueClientExpiries(ctx, time.Now(), 100); len(due) != 0 {
		t.Errorf("still due: %v", due)
	}
}

// TestCopyKeepsClientEvidence: migrate-data's copy from bbolt brings the
// snapshots, the events (same IDs and hashes, chain intact) and the
// expiry index.
func TestCopyKeepsClientEvidence(t *testing.T) {
	src, err := boltstore.Open(filepath.Join(t.TempDir(), "data.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	acct, err := src.Auth().CreateAccount(ctx, store.Account{Name: "a", SubscriptionExpiry: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)
	var id int64
	var want []app.Event
	if err := src.Update(ctx, acct.ID, func(tx store.Tx) error {
		p := storetest.NewProposal(tx, "sent", nil)
		id = p.ID
		if err := tx.PutProposal(p); err != nil {
			return err
		}
		if err := tx.PutClientSnapshot(id, "h1", []byte("snapshot bytes")); err != nil {
			return err
		}
		want = nil
		for _, typ := range []app.EventType{app.EventSent, app.EventOpened, app.EventAccepted} {
			e, err := tx.AppendClientEvent(id, app.Event{Type: typ, Actor: app.ActorClient, Data: map[string]string{"linkId": "L"}})
			if err != nil {
				return err
			}
			want = append(want, e)
		}
		return tx.SetClientExpiry(id, expires)
	}); err != nil {
		t.Fatal(err)
	}
	dst, _ := openTest(t)
	if err := dst.Import(ctx, func(sink store.Sink) error { return src.CopyTo(ctx, sink) }); err != nil {
		t.Fatal(err)
	}
	if err := dst.View(ctx, acct.ID, func(tx store.Tx) error {
		doc, err := tx.ClientSnapshot(id, "h1")
		if err != nil || string(doc) != "snapshot bytes" {
			t.Errorf("snapshot %q, %v", doc, err)
		}
		got, err := tx.ClientEvents(id)
		if err != nil {
			return err
		}
		if len(got) != len(want) || got[2].Hash != want[2].Hash || app.VerifyEvents(id, got) != nil {
			t.Errorf("events after the copy: %+v", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	due, err := dst.DueClientExpiries(ctx, expires, 10)
	if err != nil || len(due) != 1 || due[0].ProposalID != id || !due[0].At.Equal(expires) {
		t.Errorf("expiries after the copy: %+v, %v", due, err)
	}
}
