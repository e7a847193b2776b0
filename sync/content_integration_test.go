package syncer

import (
	"testing"

	"proposaldesk/app"
)

// The content edits (items, areas, options, discount, archive, copy)
// made offline on the desktop, then synced to the real server.

func qty(s string) *app.Quantity { q := app.MustQuantity(s); return &q }
func money(s string) *app.Money  { m := app.MustMoney(s); return &m }

// Every content edit offline, chained on temporary IDs (a proposal, its
// area, option and items, a copy of it and an item added to the copy),
// then one sync: the server has everything once, under real IDs.
func TestEngineOfflineContentThenSync(t *testing.T) {
	s := startReal(t)
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)
	me := s.appUser(t, app.RoleSales)

	p := d.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Offline content")})
	p = d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Theater"})
	opt := p.Areas[0].Options[0].ID
	p = d.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: p.Areas[0].ID, ClientDescription: "Premium"})
	premium := p.Areas[0].Options[1].ID
	p = d.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("Projector"),
		SellPrice: money("4999.00"), Cost: money("3600.00")})
	tv := p.Areas[0].Options[0].Items[0].ID
	if tv >= 0 {
		t.Fatalf("item added offline has ID %d, want a temporary one", tv)
	}
	p = d.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("Mount"),
		SellPrice: money("199.00"), ParentID: &tv})
	p = d.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemLabor), Name: strp("Install"),
		SellPrice: money("95.00"), Quantity: qty("3.5")})
	labor := p.Areas[0].Options[0].Items[2].ID
	d.edit(t, p.ID, &app.ChangeItem{ID: p.ID, ItemID: tv, Quantity: qty("2")})
	d.edit(t, p.ID, &app.ChangeItem{ID: p.ID, ItemID: labor, OptionID: &premium})
	d.edit(t, p.ID, &app.SetOptionStatus{ID: p.ID, OptionID: opt, Status: app.OptionSelected})
	d.edit(t, p.ID, &app.SetPricing{ID: p.ID, DiscountType: ptrTo(app.DiscountPercentage), DiscountPercentage: ptrTo(app.MustRate("5"))})
	d.edit(t, p.ID, &app.RenameArea{ID: p.ID, AreaID: p.Areas[0].ID, Name: "Media room"})
	cp := d.edit(t, p.ID, &app.CopyProposal{ID: p.ID, Name: strp("Offline content, copy")})
	if cp.ID >= 0 || cp.ID == p.ID || len(cp.Areas) != 1 || len(cp.Areas[0].Options[0].Items) != 2 {
		t.Fatalf("offline copy %d of %d: %+v", cp.ID, p.ID, cp.Areas)
	}
	cp = d.edit(t, cp.ID, &app.AddItem{ID: cp.ID, OptionID: cp.Areas[0].Options[0].ID, ItemType: ptrTo(app.ItemFee),
		Name: strp("Permit"), SellPrice: money("75.00")})
	d.edit(t, cp.ID, &app.SetArchived{ID: cp.ID, IsArchived: true})
	if src, _ := d.st.Record(p.ID); src.Local.Name != "Offline content" || len(src.Local.Areas[0].Options[0].Items) != 2 {
		t.Fatalf("the source changed with its copy: %q", src.Local.Name)
	}

	d.sync(t)
	if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 || st.LastError != nil {
		t.Fatalf("after sync: %+v", st)
	}
	orig := findByName(t, d, "Offline content")
	g := serverProposal(t, s, orig.ID)
	if len(g.Areas) != 1 || g.Areas[0].Name != "Media room" || len(g.Areas[0].Options) != 2 {
		t.Fatalf("server areas %+v", g.Areas)
	}
	items := g.Areas[0].Options[0].Items
	if len(items) != 2 || items[0].Name != "Projector" || items[0].Quantity != app.MustQuantity("2") ||
		items[1].Name != "Mount" || items[1].ParentID != app.NullID(items[0].ID) || items[0].ID <= 0 {
		t.Fatalf("server items %+v", items)
	}
	if moved := g.Areas[0].Options[1].Items; len(moved) != 1 || moved[0].Name != "Install" || moved[0].Quantity != app.MustQuantity("3.5") {
		t.Fatalf("premium option %+v", moved)
	}
	if g.Areas[0].Options[0].Status != app.OptionSelected || g.FinancialSummary.PartsDiscountPercentage != app.MustRate("5") {
		t.Fatalf("option %s, discount %s", g.Areas[0].Options[0].Status, g.FinancialSummary.PartsDiscountPercentage)
	}
	// The summary the server computed is the one the laptop shows.
	if rec, _ := d.st.Record(orig.ID); app.Summarize(&rec.Local.Document).Total != g.FinancialSummary.ProposalTotal {
		t.Fatalf("local total %s, server %s", app.Summarize(&rec.Local.Document).Total, g.FinancialSummary.ProposalTotal)
	}
	// The copy arrived once, with its own item, archived.
	copies, err := s.admin(t).ListProposals(bg, ProposalQuery{SearchText: "Offline content, copy", IsArchive: ptrTo(true)})
	if err != nil || copies.Count != 1 {
		t.Fatalf("copies on the server: %+v, %v", copies, err)
	}
	c := serverProposal(t, s, copies.Proposals[0].ID)
	if c.ID == g.ID || len(c.Areas[0].Options[0].Items) != 3 || c.Areas[0].Options[0].Items[2].Name != "Permit" {
		t.Fatalf("copy %+v", c.Areas)
	}
}

