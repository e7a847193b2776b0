package app_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"proposaldesk/app"
)

// TestPropertyContentEditsAgreeWithModel applies random sequences of
// content edits and checks the result after every step against a model
// kept by the test: the same items in each option, in the same order,
// with the same nesting and figures; the limits never broken; and the
// summary's subtotals equal to a from-scratch sum over the model's
// counted options.
func TestPropertyContentEditsAgreeWithModel(t *testing.T) {
	for seed := range uint64(40) {
		runContentModel(t, seed, 120)
	}
}

type modelItem struct {
	id, parent int64
	qty        app.Quantity
	price      app.Money
}

type contentModel struct {
	options  map[int64][]modelItem // by option ID
	order    []int64               // option IDs, area by area
	areaOf   map[int64]int64       // option → area
	selected map[int64]int64       // area → selected option (0: none)
	discount app.Rate
}

func runContentModel(t *testing.T, seed uint64, steps int) {
	rng := rand.New(rand.NewPCG(seed, 99))
	p := fixtureProposal(app.StatusDraft)
	md := newContentModel(p)
	env := fixtureEnv(fixtureSales)
	for step := range steps {
		m, apply := md.randomEdit(rng, p.ID)
		next, err := app.Apply(p, m, env)
		if err != nil {
			t.Fatalf("seed %d step %d: %s: %v", seed, step, m.Describe(), err)
		}
		apply(next)
		p = next
		md.check(t, seed, step, p)
	}
}

// newContentModel is the model of p's items.
func newContentModel(p *app.Proposal) *contentModel {
	md := &contentModel{options: map[int64][]modelItem{}, areaOf: map[int64]int64{}, selected: map[int64]int64{}}
	for _, a := range p.Areas {
		for _, o := range a.Options {
			md.order = append(md.order, o.ID)
			md.areaOf[o.ID] = a.ID
			for _, it := range o.Items {
				md.options[o.ID] = append(md.options[o.ID], modelItem{id: it.ID, parent: it.ParentID, qty: it.Quantity, price: it.SellPrice})
			}
		}
	}
	return md
}

// randomEdit picks a valid edit and returns the model's own change for
// it (given the result, for the IDs the engine allocated).
func (md *contentModel) randomEdit(rng *rand.Rand, pid int64) (app.Mutation, func(*app.Proposal)) {
	opt := md.order[rng.IntN(len(md.order))]
	items := md.options[opt]
	var tops []int64
	for _, it := range items {
		if it.parent == 0 {
			tops = append(tops, it.id)
		}
	}
	qty := app.Quantity(1+rng.IntN(40)) * app.OneUnit / 4
	price := app.Money(rng.IntN(500_00))
	switch r := rng.IntN(10); {
	case r < 4 || len(items) == 0: // add
		m := &app.AddItem{ID: pid, OptionID: opt, ItemType: ptr(app.ItemPart), Name: ptr("Thing"), Quantity: &qty, SellPrice: &price}
		var parent int64
		if len(tops) > 0 && rng.IntN(3) == 0 {
			parent = tops[rng.IntN(len(tops))]
			m.ParentID = &parent
		}
		return m, func(got *app.Proposal) {
			o, _ := got.Option(opt)
			var id int64
			for _, it := range o.Items {
				if !slices.ContainsFunc(items, func(x modelItem) bool { return x.id == it.ID }) {
					id = it.ID
				}
			}
			md.options[opt] = modelInsert(items, modelItem{id: id, parent: parent, qty: qty, price: price})
		}
	case r < 6: // change figures
		i := rng.IntN(len(items))
		m := &app.ChangeItem{ID: pid, ItemID: items[i].id, Quantity: &qty, SellPrice: &price}
		return m, func(*app.Proposal) { md.options[opt][i].qty, md.options[opt][i].price = qty, price }
	case r < 7: // remove with children
		id := items[rng.IntN(len(items))].id
		return &app.RemoveItem{ID: pid, ItemID: id}, func(*app.Proposal) {
			md.options[opt] = slices.DeleteFunc(slices.Clone(items), func(x modelItem) bool { return x.id == id || x.parent == id })
		}
	case r < 8 && len(tops) > 0: // move a top-level item and its children
		id := tops[rng.IntN(len(tops))]
		to := md.order[rng.IntN(len(md.order))]
		return &app.ChangeItem{ID: pid, ItemID: id, OptionID: &to}, func(*app.Proposal) {
			if to == opt {
				return
			}
			var moved, kept []modelItem
			for _, x := range items {
				if x.id == id || x.parent == id {
					moved = append(moved, x)
				} else {
					kept = append(kept, x)
				}
			}
			md.options[opt] = kept
			md.options[to] = append(slices.Clone(md.options[to]), moved...)
		}
	case r < 9: // select an option
		return &app.SetOptionStatus{ID: pid, OptionID: opt, Status: app.OptionSelected}, func(*app.Proposal) {
			md.selected[md.areaOf[opt]] = opt
		}
	default: // discount
		pct := app.Rate(rng.IntN(int(app.HundredPercent) + 1))
		return &app.SetPricing{ID: pid, DiscountType: ptr(app.DiscountPercentage), DiscountPercentage: &pct},
			func(*app.Proposal) { md.discount = pct }
	}
}

