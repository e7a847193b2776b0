package app_test

import (
	"fmt"
	"strings"
	"testing"

	"proposaldesk/app"
)

// The size bound is app's rule, so the desktop refuses offline the edit
// the server would refuse: an item whose texts would take the proposal
// past MaxProposalBytes is 413 PayloadTooLarge, and nothing is changed.
func TestApplyRefusesAProposalPastTheSizeBound(t *testing.T) {
	p := fixtureProposal(app.StatusDraft)
	env := fixtureEnv(fixtureSales)
	long := strings.Repeat("x", app.MaxTextLength)
	typ, name := app.ItemPart, "Long"
	add := &app.AddItem{ID: p.ID, OptionID: kitchenOptionID, ItemType: &typ, Name: &name, Description: &long, ClientNote: &long}
	for i := 0; ; i++ {
		next, err := app.Apply(p, add, env)
		if err != nil {
			if k := app.KindOf(err); k != app.KindPayloadTooLarge {
				t.Fatalf("after %d items: %v, want %s", i, err, app.KindPayloadTooLarge)
			}
			break
		}
		if i > 30 {
			t.Fatal("more than 30 items of 200,000 characters were accepted")
		}
		p = next
	}
	b, err := p.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > app.MaxProposalBytes {
		t.Errorf("%d bytes accepted, over the bound of %d", len(b), app.MaxProposalBytes)
	}
	// A proposal stored over the bound (before it existed) can still be
	// trimmed: an edit that does not grow it is allowed.
	over := p.Clone()
	o := &over.Areas[0].Options[0]
	for range 3 {
		it := o.Items[1]
		it.ID += 100_000 + int64(len(o.Items))
		o.Items = append(o.Items, it)
	}
	if b, _ := over.AppendJSON(nil); len(b) <= app.MaxProposalBytes {
		t.Fatalf("the over-bound fixture is only %d bytes", len(b))
	}
	if _, err := app.Apply(over, &app.RemoveItem{ID: over.ID, ItemID: o.Items[1].ID}, env); err != nil {
		t.Errorf("removing an item of an over-bound proposal: %v", err)
	}
}

// The bound leaves room for the most items a proposal may hold, with
// ordinary texts: 5,000 items with a 40-character name, brand, model and
// a 200-character description.
func TestMostItemsFitTheSizeBound(t *testing.T) {
	p := fixtureProposal(app.StatusDraft)
	o := &p.Areas[0].Options[0]
	for i := 0; len(o.Items) < app.MaxItemsPerProposal; i++ {
		cost := app.MustMoney("1234.56")
		o.Items = append(o.Items, app.Item{ID: int64(10_000 + i), ItemType: app.ItemPart,
			Name: fmt.Sprintf("%-40d", i), Brand: strings.Repeat("b", 40), Model: strings.Repeat("m", 40),
			Description: strings.Repeat("d", 200), SellPrice: app.MustMoney("99999.99"), Cost: &cost,
			Quantity: app.MustQuantity("12.5"), CreatedDate: fixtureCreated, LastModifiedDate: fixtureCreated})
	}
	b, err := p.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > app.MaxProposalBytes {
		t.Errorf("%d items of ordinary texts take %d bytes, over the bound of %d", len(o.Items), len(b), app.MaxProposalBytes)
	}
	t.Logf("%d items: %d bytes", len(o.Items), len(b))
}
