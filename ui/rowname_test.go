package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

// While the cursor stays in an item's name, the option's hint line
// follows a rename once it is saved, and shows a refused one's reason
// rather than the name.
func TestItemHintFollowsARename(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v, _ := h.contentFixture(runName("Hint rename"), nil, nil)
	test.Tap(tipButtons(v.body, "Custom item")[0])
	row := rowOfItem(t, v, "Custom item")
	name := row.fields[colName]
	hint := v.cui().hints[v.p.Areas[0].Options[0].ID]
	if hint.Text != "Item: Custom item" {
		t.Fatalf("with the cursor in the new line's name the hint reads %q", hint.Text)
	}
	test.Type(name, "Rack shelf")
	name.flush()
	if hint.Text != "Item: Rack shelf" {
		t.Fatalf("after the rename was saved the hint reads %q, want the new name", hint.Text)
	}
	retype(name, strings.Repeat("x", app.MaxNameLength+1))
	name.flush()
	if !strings.Contains(hint.Text, "Not saved") {
		t.Fatalf("a refused name leaves the hint at %q, want the refusal", hint.Text)
	}
}
