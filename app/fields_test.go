package app_test

import (
	"fmt"
	"testing"

	"proposaldesk/app"
)

// writesRead checks that every field m writes is read by FieldValues from
// the proposal before m or after it (what a removal writes exists only
// before). A field no table declares never conflicts, and a refused edit
// of it settles as done.
func writesRead(m app.Mutation, before, after *app.Proposal) error {
	var b, a map[app.Field]string
	if before != nil {
		b = app.FieldValues(before)
	}
	if after != nil {
		a = app.FieldValues(after)
	}
	var unread []app.Field
	for _, f := range m.Writes() {
		_, inBefore := b[f]
		_, inAfter := a[f]
		if !inBefore && !inAfter {
			unread = append(unread, f)
		}
	}
	if len(unread) > 0 {
		return fmt.Errorf("%s writes %q, which FieldValues does not read", m.Kind(), unread)
	}
	return nil
}

// fieldSamples are edits to apply for writesRead: one of every kind, and
// item changes that write every field a ChangeItem can.
func fieldSamples() []app.Mutation {
	return append(fixtureMutations(),
		&app.ChangeItem{ID: fixtureProposalID, ItemID: 801,
			Quantity: ptr(app.MustQuantity("3")), SellPrice: ptr(app.MustMoney("110.00")), Cost: ptr(app.MustMoney("70.00")),
			Name: ptr("Woofer"), Description: ptr("Deep"), ClientNote: ptr("Black"),
			IsTaxExempt: ptr(true), IsRecurringService: ptr(true), ParentID: ptr(int64(0)),
			OptionID: ptr(int64(theaterOption1)), Position: ptr(int64(0))},
		&app.ChangeItem{ID: fixtureProposalID, ItemID: 801, Position: ptr(int64(0))},
		&app.ChangeItem{ID: fixtureProposalID, ItemID: 801},
	)
}

// applyForFields applies m, its created IDs temporary as on the desktop,
// to its fixture proposal, and returns the proposal before and after.
func applyForFields(t *testing.T, m app.Mutation) (before, after *app.Proposal) {
	t.Helper()
	before = fixtureTarget(m, app.StatusDraft)
	next := int64(0)
	if err := app.FillNewIDs(m, before, func() (int64, error) { next--; return next, nil }); err != nil {
		t.Fatalf("%s: new IDs: %v", m.Kind(), err)
	}
	after, err := app.Apply(before, m, fixtureEnv(fixtureAdmin))
	if err != nil {
		t.Fatalf("%s: %v", m.Kind(), err)
	}
	return before, after
}

// TestEveryWrittenFieldIsRead applies every registered kind of edit and
// checks that each field it writes is declared, with a reader.
func TestEveryWrittenFieldIsRead(t *testing.T) {
	sampled := map[app.MutationKind]bool{}
	for _, m := range fieldSamples() {
		sampled[m.Kind()] = true
		before, after := applyForFields(t, m)
		if err := writesRead(m, before, after); err != nil {
			t.Error(err)
		}
		for _, f := range m.Writes() {
			if app.FieldLabel(f) == string(f) {
				t.Errorf("%s: field %q has no words for people", m.Kind(), f)
			}
		}
	}
	for _, k := range app.MutationKinds() {
		if !sampled[k] {
			t.Errorf("kind %s has no sample: its fields go unchecked", k)
		}
	}
}

// forgetfulKind is a kind that writes a field no table declares: it
// changes the description, and names a field of its own.
type forgetfulKind struct {
	*app.SetDescription
	field app.Field
}

func (m forgetfulKind) Writes() []app.Field { return []app.Field{m.field} }

// TestWritesReadCatchesAnUndeclaredField plants such kinds and sees the
// check refuse them.
func TestWritesReadCatchesAnUndeclaredField(t *testing.T) {
	for _, f := range []app.Field{"warrantyYears", app.ItemField(801, "warranty"), app.OptionField(kitchenOptionID, "discount")} {
		m := forgetfulKind{&app.SetDescription{ID: fixtureProposalID, Description: "x"}, f}
		before, after := applyForFields(t, m)
		if err := writesRead(m, before, after); err == nil {
			t.Errorf("a kind writing %q passed the check", f)
		}
	}
}

// TestFieldNamesStay: the names are stored in the desktop's conflict
// records, and words are shown for them.
func TestFieldNamesStay(t *testing.T) {
	for _, c := range []struct {
		f          app.Field
		name, word string
		checked    bool
	}{
		{app.FieldName, "name", "Name", true},
		{app.FieldCustomerLocation, "customer.location", "Location", true},
		{app.AreaField(3, "name"), "areas/3/name", "Area name", true},
		{app.OptionField(4, "clientDescription"), "options/4/clientDescription", "Option client description", true},
		{app.ItemField(-5, "quantity"), "items/-5/quantity", "Item quantity", true},
		{app.ItemField(5, "position"), "items/5/position", "Item position", false},
		{"items/5/warranty", "items/5/warranty", "items/5/warranty", false},
	} {
		if string(c.f) != c.name || app.FieldLabel(c.f) != c.word || c.f.ConflictChecked() != c.checked {
			t.Errorf("%q: words %q, conflict-checked %v; want %q, %q, %v",
				c.f, app.FieldLabel(c.f), c.f.ConflictChecked(), c.name, c.word, c.checked)
		}
	}
}

// FieldValuesOf reads what FieldValues reads, field by field: every
// field of the fixtures before and after each sample edit, and nothing
// for a field of a part the proposal has not, or of no declared name.
func TestFieldValuesOfAgreesWithFieldValues(t *testing.T) {
	for _, m := range fieldSamples() {
		before, after := applyForFields(t, m)
		for _, p := range []*app.Proposal{before, after} {
			if p == nil { // a proposal created, or deleted
				continue
			}
			all := app.FieldValues(p)
			fields := make([]app.Field, 0, len(all)+3)
			for f := range all {
				fields = append(fields, f)
			}
			fields = append(fields, app.ItemField(987654, "quantity"), app.ItemField(801, "nonesuch"), "nonesuch")
			got := app.FieldValuesOf(p, fields)
			if len(got) != len(all) {
				t.Fatalf("%s: FieldValuesOf read %d fields, FieldValues %d", m.Kind(), len(got), len(all))
			}
			for f, v := range all {
				if got[f] != v {
					t.Fatalf("%s: %s reads %q, FieldValues %q", m.Kind(), f, got[f], v)
				}
			}
		}
	}
}
