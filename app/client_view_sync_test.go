package app_test

import (
	"testing"

	"proposaldesk/app"
)

// TestAcceptInPersonOfPartsMadeOffline: the salesperson adds an option
// and an item offline (temporary IDs), the client chooses that option
// and signs, and the sync sends the edits in order: the server, which
// gave the parts its own IDs, finds the same client view hash and
// accepts the option the client chose, once the sync has replaced the
// temporary IDs in the acceptance like in any queued edit.
func TestAcceptInPersonOfPartsMadeOffline(t *testing.T) {
	laptop := fixtureProposal(app.StatusSubmitted)
	server := laptop.Clone()
	nextTemp := int64(-1)
	temp := func() (int64, error) { nextTemp--; return nextTemp, nil }

	edits := []app.Mutation{
		&app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID, ClientDescription: "Premium"},
	}
	created := edits[0].(*app.CreateOption)
	// What the laptop queues: the edits with temporary IDs, applied at
	// once to its copy.
	var queued []app.Mutation
	apply := func(m app.Mutation) {
		t.Helper()
		if err := app.FillNewIDs(m, laptop, temp); err != nil {
			t.Fatal(err)
		}
		got, err := app.Apply(laptop, m, fixtureEnv(fixtureSales))
		if err != nil {
			t.Fatalf("%s on the laptop: %v", m.Kind(), err)
		}
		laptop = got
		queued = append(queued, m)
	}
	apply(created)
	apply(&app.AddItem{ID: fixtureProposalID, OptionID: created.OptionID, ItemType: ptr(app.ItemPart), Name: ptr("Sub"),
		SellPrice: ptr(app.MustMoney("400.00")), Quantity: ptr(app.MustQuantity("1"))})
	if !app.IsTemporaryID(created.OptionID) {
		t.Fatalf("the option made offline has ID %d, want a temporary one", created.OptionID)
	}
	accept := fixtureAcceptance(laptop)
	accept.Options = append(accept.Options, app.OptionChoice{AreaID: kitchenAreaID, OptionID: created.OptionID})
	if !app.HasTemporaryRefs(accept) {
		t.Fatal("the acceptance names the offline option, but HasTemporaryRefs says it does not: the sync would send it before the option exists")
	}
	if _, err := app.Apply(laptop, accept, fixtureEnv(fixtureSales)); err != nil {
		t.Fatalf("accepted on the laptop: %v", err)
	}
	queued = append(queued, accept)

	// The sync: each edit in order, encoded as the outbox keeps it; the
	// server gives its own IDs, the laptop replaces the temporary ones
	// in the edits still queued.
	for i, m := range queued {
		raw, err := app.EncodeMutation(m)
		if err != nil {
			t.Fatal(err)
		}
		sent, err := app.DecodeMutation(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range sent.Creates(nil) {
			*n.ID = 0 // never sent: the server gives its own
		}
		if app.HasTemporaryRefs(sent) {
			t.Fatalf("edit %d (%s) still names a temporary ID when sent: %v", i, sent.Kind(), app.RefIDs(sent))
		}
		before := server
		server, err = app.Apply(server, sent, fixtureEnv(fixtureSales))
		if err != nil {
			t.Fatalf("%s on the server: %v", sent.Kind(), err)
		}
		for from, to := range app.FoundIDs(m, before, server) {
			for _, later := range queued[i+1:] {
				app.RemapID(later, from, to)
			}
		}
	}
	if server.Status != app.StatusAccepted {
		t.Fatalf("server status %s, want Accepted", server.Status)
	}
	kitchen, _ := server.Area(kitchenAreaID)
	var selected []string
	for _, o := range kitchen.Options {
		if o.Status == app.OptionSelected {
			selected = append(selected, o.ClientDescription)
		}
	}
	if len(selected) != 1 || selected[0] != "Premium" {
		t.Errorf("selected in the kitchen on the server: %q, want the option made offline (Premium)", selected)
	}
}
