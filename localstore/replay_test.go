package localstore

import (
	"bytes"
	"strings"
	"testing"

	"proposaldesk/app"
)

// A replay gives what Apply gives edit after edit, through refusals
// (the view as it was) and, on a proposal stored past the size bound,
// an edit that shrinks it, which ApplyInPlace alone refuses.
func TestReplayIsApplyEditAfterEdit(t *testing.T) {
	part := app.ItemPart
	base := &app.Proposal{}
	base.ID, base.Status = 7, app.StatusDraft
	base.Areas = []app.Area{{ID: 70, Name: "Den", Options: []app.Option{{ID: 71, Status: app.OptionDraft}}}}
	long := strings.Repeat("x", app.MaxTextLength)
	// Past MaxProposalBytes by more than two items and less than
	// three, as stored before the bound existed.
	o := &base.Areas[0].Options[0]
	for i := 0; ; i++ {
		o.Items = append(o.Items, app.Item{ID: int64(100 + i), ItemType: part, Name: "Old",
			Description: long, ClientNote: long, Quantity: app.OneUnit})
		if b, _ := base.AppendJSON(nil); len(b) > app.MaxProposalBytes {
			o.Items = append(o.Items, o.Items[i], o.Items[i])
			o.Items[i+1].ID, o.Items[i+2].ID = int64(101+i), int64(102+i)
			break
		}
	}
	items := len(o.Items)
	q := app.MustQuantity("3")
	edits := []app.Mutation{
		&app.RemoveItem{ID: 7, ItemID: 100}, // copied: shrinks, taken
		&app.RemoveItem{ID: 7, ItemID: 101}, // in place refused (still past), then taken by Apply
		&app.RemoveItem{ID: 7, ItemID: 102}, // in place: under the bound now
		&app.ChangeItem{ID: 7, ItemID: 104, Quantity: &q},
		&app.ChangeItem{ID: 7, ItemID: 9999, Quantity: &q}, // refused
		&app.AddItem{ID: 7, OptionID: 71, ItemType: &part, Name: strp("New"), Description: &long, ClientNote: &long}, // past the bound: refused
		&app.ChangeItem{ID: 7, ItemID: 105, Name: strp("Renamed")},
	}
	temp := int64(0)
	for _, m := range edits {
		if err := app.FillNewIDs(m, base, func() (int64, error) { temp--; return temp, nil }); err != nil {
			t.Fatal(err)
		}
	}
	var r replay
	r.from(base)
	want, refusals := base, 0
	for i, m := range edits {
		env := envAt(i, sales)
		next, werr := app.Apply(want, m, env)
		refused, err := r.apply(m, env)
		if err != nil {
			t.Fatal(err)
		}
		if (werr == nil) != (refused == nil) || app.KindOf(werr) != app.KindOf(refused) {
			t.Fatalf("edit %d (%s): Apply says %v, the replay %v", i, m.Kind(), werr, refused)
		}
		if werr == nil {
			want = next
		} else {
			refusals++
			// The view as it was is the new base: a later refusal
			// replays nothing before it again.
			if r.view != r.base || len(r.since) != 0 {
				t.Fatalf("edit %d (%s) refused: %d edits still to replay on a refusal", i, m.Kind(), len(r.since))
			}
		}
		w, _ := want.AppendJSON(nil)
		g, _ := r.view.AppendJSON(nil)
		if !bytes.Equal(w, g) {
			t.Fatalf("edit %d (%s): the replay's view differs from Apply's", i, m.Kind())
		}
	}
	if refusals != 2 {
		t.Errorf("%d edits refused, want 2 (an unknown item, a growth past the bound)", refusals)
	}
	if b, _ := base.AppendJSON(nil); len(o.Items) != items || len(b) <= app.MaxProposalBytes {
		t.Error("the replay changed the proposal it started from")
	}
}