// modelInsert places a new item as the engine promises: a nested one
// after its parent's last child, others at the end.
func modelInsert(items []modelItem, it modelItem) []modelItem {
	pos := len(items)
	if it.parent != 0 {
		for i, x := range items {
			if x.id == it.parent || x.parent == it.parent {
				pos = i + 1
			}
		}
	}
	return slices.Insert(slices.Clone(items), pos, it)
}

func (md *contentModel) check(t *testing.T, seed uint64, step int, p *app.Proposal) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d step %d: "+format, append([]any{seed, step}, args...)...)
	}
	var subtotal app.Money
	total := 0
	for _, a := range p.Areas {
		counted := app.CountedOption(&a)
		if sel := md.selected[a.ID]; sel != 0 && counted.ID != sel {
			fail("area %d counts option %d, the model selected %d", a.ID, counted.ID, sel)
		}
		for _, o := range a.Options {
			want := md.options[o.ID]
			if len(o.Items) != len(want) {
				fail("option %d has %v, model %v", o.ID, itemIDs(o.Items), want)
			}
			ids := map[int64]int64{}
			for i, it := range o.Items {
				w := want[i]
				if it.ID != w.id || it.ParentID != w.parent || it.Quantity != w.qty || it.SellPrice != w.price {
					fail("option %d item %d: %+v, model %+v", o.ID, i, it, w)
				}
				ids[it.ID] = it.ParentID
			}
			for _, it := range o.Items {
				if it.ParentID == 0 {
					continue
				}
				parent, ok := ids[it.ParentID]
				if !ok || parent != 0 {
					fail("item %d nests under %d, which is not a top-level item of option %d", it.ID, it.ParentID, o.ID)
				}
			}
			if len(o.Items) > app.MaxItemsPerOption {
				fail("option %d has %d items", o.ID, len(o.Items))
			}
			total += len(o.Items)
			if o.ID == counted.ID {
				for _, w := range want {
					subtotal += w.price.MulQty(w.qty)
				}
			}
		}
	}
	if total > app.MaxItemsPerProposal {
		fail("%d items", total)
	}
	s := app.Summarize(&p.Document)
	if s.PartsSubtotal != subtotal {
		fail("parts subtotal %s, the model's counted options sum to %s", s.PartsSubtotal, subtotal)
	}
	if want := subtotal.Percent(md.discount); s.PartsDiscount != want {
		fail("discount %s, want %s of %s = %s", s.PartsDiscount, md.discount, subtotal, want)
	}
	if s.PartsTotal != s.PartsSubtotal-s.PartsDiscount || s.Subtotal != s.PartsTotal+s.LaborTotal+s.FeeTotal {
		fail("summary does not add up: %+v", s)
	}
}