// Two laptops add items to the same option offline: both arrive, once.
// The same item field changed on both is a conflict; different fields
// of the same item merge.
func TestEngineTwoLaptopsItems(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Items from two laptops")
	opt := p.Areas[0].Options[0].ID
	direct := s.signedIn(t, s.URL, app.RoleAdmin)
	base, err := direct.Do(bg, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("Speaker"),
		SellPrice: money("100.00"), Quantity: qty("2")}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	item := base.Proposal.Areas[0].Options[0].Items[0].ID
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	b := s.newDesk(t, s.URL, app.RoleAdmin, nil, nil)
	a.sync(t)
	b.sync(t)
	a.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("From A")})
	b.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("From B")})
	a.edit(t, p.ID, &app.ChangeItem{ID: p.ID, ItemID: item, Quantity: qty("4")})         // both: quantity
	b.edit(t, p.ID, &app.ChangeItem{ID: p.ID, ItemID: item, Quantity: qty("6")})         // … a conflict
	a.edit(t, p.ID, &app.ChangeItem{ID: p.ID, ItemID: item, ClientNote: strp("Black")})  // different fields
	b.edit(t, p.ID, &app.ChangeItem{ID: p.ID, ItemID: item, SellPrice: money("120.00")}) // … merge
	a.sync(t)
	b.sync(t)
	if st := b.eng.State(); st.Conflicts != 1 {
		t.Fatalf("b: %+v, want one conflict (the quantity)", st)
	}
	rec, _ := b.st.Record(p.ID)
	if len(rec.Conflicts) != 1 || rec.Conflicts[0].Field != app.ItemField(item, "quantity") ||
		rec.Conflicts[0].Mine != "6" || rec.Conflicts[0].Theirs != "4" {
		t.Fatalf("conflicts %+v", rec.Conflicts)
	}
	var seq uint64
	entries, _ := b.st.Entries()
	for _, en := range entries {
		if en.State == "conflict" {
			seq = en.Seq
		}
	}
	if err := b.eng.ResolveConflict(bg, seq, true); err != nil {
		t.Fatal(err)
	}
	b.sync(t)
	a.sync(t)
	g := serverProposal(t, s, p.ID)
	items := g.Areas[0].Options[0].Items
	names := map[string]int{}
	for _, it := range items {
		names[it.Name]++
	}
	if len(items) != 3 || names["From A"] != 1 || names["From B"] != 1 {
		t.Fatalf("server items %v", names)
	}
	it := items[0]
	if it.Quantity != app.MustQuantity("6") || it.ClientNote != "Black" || it.SellPrice != app.MustMoney("120.00") {
		t.Fatalf("speaker %s × %s, note %q", it.Quantity, it.SellPrice, it.ClientNote)
	}
	for _, d := range []*desk{a, b} {
		if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 {
			t.Fatalf("state %+v", st)
		}
		rec, _ := d.st.Record(p.ID)
		if rec.Local.Version != g.Version || len(rec.Local.Areas[0].Options[0].Items) != 3 {
			t.Fatalf("local version %d, server %d", rec.Local.Version, g.Version)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
