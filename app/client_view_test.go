package app

import (
	"encoding/json"
	"testing"
	"time"
)

// TestPropertyClientViewHashAgrees: over the random documents the other
// property tests generate, the laptop's copy of a proposal (through the
// stored JSON and back, an offline edit applied at the laptop's clock)
// and the server's (the same edit at the server's clock, another
// version) give the same client view hash, every time, also while the
// laptop's parts still have temporary IDs (made offline, not synced);
// and a change the client would see gives another hash.
func TestPropertyClientViewHashAgrees(t *testing.T) {
	actor := User{ID: 1, FirstName: "Sam", LastName: "Seller", Role: RoleAdmin, EmailVerified: true}
	agreed, cases := 0, 0
	checkSlowProperty(t, func(g genDocument) bool {
		cases++
		server := &Proposal{Document: g.Document, Version: 3, ChangeOrders: []ChangeOrder{}}
		server.ID = 77
		server.Status = StatusSubmitted
		raw, err := server.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		var laptop Proposal
		if err := json.Unmarshal(raw, &laptop); err != nil {
			t.Fatal(err)
		}
		edit := &SetDescription{ID: 77, Description: "Whole-house audio"}
		laptopNow := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC) // a wrong clock
		serverNow := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
		onLaptop, err := Apply(&laptop, edit, Env{Now: laptopNow, Actor: actor})
		if err != nil {
			t.Fatal(err)
		}
		server.Version = 9 // other edits came and went on the server
		onServer, err := Apply(server, edit, Env{Now: serverNow, Actor: User{ID: 2, FirstName: "Other", Role: RoleAdmin, EmailVerified: true}})
		if err != nil {
			t.Fatal(err)
		}
		hl, err1 := ClientViewHash(onLaptop)
		hs, err2 := ClientViewHash(onServer)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if hl != hs {
			t.Errorf("laptop %s, server %s for the same content", hl, hs)
			return false
		}
		// The laptop made these parts offline: until the sync they have
		// temporary IDs (and so may the contact), which the sync then
		// replaces with the server's. The hash is the same before and
		// after.
		offline := withTemporaryIDs(onLaptop)
		if ho, err := ClientViewHash(offline); err != nil || ho != hs {
			t.Errorf("parts made offline (temporary IDs) hash %s, the synced copy %s (%v)", ho, hs, err)
			return false
		}
		agreed++
		changed := onServer.Clone()
		changed.ProjectTerms += " (revised)"
		if hc, _ := ClientViewHash(changed); hc == hs {
			t.Errorf("terms changed but the hash did not: %s", hc)
			return false
		}
		return true
	})
	t.Logf("hash agreement: %d of %d random proposals", agreed, cases)
	if agreed != cases || cases == 0 {
		t.Errorf("hash agreement %d of %d, want all", agreed, cases)
	}
}

// withTemporaryIDs is p as the laptop holds it before the sync when it
// made every part offline: each area, option and item, the proposal and
// its contact under a temporary ID, items still under their parents.
func withTemporaryIDs(p *Proposal) *Proposal {
	c := p.Clone()
	next := int64(-1000)
	temp := func() int64 { next--; return next }
	c.ID, c.Number = temp(), 0
	if c.Customer != nil {
		c.Customer.ID = temp()
	}
	for ai := range c.Areas {
		a := &c.Areas[ai]
		a.ID = temp()
		for oi := range a.Options {
			o := &a.Options[oi]
			o.ID = temp()
			ids := map[int64]int64{}
			for ii := range o.Items {
				ids[o.Items[ii].ID] = temp()
				o.Items[ii].ID = ids[o.Items[ii].ID]
			}
			for ii := range o.Items {
				if pid := o.Items[ii].ParentID; pid != 0 {
					o.Items[ii].ParentID = ids[pid]
				}
			}
		}
	}
	return c
}
