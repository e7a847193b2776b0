package storetest

import (
	"errors"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// testClientEvidence checks what a send keeps (store.ClientTx): frozen
// snapshots by hash, the events chained in order, the expiry index; all
// scoped to the account and rolled back with a failed write.
func testClientEvidence(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	s := f.S
	at := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	ev := func(typ app.EventType, i int) app.Event {
		return app.Event{Type: typ, At: app.At(at.Add(time.Duration(i) * time.Second)), Actor: app.ActorClient, IP: "192.0.2.1",
			SnapshotHash: "ab", Data: map[string]string{"linkId": "L1"}}
	}
	mustUpdate(t, s, f.A, func(tx store.Tx) error {
		if err := tx.PutClientSnapshot(f.ProposalA, "ab", []byte(`{"name":"first"}`)); err != nil {
			return err
		}
		// The same hash again keeps the first bytes.
		if err := tx.PutClientSnapshot(f.ProposalA, "ab", []byte(`{"name":"second"}`)); err != nil {
			return err
		}
		for i, typ := range []app.EventType{app.EventSent, app.EventOpened} {
			e, err := tx.AppendClientEvent(f.ProposalA, ev(typ, i))
			if err != nil {
				return err
			}
			if e.ID != int64(i+1) || e.Hash == "" {
				t.Errorf("appended event %d: id %d hash %q", i, e.ID, e.Hash)
			}
		}
		return tx.SetClientExpiry(f.ProposalA, at.Add(time.Hour))
	})
	// Another proposal's chain starts at 1 on its own.
	mustUpdate(t, s, f.B, func(tx store.Tx) error {
		_, err := tx.AppendClientEvent(f.ProposalB, ev(app.EventSent, 0))
		if err == nil {
			err = tx.SetClientExpiry(f.ProposalB, at.Add(2*time.Hour))
		}
		return err
	})
	// A failed write keeps neither its event nor its expiry.
	boom := errors.New("boom")
	err := s.Update(ctx, f.A, func(tx store.Tx) error {
		if _, err := tx.AppendClientEvent(f.ProposalA, ev(app.EventAccepted, 5)); err != nil {
			return err
		}
		if err := tx.SetClientExpiry(f.ProposalA, time.Time{}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("the failing write: %v", err)
	}
	s = be.Reopen(t, s)
	check := func(acct, own, other int64, want int) {
		t.Helper()
		err := s.View(ctx, acct, func(tx store.Tx) error {
			events, err := tx.ClientEvents(own)
			if err != nil {
				return err
			}
			if len(events) != want {
				t.Errorf("account %d: %d events, want %d", acct, len(events), want)
			}
			if err := app.VerifyEvents(own, events); err != nil {
				t.Errorf("account %d: %v", acct, err)
			}
			if theirs, err := tx.ClientEvents(other); err != nil || len(theirs) != 0 {
				t.Errorf("account %d sees %d events of another account's proposal (%v)", acct, len(theirs), err)
			}
			if _, err := tx.ClientSnapshot(other, "ab"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("account %d reads another account's snapshot: %v", acct, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check(f.A, f.ProposalA, f.ProposalB, 2)
	check(f.B, f.ProposalB, f.ProposalA, 1)
	err = s.View(ctx, f.A, func(tx store.Tx) error {
		doc, err := tx.ClientSnapshot(f.ProposalA, "ab")
		if err == nil && string(doc) != `{"name":"first"}` {
			t.Errorf("snapshot %s, want the first stored", doc)
		}
		if _, err := tx.ClientSnapshot(f.ProposalA, "cd"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a missing snapshot: %v", err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	due := func(now time.Time) []store.ExpiryRef {
		t.Helper()
		refs, err := s.DueClientExpiries(ctx, now, 10)
		if err != nil {
			t.Fatal(err)
		}
		return refs
	}
	if got := due(at); len(got) != 0 {
		t.Errorf("due before any date: %v", got)
	}
	got := due(at.Add(90 * time.Minute))
	if len(got) != 1 || got[0].AccountID != f.A || got[0].ProposalID != f.ProposalA || !got[0].At.Equal(at.Add(time.Hour)) {
		t.Errorf("due after the first date: %+v", got)
	}
	if got := due(at.Add(3 * time.Hour)); len(got) != 2 || got[0].ProposalID != f.ProposalA {
		t.Errorf("due after both, earliest first: %+v", got)
	}
	mustUpdate(t, s, f.A, func(tx store.Tx) error { return tx.SetClientExpiry(f.ProposalA, time.Time{}) })
	if got := due(at.Add(3 * time.Hour)); len(got) != 1 || got[0].ProposalID != f.ProposalB {
		t.Errorf("due after A's removal: %+v", got)
	}
}
