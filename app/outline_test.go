package app_test

import (
	"slices"
	"testing"

	"proposaldesk/app"
)

// outlineOption is the kitchen option holding items with these IDs and
// parents (0: not nested), in this stored order.
func outlineOption(pairs ...int64) *app.Proposal {
	p := fixtureProposal(app.StatusDraft)
	o, _ := p.Option(kitchenOptionID)
	o.Items = nil
	for i := 0; i < len(pairs); i += 2 {
		o.Items = append(o.Items, app.Item{ID: pairs[i], ParentID: pairs[i+1], ItemType: app.ItemPart,
			Name: "x", SellPrice: app.MustMoney("1.00"), Quantity: app.OneUnit})
	}
	return p
}

func TestOutline(t *testing.T) {
	cases := []struct {
		name   string
		items  []int64 // ID, parent pairs
		ids    []int64
		depths []int
	}{
		{"empty", nil, []int64{}, []int{}},
		{"flat", []int64{1, 0, 2, 0}, []int64{1, 2}, []int{0, 0}},
		{"children follow their parent", []int64{1, 0, 2, 1, 3, 0}, []int64{1, 2, 3}, []int{0, 1, 0}},
		{"a child stored before its parent", []int64{2, 1, 3, 0, 1, 0}, []int64{3, 1, 2}, []int{0, 0, 1}},
		{"a missing parent counts as top level", []int64{1, 0, 2, 99}, []int64{1, 2}, []int{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, _ := outlineOption(c.items...).Option(kitchenOptionID)
			rows := app.Outline(o)
			ids, depths := []int64{}, []int{}
			for _, r := range rows {
				ids, depths = append(ids, o.Items[r.Index].ID), append(depths, r.Depth)
			}
			if !slices.Equal(ids, c.ids) || !slices.Equal(depths, c.depths) {
				t.Fatalf("outline %v depths %v, want %v %v", ids, depths, c.ids, c.depths)
			}
			if got := app.OutlineIDs(o); !slices.Equal(got, c.ids) {
				t.Fatalf("OutlineIDs %v", got)
			}
		})
	}
}

// Moving an item a step gives the outline order expected, and the edits
// OrderEdits makes, applied by app.Apply, store exactly that order.
func TestMoveInOutlineAndOrderEdits(t *testing.T) {
	// 1 (with 2, 3 nested), 4, 5 (with 6 nested).
	base := []int64{1, 0, 2, 1, 3, 1, 4, 0, 5, 0, 6, 5}
	cases := []struct {
		name string
		id   int64
		step int
		want []int64 // nil: no move
	}{
		{"top item down takes its children", 1, 1, []int64{4, 1, 2, 3, 5, 6}},
		{"top item up past a group", 5, -1, []int64{1, 2, 3, 5, 6, 4}},
		{"first item up is the edge", 1, -1, nil},
		{"last item down is the edge", 5, 1, nil},
		{"a child moves among its siblings", 3, -1, []int64{1, 3, 2, 4, 5, 6}},
		{"a first child cannot leave its parent", 2, -1, nil},
		{"an only child cannot move", 6, 1, nil},
		{"unknown item", 77, 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := outlineOption(base...)
			o, _ := p.Option(kitchenOptionID)
			order, ok := app.MoveInOutline(o, c.id, c.step)
			if c.want == nil {
				if ok {
					t.Fatalf("moved to %v, want no move", order)
				}
				return
			}
			if !ok || !slices.Equal(order, c.want) {
				t.Fatalf("order %v (%v), want %v", order, ok, c.want)
			}
			for _, m := range app.OrderEdits(p.ID, o, order) {
				next, err := app.Apply(p, m, app.Env{Actor: fixtureSales})
				if err != nil {
					t.Fatal(err)
				}
				p = next
			}
			o, _ = p.Option(kitchenOptionID)
			stored := make([]int64, len(o.Items))
			for i, it := range o.Items {
				stored[i] = it.ID
			}
			if !slices.Equal(stored, c.want) || !slices.Equal(app.OutlineIDs(o), c.want) {
				t.Fatalf("stored %v, outline %v, want %v", stored, app.OutlineIDs(o), c.want)
			}
		})
	}
}

func TestOrderEditsFewest(t *testing.T) {
	p := outlineOption(1, 0, 2, 0, 3, 0)
	o, _ := p.Option(kitchenOptionID)
	if n := len(app.OrderEdits(p.ID, o, []int64{1, 2, 3})); n != 0 {
		t.Fatalf("%d edits for the order it has", n)
	}
	if n := len(app.OrderEdits(p.ID, o, []int64{3, 1, 2})); n != 1 {
		t.Fatalf("%d edits to move one item to the front", n)
	}
	// Unknown IDs are skipped.
	if n := len(app.OrderEdits(p.ID, o, []int64{99, 1, 2, 3})); n != 0 {
		t.Fatalf("%d edits with an unknown ID", n)
	}
}

// First and Last say exactly when MoveInOutline refuses a step.
func TestOutlineEdges(t *testing.T) {
	for _, items := range [][]int64{
		{1, 0, 2, 1, 3, 1, 4, 0, 5, 0, 6, 5},
		{1, 0},
		{2, 1, 3, 0, 1, 0, 4, 1},
	} {
		o, _ := outlineOption(items...).Option(kitchenOptionID)
		for _, r := range app.Outline(o) {
			id := o.Items[r.Index].ID
			if _, up := app.MoveInOutline(o, id, -1); up == r.First {
				t.Errorf("%v: item %d First %v but up %v", items, id, r.First, up)
			}
			if _, down := app.MoveInOutline(o, id, 1); down == r.Last {
				t.Errorf("%v: item %d Last %v but down %v", items, id, r.Last, down)
			}
		}
	}
}
