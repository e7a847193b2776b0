package ui

import (
	"testing"

	"proposaldesk/app"
)

// A sync replaces the temporary IDs of an area made offline before the
// screen takes what it brought (the screen follows a running sync only
// now and then): "+ Custom item" then adds to the option under its
// temporary ID, the store reads it as the real one, and the new line
// must still get the cursor, or what the salesperson types next goes
// nowhere.
func TestAddLineAfterASyncReplacedTheOptionsID(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v, _ := h.contentFixture(runName("Add after remap"), nil, nil)

	h.gate.down.Store(true)
	if err := v.edit(&app.CreateArea{ID: v.id, Name: "Patio"}); err != nil {
		t.Fatal(err)
	}
	v.build()
	patio := v.p.Areas[len(v.p.Areas)-1]
	optionID := patio.Options[0].ID
	if !app.IsTemporaryID(optionID) {
		t.Fatalf("the option made offline has ID %d", optionID)
	}
	stale := v.p

	h.gate.down.Store(false)
	h.sync()
	// The screen as it was before it took the sync's news.
	v.p, v.alias = stale, nil
	if v.now(optionID) != optionID {
		t.Fatal("bug in the test: the screen still follows the option's new ID")
	}

	v.addLine(v.now(optionID), app.ItemCustomItem, "Custom item", nil)
	o, ok := v.p.Option(v.now(optionID))
	if !ok || len(o.Items) != 1 || app.IsTemporaryID(o.ID) {
		t.Fatalf("the option after the add: %+v (found %v)", o, ok)
	}
	row := v.rowFor(o.Items[0].ID)
	if row == nil || d.win.Canvas().Focused() != row.fields[colName] {
		t.Fatalf("the new line's name does not have the cursor (focused: %T)", d.win.Canvas().Focused())
	}
}
